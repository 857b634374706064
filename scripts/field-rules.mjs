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
 * DIR is a git directory holding the tags (a bare mirror is enough). Gitea 1.26 has no tag in any
 * copy read: it is read from `main` of the --gitea-main copy (1.26.0-dev), as scripts/swagger-tables.mjs does.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The releases the sandbox plays (src/sandbox/flavours/flavour.ts), as in scripts/swagger-tables.mjs. */
const RELEASES = [
  { name: 'gitea@1.21', repo: 'gitea', ref: 'v1.21.11' },
  { name: 'gitea@1.22', repo: 'gitea', ref: 'v1.22.6' },
  { name: 'gitea@1.23', repo: 'gitea', ref: 'v1.23.8' },
  { name: 'gitea@1.24', repo: 'gitea', ref: 'v1.24.7' },
  { name: 'gitea@1.25', repo: 'gitea', ref: 'v1.25.4' },
  { name: 'gitea@1.26', repo: 'gitea-main', ref: 'main' },
  { name: 'forgejo@7', repo: 'forgejo', ref: 'v7.0.16' },
  { name: 'forgejo@11', repo: 'forgejo', ref: 'v11.0.15' },
  { name: 'forgejo@15', repo: 'forgejo', ref: 'v15.0.3' },
];

function args(argv) {
  const out = {};
  for (let i = 2; i < argv.length; i += 2) {
    const key = argv[i]?.replace(/^--/, '');
    if (!key || argv[i + 1] === undefined) throw new Error(`usage: ${argv[1]} --gitea DIR --forgejo DIR [--gitea-main DIR]`);
    out[key] = argv[i + 1];
  }
  return out;
}

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

function git(dir, ...a) {
  return execFileSync('git', ['--git-dir', dir, ...a], { encoding: 'utf8', maxBuffer: 64 << 20 });
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
  const dirs = args(process.argv);
  const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'releases', 'field-rules');
  mkdirSync(out, { recursive: true });
  for (const r of RELEASES) {
    const dir = dirs[r.repo];
    if (!dir) {
      console.error(`skipped ${r.name}: no --${r.repo} given`);
      continue;
    }
    const files = git(dir, 'ls-tree', '--name-only', `${r.ref}`, 'modules/structs/').split('\n').filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'));
    const fields = files.flatMap((file) => fieldRulesOf(git(dir, 'show', `${r.ref}:${file}`), file));
    fields.sort((a, b) => a.struct.localeCompare(b.struct) || a.at.localeCompare(b.at, undefined, { numeric: true }));
    writeFileSync(join(out, `${r.name}.json`), compactJson(r.name, r.ref, bindingOf(git(dir, 'show', `${r.ref}:go.mod`)), fields));
    console.log(`${r.name} (${r.ref}): ${fields.length} fields with binding rules`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
