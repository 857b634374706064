#!/usr/bin/env node
/**
 * Per-release tables of the binding rules of the API's option structs, read from each tag's
 * `modules/structs/*.go`: for every field with a `binding:"…"` tag, its struct, JSON key, Go name and
 * type, the rules in tag order, the tag as written and its file:line. go-chi/binding runs these rules
 * on every request body before the handler sees it, and answers 422 `[GoName]: Rule` for the first
 * that fails; with the binding module the tag's go.mod pins (its handling of pointer fields changed
 * between versions). The output (src/releases/field-rules/<fork>@<release>.json, one line per field) is
 * committed: the sandbox's binder enforces it (src/sandbox/flavours/options.ts) and the plan checks
 * every value a kind sends against it (src/plan/field-rules.ts), so both read one table.
 *
 *   node scripts/field-rules.mjs --gitea DIR --forgejo DIR [--gitea-main DIR]
 *
 * The releases and their tags: scripts/release-sources.mjs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forEachRelease, git } from './release-sources.mjs';

/** `binding:"Required;In(a,b)"` → ['Required', 'In(a,b)']: go-chi splits the tag on `;`. */
export function rulesOf(tag) {
  return tag.split(';').map((r) => r.trim()).filter(Boolean);
}

/** Every field with a binding tag in one Go file: { struct, json, go, type, rules, tag, at }. */
export function fieldRulesOf(source, file) {
  const out = [];
  let struct;
  source.split('\n').forEach((line, i) => {
    const start = /^type (\w+) struct \{/.exec(line);
    if (start) {
      struct = start[1];
      return;
    }
    if (/^\}/.test(line)) {
      struct = undefined;
      return;
    }
    if (!struct) return;
    const m = /^\s+(\w+)\s+([^\s`]+)\s+`([^`]*)`/.exec(line);
    if (!m) return;
    const binding = /binding:"([^"]*)"/.exec(m[3]);
    if (!binding) return;
    const json = /json:"([^",]*)/.exec(m[3])?.[1];
    if (!json || json === '-') return;
    out.push({ struct, json, go: m[1], type: m[2], rules: rulesOf(binding[1]), tag: binding[1], at: `${file}:${i + 1}` });
  });
  return out;
}


/**
 * The binding module the tag's go.mod pins (`gitea.com/go-chi/binding v0.0.0-20230415142243-04b515c6d669`):
 * how it runs the rules on pointer fields differs between versions (src/releases/rules.ts BINDING_MODES).
 */
export function bindingOf(goMod) {
  const m = /^\s*((?:gitea\.com|code\.forgejo\.org)\/go-chi\/binding) (\S+)/m.exec(goMod);
  return m ? `${m[1]} ${m[2]}` : '';
}

/** One field per line: small diffs between releases, and a file a reviewer can read. */
function compactJson(release, ref, binding, fields) {
  return `{
  "release": ${JSON.stringify(release)},
  "source": ${JSON.stringify(`${ref}:modules/structs/*.go`)},
  "binding": ${JSON.stringify(binding)},
  "fields": [
${fields.map((f) => `    ${JSON.stringify(f)}`).join(',\n')}
  ]
}
`;
}

function main() {
  const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'releases', 'field-rules');
  mkdirSync(out, { recursive: true });
  forEachRelease(process.argv, (r, dir) => {
    const files = git(dir, 'ls-tree', '--name-only', `${r.ref}`, 'modules/structs/').split('\n').filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'));
    const fields = files.flatMap((file) => fieldRulesOf(git(dir, 'show', `${r.ref}:${file}`), file));
    fields.sort((a, b) => a.struct.localeCompare(b.struct) || a.at.localeCompare(b.at, undefined, { numeric: true }));
    writeFileSync(join(out, `${r.name}.json`), compactJson(r.name, r.ref, bindingOf(git(dir, 'show', `${r.ref}:go.mod`)), fields));
    console.log(`${r.name} (${r.ref}): ${fields.length} fields with binding rules`);
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
