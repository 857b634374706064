/**
 * The contract of the domain registry: every folder under `src/sandbox/domains/` is registered,
 * no two domains claim the same table, seed key or route, and the registration order never lets a
 * parameter route shadow a static one (hono matches in registration order; Gitea's chi prefers the
 * static path).
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emptyAccessData } from '../../src/sandbox/core/state.js';
import { DOMAINS } from '../../src/sandbox/domains/index.js';
import type { ApiRouter, Method } from '../../src/sandbox/http/router.js';

interface Route {
  domain: string;
  method: Method;
  path: string;
}

function routesOf(): Route[] {
  const routes: Route[] = [];
  for (const d of DOMAINS) {
    const recorder = { on: (method: Method, path: string) => void routes.push({ domain: d.name, method, path }) };
    d.routes?.(recorder as unknown as ApiRouter);
  }
  return routes;
}

/** As the router matches: `:param` one segment, `*` anything. */
const matcher = (path: string): RegExp =>
  new RegExp(
    `^${path
      .split('/')
      .map((seg) => (seg === '*' ? '.*' : seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}$`,
  );

describe('the domain registry', () => {
  it('registers every folder under domains/, by its folder name', () => {
    const folders = readdirSync(new URL('../../src/sandbox/domains/', import.meta.url), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(DOMAINS.map((d) => d.name).sort()).toEqual(folders);
  });

  it('gives every seed key, top-level or nested, to one domain', () => {
    const owners = (keys: (d: (typeof DOMAINS)[number]) => readonly string[]): Record<string, string[]> => {
      const byKey: Record<string, string[]> = {};
      for (const d of DOMAINS) for (const k of keys(d)) (byKey[k] ??= []).push(d.name);
      return byKey;
    };
    const shared = (byKey: Record<string, string[]>): string[] => Object.entries(byKey).filter(([, ds]) => ds.length > 1).map(([k, ds]) => `${k}: ${ds.join(', ')}`);
    expect(shared(owners((d) => d.seed?.keys ?? []))).toEqual([]);
    expect(shared(owners((d) => (d.seed?.repo ?? []).flatMap((n) => n.keys)))).toEqual([]);
    expect(shared(owners((d) => (d.seed?.org ?? []).flatMap((n) => n.keys)))).toEqual([]);
  });

  it('gives every table of the state to one owner: the access model (core) or one domain', () => {
    const byTable: Record<string, string[]> = {};
    for (const t of Object.keys(emptyAccessData())) (byTable[t] ??= []).push('core');
    for (const d of DOMAINS) for (const t of Object.keys(d.data?.empty() ?? {})) (byTable[t] ??= []).push(d.name);
    expect(Object.entries(byTable).filter(([, owners]) => owners.length > 1)).toEqual([]);
    expect(byTable.teams).toEqual(['teams']);
  });

  it('registers each method and path once', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const r of routesOf()) {
      const key = `${r.method} ${r.path.replace(/:[^/]+/g, ':')}`;
      if (seen.has(key)) twice.push(`${key} (${seen.get(key)}, ${r.domain})`);
      seen.set(key, r.domain);
    }
    expect(twice).toEqual([]);
  });

  it('registers a static path before any parameter route that also matches it', () => {
    const routes = routesOf();
    const shadowed = routes.flatMap((r, i) => {
      const first = routes.findIndex((o) => o.method === r.method && matcher(o.path).test(r.path));
      return first < i ? [`${r.method} ${r.path} (${r.domain}) after ${routes[first]!.path} (${routes[first]!.domain})`] : [];
    });
    expect(shadowed).toEqual([]);
    // The case that motivates the rule, so that the check above cannot pass vacuously.
    const search = routes.findIndex((r) => r.path === '/repos/issues/search');
    const repo = routes.findIndex((r) => r.method === 'GET' && r.path === '/repos/:owner/:repo');
    expect(search).toBeGreaterThanOrEqual(0);
    expect(search).toBeLessThan(repo);
  });
});
