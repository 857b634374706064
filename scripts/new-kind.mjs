// Starts a new kind: writes its folder, registers it, wires its config into the schema and writes
// its docs page and test file, then regenerates what is generated (npm run schema) and the action
// bundle. What is left to a human is listed at the end (and in CONTRIBUTING.md, "How to add a kind").
//
//   npm run new-kind -- NAME [--scope repo|org|server] [--key CONFIG_KEY] [--prune PRUNE_KEY|--no-prune]
//                            [--title TITLE] [--dry-run] [--no-bundle]
//
// NAME is the kind's name and folder (snake_case: team, repo_hook). --scope is where its objects live
// (default repo); --key its config section (default NAME + "s"), --prune its policy.prune entry
// (default the config key; --no-prune for a kind that never deletes). --dry-run prints what it would
// write; --no-bundle leaves the action bundle as it is (the unit test uses it).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const SCOPES = ['repo', 'org', 'server'];
const NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

const pascal = (s) => s.replace(/(^|_)([a-z0-9])/g, (_, __, c) => c.toUpperCase());
const camel = (s) => s.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
/** "widget_hooks" → "Widget hooks": titles and headings in sentence case, as the schema writes them. */
const sentence = (s) => s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ');
const quote = (s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The kind as the templates need it, from the command line's options. */
export function kindSpec({ name, scope = 'repo', key, prune, title }) {
  if (!name || !NAME.test(name)) throw new Error(`the kind's name must be snake_case (letters, digits, "_"), like team or repo_hook: got ${JSON.stringify(name)}`);
  if (!SCOPES.includes(scope)) throw new Error(`--scope must be one of ${SCOPES.join(', ')}: got ${JSON.stringify(scope)}`);
  const configKey = key ?? `${name}s`;
  if (!NAME.test(configKey)) throw new Error(`--key must be snake_case: got ${JSON.stringify(configKey)}`);
  const pruneKey = prune === false ? '' : (prune ?? configKey);
  const human = title ?? name.replace(/_/g, ' ');
  return { name, scope, configKey, pruneKey, title: human, plural: configKey.replace(/_/g, ' '), kindConst: `${camel(name)}Kind`, configType: `${pascal(name)}Config`, docsPage: `docs/kinds/${configKey.replace(/_/g, '-')}.md` };
}

/** The config path of one declared object, as code. */
function declaredPathCode(k) {
  if (k.scope === 'repo') return `['repos', scope.name, '${k.configKey}', name]`;
  if (k.scope === 'org') return `['orgs', scope.name, '${k.configKey}', name]`;
  return `['${k.configKey}', name]`;
}

/** The section that holds the kind's objects by name, as code (in its parent's entries, or its own top-level property). */
function sectionCode(k, indent) {
  const prune = k.pruneKey ? ` With policy.prune containing "${k.pruneKey}", ${k.plural} not listed here are deleted.` : '';
  const where = k.scope === 'server' ? 'of the server' : k.scope === 'repo' ? 'of the repository' : 'of the organisation';
  const lines = [
    'byName(',
    `  { title: ${quote(sentence(k.configKey))}, description: ${quote(`${sentence(k.plural)} ${where}, by name.${prune} TODO: say what a user must know first.`)} },`,
    `  { type: 'string', minLength: 1, errorMessage: ${quote(`must be a non-empty ${k.title} name`)} },`,
    `  '${k.name}',`,
    ')',
  ];
  return lines.map((l, i) => (i === 0 ? l : `${indent}${l}`)).join('\n');
}

/** The files of the kind's folder, its docs page and its test file. */
export function newFiles(k) {
  const scopeConfig = { repo: 'RepoConfig', org: 'OrgConfig', server: 'Config' }[k.scope];
  const files = new Map();
  files.set(
    `src/kinds/${k.name}/fields.ts`,
    `import { ${k.scope === 'server' ? 'byName, ' : ''}objectSchema, serverFields, text } from '../fields.js';
import type { EntrySpec, SchemaFragment } from '../../model/index.js';

/**
 * A ${k.title}'s config, one definition per field (npm run schema makes the schema, the config types
 * and the docs tables from them). TODO: the fields of the server's object that forgeform manages,
 * each with the releases that have it (only), its write semantics and a description users read.
 */
export const entries: EntrySpec[] = [
  text('description', { title: 'Description', description: 'TODO: what this field does, as users read it in the docs and their editor.' }),
];

export const fields = serverFields(entries);

export const fragment: SchemaFragment = {
${k.scope === 'server' ? `  properties: {\n    ${k.configKey}: ${sectionCode(k, '    ')},\n  },\n` : ''}  definitions: {
    ${k.name}: objectSchema({ title: ${quote(sentence(k.title))}, description: ${quote(`One ${k.title}, keyed by its name. A field that is not written is not managed. TODO.`)} }, entries),
  },
};
`,
  );
  const types = `${pascal(k.name)}Types`;
  const server = `Server${pascal(k.name)}`;
  files.set(
    `src/kinds/${k.name}/types.ts`,
    `// The types the ${k.name} kind is defined with (defineKind), apart from its modules so that each imports them without a cycle.
import type { ${scopeConfig} } from '../../config/types.js';
import type { KindTypes } from '../../model/index.js';

/** A ${k.title} as the server answers it (its shape checked, see read.ts). TODO: what it answers. */
export type ${server} = Record<string, unknown> & { id: number; name: string };

/** What the kind is typed by: its section of the scope's config, a ${k.title} as answered, no lookups (prepare), no state per run. */
export type ${types} = KindTypes<Pick<${scopeConfig}, '${k.configKey}'>, ${server}, undefined, undefined>;
`,
  );
  files.set(
    `src/kinds/${k.name}/read.ts`,
    `import { apiPath } from '../../gitea/path.js';
import { normalizeFields, shapeOfFields } from '../fields.js';
import type { Reading } from '../../model/index.js';
import { fields } from './fields.js';
import type { ${server}, ${types} } from './types.js';

export { fields } from './fields.js';

/** Where the server lists a scope's ${k.plural} (segments: ["repos", owner, name], ["orgs", name], or []). TODO: the route, and its releases (Kind.availability). */
export function listPath(segments: string[]): string {
  return apiPath(...segments, '${k.configKey}');
}

/** A ${k.title} as answered. TODO: its identity as the server names it. */
export const shape = shapeOfFields(fields, { id: 'id', name: 'string' });

function fromServer(r: ${server}) {
  return { key: String(r.name), id: Number(r.id), fields: normalizeFields(fields, r, false) };
}

export const reading = {
  fields,
  shape,

  async read({ scope, ctx }) {
    const raw = await ctx.client.list<${server}>(listPath(scope.segments), { object: \`${k.plural} of \${scope.name}\`, shape });
    return raw.map(fromServer);
  },

  fromServer,
} satisfies Reading<${types}>;
`,
  );
  files.set(
    `src/kinds/${k.name}/plan.ts`,
    `import { normalizeFields } from '../fields.js';
import type { DesiredObject, Planning } from '../../model/index.js';
import { fields } from './fields.js';
import type { ${types} } from './types.js';

export const planning = {
  async desired({ entry${k.scope === 'server' ? '' : ', scope'} }) {
    const declared = entry?.${k.configKey};
    if (!declared) return undefined;
    const objects: DesiredObject[] = Object.entries(declared).map(([name, d]) => ({
      key: name,
      fields: normalizeFields(fields, { ...d }, true),
      path: ${declaredPathCode(k)},
    }));
    return { objects, problems: [] };
  },
} satisfies Planning<${types}>;
`,
  );
  files.set(
    `src/kinds/${k.name}/ops.ts`,
    `import type { Writing } from '../../model/index.js';
import { notAnActionOf } from '../actions.js';
import { listPath } from './read.js';
import type { ${types} } from './types.js';

export const writing = {
  // TODO: the requests of each action, as the server's API takes them (see docs/servers-writes.md).
  ops({ scope, action, desired, current, changed }) {
    const base = listPath(scope.segments);
    if (action === 'delete') return [{ method: 'DELETE', path: \`\${base}/\${current.id}\` }];
    if (action === 'create') return [{ method: 'POST', path: base, body: { name: desired.key, ...desired.fields } }];
    if (action !== 'update') return notAnActionOf('${k.name}', action);
    return [{ method: 'PATCH', path: \`\${base}/\${current.id}\`, body: Object.fromEntries(changed.map((f) => [f, desired.fields[f]])) }];
  },
} satisfies Writing<${types}>;
`,
  );
  files.set(
    `src/kinds/${k.name}/index.ts`,
    `import { defineKind } from '../../model/index.js';
import { writing } from './ops.js';
import { planning } from './plan.js';
import { reading } from './read.js';
import type { ${types} } from './types.js';

/**
 * ${sentence(k.plural)}, by name. TODO: what forgeform manages of them and what it cannot.
 * read.ts reads them, plan.ts plans them, ops.ts writes them; fields.ts defines their config.
 */
export const ${k.kindConst} = defineKind<${types}['config'], ${types}['server'], ${types}['prepared'], ${types}['run']>({
  name: '${k.name}',
  title: '${k.title}',
  pruneKey: '${k.pruneKey}',
  configKey: '${k.configKey}',
  scopeType: '${k.scope}',
  actions: ${k.pruneKey ? "['create', 'update', 'delete']" : "['create', 'update']"},
  ...reading,
  ...planning,
  ...writing,
  // TODO: toConfig (and exportInto for a server-wide kind) to export it; then name it in export --include's help.
});
`,
  );
  const where = k.scope === 'repo' ? '`repos."owner/name".' : k.scope === 'org' ? '`orgs.NAME.' : '`';
  files.set(
    k.docsPage,
    `# ${sentence(k.plural)}

Declared under ${where}${k.configKey}\`, by name. TODO: what the plan reads (which requests), what apply
sends, what forgeform refuses and why${k.pruneKey ? `, and what \`${k.pruneKey}\` in \`policy.prune\` deletes` : ''}.

## Fields

<!-- BEGIN GENERATED: fields of src/kinds/${k.name} (npm run schema writes this table from src/kinds/${k.name}/fields.ts) -->
<!-- END GENERATED -->
`,
  );
  files.set(
    `test/e2e/${k.configKey.replace(/_/g, '-')}.test.ts`,
    `// ${sentence(k.plural)} end to end: the built CLI against the sandbox (see test/e2e/helpers.ts and test/e2e/labels.test.ts).
import { describe, it } from 'vitest';

describe('${k.plural}', () => {
  it.todo('plan shows the ${k.title} to create, change and delete, and apply makes them: a second plan is empty');
  it.todo('prune deletes undeclared ${k.plural} only with ${k.pruneKey || '(no prune key)'} in policy.prune');
  it.todo('export writes them, and planning the export against the same server shows no changes');
});
`,
  );
  return files;
}

/** Inserts `text` before the line holding `marker` in a file's text; an error naming the file when the marker is gone. */
function insertBefore(path, text, marker, insert) {
  const i = text.indexOf(marker);
  if (i < 0) throw new Error(`${path}: no "${marker.trim()}" to add the new kind at`);
  const lineStart = text.lastIndexOf('\n', i) + 1;
  return text.slice(0, lineStart) + insert + text.slice(lineStart);
}

/** The edits of files that list kinds by hand: path → new text. */
export function edits(k, read) {
  const out = new Map();
  const registry = 'src/kinds/index.ts';
  let text = read(registry);
  const imports = [...text.matchAll(/^import \{[^}]*\} from '\.\/[\w-]+\/index\.js';\n/gm)];
  if (!imports.length) throw new Error(`${registry}: no kind import to add the new kind after`);
  const last = imports.at(-1);
  text = `${text.slice(0, last.index + last[0].length)}import { ${k.kindConst} } from './${k.name}/index.js';\n${text.slice(last.index + last[0].length)}`;
  const list = /(export const kinds(?::[^=]+)? = \[)([^\]]*)(\];)/.exec(text);
  if (!list) throw new Error(`${registry}: no "export const kinds = [...]" to add the new kind to`);
  text = text.replace(list[0], `${list[1]}${list[2].trimEnd()}, ${k.kindConst}${list[3]}`);
  out.set(registry, text);

  // The schema takes the kind's fragment from the registry; a server-wide kind's section also has its place in SECTIONS.
  if (k.scope === 'server') {
    const assembler = 'scripts/assemble-schema.mjs';
    text = read(assembler);
    const sections = /(export const SECTIONS = \[)([^\]]*)(\];)/.exec(text);
    if (!sections) throw new Error(`${assembler}: no SECTIONS list`);
    out.set(assembler, text.replace(sections[0], `${sections[1]}${sections[2]}, '${k.configKey}'${sections[3]}`));
  }

  if (k.scope !== 'server') {
    const parent = `src/kinds/${k.scope}/fields.ts`;
    const section = `  configEntry(\n    '${k.configKey}',\n    ${sectionCode(k, '    ')},\n  ),\n`;
    out.set(parent, insertBefore(parent, read(parent), `// npm run new-kind adds the section of a new ${k.scope === 'repo' ? 'repository' : 'organisation'} kind here.`, section));
  }

  const seeds = 'test/support/seeds.ts';
  out.set(seeds, insertBefore(seeds, read(seeds), '// npm run new-kind:', `  ${k.name}: {}, // TODO: a ${k.title} (with its sandbox domain's seed), for the registry contract test and the export round trip.\n`));
  return out;
}

