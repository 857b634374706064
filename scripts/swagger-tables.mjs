#!/usr/bin/env node
/**
 * Per-release tables of the API as each release describes itself: from the tag's
 * `templates/swagger/v1_json.tmpl`, the keys of every definition (answers and request bodies), which
 * definitions are request bodies, every route (`METHOD /path/:param`) and the query parameters each
 * route declares. The output (src/sandbox/flavours/swagger/<fork>@<release>.json, one line per entry)
 * is committed: the sandbox's release data and forgeform's availability data are checked against it
 * (test/unit/swagger-tables.test.ts) without a network or a git mirror.
 *
 *   node scripts/swagger-tables.mjs --gitea DIR --forgejo DIR [--gitea-main DIR]
 *
 * DIR is a git directory holding the tags (a bare mirror is enough: files are read with `git show`).
 * Gitea 1.26 has no tag in any copy read: it is read from `main` of the --gitea-main copy (1.26.0-dev).
 * Where a handler answers otherwise than its swagger says, the handler wins: such differences are listed
 * in src/sandbox/flavours/swagger-exceptions.ts (SWAGGER_EXCEPTIONS), with their source, not patched into these files.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The releases the sandbox plays, each as the last patch release of its line (src/sandbox/flavours/flavour.ts). */
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

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

function args(argv) {
  const out = {};
  for (let i = 2; i < argv.length; i += 2) {
    const key = argv[i]?.replace(/^--/, '');
    if (!key || argv[i + 1] === undefined) throw new Error(`usage: ${argv[1]} --gitea DIR --forgejo DIR [--gitea-main DIR]`);
    out[key] = argv[i + 1];
  }
  return out;
}

/** `/repos/{owner}/{repo}` → `/repos/:owner/:repo` (the sandbox's router and release data). */
const routePath = (p) => p.replace(/\{([^}]+)\}/g, ':$1');

/** The tables of one release's swagger. */
export function tablesOf(swagger) {
  const definitions = {};
  for (const [name, def] of Object.entries(swagger.definitions ?? {})) definitions[name] = Object.keys(def.properties ?? {}).sort();
  const bodies = new Set();
  const routes = [];
  const query = {};
  for (const [path, item] of Object.entries(swagger.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const route = `${method.toUpperCase()} ${routePath(path)}`;
      routes.push(route);
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      const q = params.filter((p) => p.in === 'query').map((p) => p.name).sort();
      if (q.length) query[route] = q;
      for (const p of params) {
        const ref = p.in === 'body' ? (p.schema?.$ref ?? p.schema?.items?.$ref) : undefined;
        if (ref) bodies.add(ref.replace('#/definitions/', ''));
      }
    }
  }
  return {
    requests: [...bodies].sort(),
    definitions: Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => a.localeCompare(b))),
    routes: routes.sort(),
    query: Object.fromEntries(Object.entries(query).sort(([a], [b]) => a.localeCompare(b))),
  };
}

/** One entry per line: small diffs between releases, and a file a reviewer can read. */
function compactJson(release, ref, t) {
  const block = (obj) => Object.entries(obj).map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n');
  return `{
  "release": ${JSON.stringify(release)},
  "source": ${JSON.stringify(`${ref}:templates/swagger/v1_json.tmpl`)},
  "requests": ${JSON.stringify(t.requests)},
  "routes": [
${t.routes.map((r) => `    ${JSON.stringify(r)}`).join(',\n')}
  ],
  "query": {
${block(t.query)}
  },
  "definitions": {
${block(t.definitions)}
  }
}
`;
}

function main() {
  const dirs = args(process.argv);
  const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'sandbox', 'flavours', 'swagger');
  mkdirSync(out, { recursive: true });
  for (const r of RELEASES) {
    const dir = dirs[r.repo];
    if (!dir) {
      console.error(`skipped ${r.name}: no --${r.repo} given`);
      continue;
    }
    // The template's only Go-template placeholder is the app sub-URL in basePath: JSON once it is filled.
    const text = execFileSync('git', ['--git-dir', dir, 'show', `${r.ref}:templates/swagger/v1_json.tmpl`], { encoding: 'utf8', maxBuffer: 64 << 20 }).replace(/\{\{[^}]*\}\}/g, '');
    const t = tablesOf(JSON.parse(text));
    writeFileSync(join(out, `${r.name}.json`), compactJson(r.name, r.ref, t));
    console.log(`${r.name} (${r.ref}): ${t.routes.length} routes, ${Object.keys(t.definitions).length} definitions`);
  }
}

main();
