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
 * The releases and their tags: scripts/release-sources.mjs.
 * Where a handler answers otherwise than its swagger says, the handler wins: such differences are listed
 * in src/sandbox/flavours/swagger-exceptions.ts (SWAGGER_EXCEPTIONS), with their source, not patched into these files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forEachRelease, git } from './release-sources.mjs';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

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
  const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'sandbox', 'flavours', 'swagger');
  mkdirSync(out, { recursive: true });
  forEachRelease(process.argv, (r, dir) => {
    // The template's only Go-template placeholder is the app sub-URL in basePath: JSON once it is filled.
    const text = git(dir, 'show', `${r.ref}:templates/swagger/v1_json.tmpl`).replace(/\{\{[^}]*\}\}/g, '');
    const t = tablesOf(JSON.parse(text));
    writeFileSync(join(out, `${r.name}.json`), compactJson(r.name, r.ref, t));
    console.log(`${r.name} (${r.ref}): ${t.routes.length} routes, ${Object.keys(t.definitions).length} definitions`);
  });
}

main();