/** Everything the kind's start writes: path → text. Refuses a name, folder or key that is taken. */
export async function scaffold(options, root = new URL('../', import.meta.url)) {
  const k = kindSpec(options);
  const read = (path) => readFileSync(new URL(path, root), 'utf8');
  const files = newFiles(k);
  const { loadKindSources } = await import(new URL('scripts/kind-sources.mjs', root).href);
  const { kinds } = await loadKindSources();
  const taken = kinds.find((other) => other.name === k.name || other.configKey === k.configKey || (k.pruneKey && other.pruneKey === k.pruneKey));
  if (taken)
    throw new Error(
      `the kind ${taken.name} already has ${taken.name === k.name ? `the name ${k.name}` : taken.configKey === k.configKey ? `the config key ${k.configKey}` : `the prune key ${k.pruneKey}`}: a key belongs to one kind, in every scope (choose another with --key / --prune)`,
    );
  for (const path of files.keys()) if (existsSync(new URL(path, root))) throw new Error(`${path} exists already: is there a kind ${k.name}?`);

  return { kind: k, files: new Map([...files, ...edits(k, read)]) };
}

/** What is left to a human once the kind is started. */
export function nextSteps(k) {
  return [
    `src/kinds/${k.name}/fields.ts: the fields (one definition each), then npm run schema`,
    `src/kinds/${k.name}/read.ts, plan.ts, ops.ts: the routes, answer shape, checks and requests (the TODOs)`,
    `src/sandbox/domains/: the ${k.plural}' records, seed and routes; test/support/seeds.ts: a ${k.title} in OBJECTS_OF`,
    `${k.docsPage}: the prose; test/e2e/${k.configKey.replace(/_/g, '-')}.test.ts: the tests (they are todo)`,
    'npm run build && npm run build:action again after your changes, before landing (CI compares the bundle)',
  ];
}

