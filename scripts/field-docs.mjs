// Writes the parts of the docs that the kinds' field definitions (src/kinds/<kind>/fields.ts) say,
// between marker comments, keeping the prose around them:
//   docs/kinds/*.md   <!-- BEGIN GENERATED: fields of src/kinds/<kind> ... -->  the kind's field table
//   docs/servers.md   <!-- BEGIN GENERATED: releases ... -->                    the fields and kinds only some releases have
//   README.md, docs/configuration.md  <!-- BEGIN GENERATED: kind pages ... -->  links to every kind's page, in registry order
// Each block ends with <!-- END GENERATED -->.
//   node scripts/field-docs.mjs          writes them
//   node scripts/field-docs.mjs --check  exits 1 when a committed page is not what the definitions make
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderOf, loadKindSources } from './kind-sources.mjs';

const root = new URL('../', import.meta.url);
export const SERVERS_PAGE = 'docs/servers.md';
const END = '<!-- END GENERATED -->';
const BEGIN = /<!-- BEGIN GENERATED: (fields of src\/kinds\/([\w-]+)|releases|kind pages)[^>]*-->/g;
/** Pages outside docs/kinds with generated blocks. */
const PAGES = [SERVERS_PAGE, 'README.md', 'docs/configuration.md'];

/** Text in a table cell: one line, pipes escaped. */
const cell = (text) => String(text).replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

/** The kinds' schema definitions (their fragments), by name: what a `$ref` names (set by fieldDocs). */
let definitions = {};

/** A config value's type as a reader says it. */
function typeOf(schema) {
  if (schema.$ref) {
    const name = schema.$ref.replace('#/definitions/', '');
    // A definition that is no object (a user name) reads as what it is.
    const def = definitions[name];
    return def?.type && def.type !== 'object' ? typeOf(def) : `${name} object`;
  }
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (schema.enum) return `one of ${schema.enum.map((v) => `\`${v}\``).join(', ')}`;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types
    .map((t) => {
      if (t === 'array') return `list of ${typeOf(schema.items ?? {})}${schema.uniqueItems ? 's (a set)' : 's'}`;
      if (t === 'integer' && schema.minimum !== undefined) return `integer ≥ ${schema.minimum}`;
      if (t === 'object') return schema.additionalProperties?.$ref ? `map of name → ${typeOf(schema.additionalProperties)}` : 'object';
      return t ?? 'any value';
    })
    .join(' or ');
}

/** What a write does with it: the write semantics of its definition. */
function writes(entry) {
  if (entry.serverField === false) return 'config only: not a field of the server';
  const out = [];
  if (entry.writeOnly) out.push('write-only: the server never returns it, never compared');
  if (entry.sensitive) out.push('secret: never shown nor saved');
  if (entry.resendOnEdit) out.push('sent again with every edit');
  if (entry.createOnly) out.push('sent only when the object is created');
  if (entry.readBack === false) out.push('not checked in a write’s answer');
  if (entry.perElement) out.push('a set: one request per element added or removed');
  return out.join('; ');
}

/** The field table of one kind: every entry of its config, in its order. */
function fieldTable(sources, folder) {
  const entries = sources.folders[folder]?.fields?.entries;
  if (!entries) throw new Error(`src/kinds/${folder}/fields.ts does not exist or exports no entries`);
  const rows = entries.map((e) => {
    if (!e.config) throw new Error(`src/kinds/${folder}/fields.ts: ${e.name} has no config definition`);
    const releases = e.availability ? sources.server.describeAvailability(e.availability) : 'all';
    return `| \`${e.name}\` | ${cell(typeOf(e.config))} | ${cell(releases)} | ${cell(writes(e))} | ${cell(e.config.description ?? '')} |`;
  });
  return ['| Field | Type | Releases | Writes | Description |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** The kinds and fields that only some releases have, from the registry (kinds' routes) and every kind's fields. */