function run(root, args) {
  const r = spawnSync(process.execPath, args, { cwd: fileURLToPath(root), stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed`);
}

/** The usage: the comment at the top of this file, without its comment marks. */
function usage() {
  const text = readFileSync(new URL(import.meta.url), 'utf8');
  return text.slice(0, text.indexOf('\nimport ')).replace(/^\/\/ ?/gm, '');
}

/** The command line's options, or a one-line error (an unknown option, a missing value) with the usage after it. */
function commandLine(argv) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: { help: { type: 'boolean', short: 'h' }, scope: { type: 'string' }, key: { type: 'string' }, prune: { type: 'string' }, 'no-prune': { type: 'boolean' }, title: { type: 'string' }, 'dry-run': { type: 'boolean' }, 'no-bundle': { type: 'boolean' } },
    });
  } catch (e) {
    console.error(`new-kind: ${e instanceof Error ? e.message : String(e)}\n\n${usage()}`);
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = commandLine(process.argv.slice(2));
  if (values.help) {
    console.log(usage());
    process.exit(0);
  }
  const root = new URL('../', import.meta.url);
  try {
    const { kind, files } = await scaffold({ name: positionals[0], scope: values.scope, key: values.key, prune: values['no-prune'] ? false : values.prune, title: values.title }, root);
    for (const [path, text] of files) {
      if (values['dry-run']) {
        console.log(`--- ${path}\n${text}`);
        continue;
      }
      mkdirSync(dirname(fileURLToPath(new URL(path, root))), { recursive: true });
      writeFileSync(new URL(path, root), text);
      console.log(`wrote ${path}`);
    }
    if (!values['dry-run']) {
      for (const script of ['assemble-schema.mjs', 'config-types.mjs', 'field-docs.mjs']) run(root, [`scripts/${script}`]);
      if (!values['no-bundle']) run(root, ['scripts/build-action.mjs']);
      console.log(`regenerated the schema, the config types and the docs tables${values['no-bundle'] ? '' : ', and the action bundle'}`);
    }
    console.log(`\nThe kind ${kind.name} is started. Left to do:\n${nextSteps(kind).map((s) => `- ${s}`).join('\n')}`);
  } catch (e) {
    console.error(`new-kind: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