function releaseTable(sources) {
  const rows = [];
  const seen = new Set();
  for (const kind of sources.kinds) {
    const where = kind.declaredAt ? kind.declaredAt.filter((p) => p !== '*').join('.') : kind.configKey;
    if (kind.availability) rows.push(`| \`${where}\` (the kind: its routes) | ${cell(sources.server.describeAvailability(kind.availability))} |`);
    const folder = folderOf(sources, kind) ?? kind.name;
    for (const f of kind.fields ?? []) {
      if (!f.availability || seen.has(`${folder} ${f.name}`)) continue;
      seen.add(`${folder} ${f.name}`);
      rows.push(`| \`${where}\` › \`${f.name}\` | ${cell(sources.server.describeAvailability(f.availability))} |`);
    }
  }
  return ['| Where | Releases that have it |', '|---|---|', ...rows].join('\n');
}

/** The docs page of each kind folder: the page whose field table names it. */
function kindPages() {
  const out = new Map();
  for (const f of readdirSync(new URL('docs/kinds/', root)).filter((f) => f.endsWith('.md')).sort()) {
    const text = readFileSync(new URL(`docs/kinds/${f}`, root), 'utf8');
    for (const m of text.matchAll(BEGIN)) if (m[2]) out.set(m[2], { path: `docs/kinds/${f}`, title: /^# (.+)$/m.exec(text)?.[1] ?? f });
  }
  return out;
}

/** Links to every kind's page, in the order of the registry (a kind folder without a page is an error). */
function pageLinks(sources, page) {
  const pages = kindPages();
  const folders = [...new Set(sources.kinds.map((k) => folderOf(sources, k)))];
  const links = folders.map((folder) => {
    const p = pages.get(folder);
    if (!p) throw new Error(`src/kinds/${folder} has no page in docs/kinds/ (one with its generated field table)`);
    return `[${p.title}](${relative(dirname(page), p.path)})`;
  });
  return `${links.join(', ')}.`;
}

/** A page with each generated block rewritten; unchanged text elsewhere. */
function rewrite(sources, path, text) {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(BEGIN)) {
    const start = m.index + m[0].length;
    const end = text.indexOf(END, start);
    if (end < 0) throw new Error(`${path}: "${m[0]}" has no ${END} after it`);
    const body = m[2] ? fieldTable(sources, m[2]) : m[1] === 'releases' ? releaseTable(sources) : pageLinks(sources, path);
    // The block keeps the marker's indentation (inside a list item).
    const indent = /[ \t]*$/.exec(text.slice(0, m.index))[0];
    out += `${text.slice(last, start)}\n${body.replace(/^/gm, indent)}\n${indent}`;
    last = end;
  }
  return out + text.slice(last);
}

/** Every page with generated blocks: path → the text it must have. */
export async function fieldDocs() {
  const sources = await loadKindSources();
  definitions = Object.assign({}, ...Object.values(sources.folders).map((f) => f?.fields?.fragment?.definitions ?? {}));
  const pages = [...PAGES, ...readdirSync(new URL('docs/kinds/', root)).filter((f) => f.endsWith('.md')).map((f) => `docs/kinds/${f}`)];
  const out = new Map();
  for (const path of pages) {
    const text = readFileSync(new URL(path, root), 'utf8');
    const next = rewrite(sources, path, text);
    if (text.includes('<!-- BEGIN GENERATED')) out.set(path, next);
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const stale = [];
  for (const [path, text] of await fieldDocs()) {
    if (readFileSync(new URL(path, root), 'utf8') === text) continue;
    if (process.argv.includes('--check')) stale.push(path);
    else writeFileSync(new URL(path, root), text);
  }
  if (stale.length) {
    console.error(`${stale.join(', ')}: not what the field definitions make: run npm run schema (edit src/kinds/*/fields.ts, not the generated tables)`);
    process.exit(1);
  }
}
