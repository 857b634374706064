/**
 * 404 or 405 for every route the sandbox implements and a release lacks (issue 19 §2). Every release routes
 * with chi (go.mod of each tag), which answers 405 for a path routed for other methods only and 404 for a path
 * routed for none: what a release answers therefore follows from its own route table (its swagger,
 * src/sandbox/flavours/swagger/*.json). A concrete path that another route of the same method takes (e.g. a
 * `{runner_id}` route taking `registration-token`) is routed there and left out. Where a handler is routed
 * elsewhere than its swagger says, the handler's route counts (SWAGGER_EXCEPTIONS).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLAVOURS } from '../../src/sandbox/flavours/flavour.js';
import { available, routeAvailable } from '../../src/sandbox/flavours/releases.js';
import { SWAGGER_EXCEPTIONS } from '../../src/sandbox/flavours/swagger-exceptions.js';
import { swaggerOf } from '../../src/sandbox/flavours/swagger.js';
import { boot, type Harness } from '../sandbox/helpers.js';
import { sandboxRoutes } from '../support/sandbox-routes.js';
import { SEED } from './facts.js';

/** Every release read from a tag (not the idealised gitea@main). */
const RELEASED = FLAVOURS.filter((f) => Number.isFinite(f.release));

const VALUES: Record<string, string> = { owner: 'acme', repo: 'app', org: 'acme', username: 'alice' };

/** The route with its parameters filled in (`*` as one segment). */
const concrete = (path: string): string => path.replace(/:([^/]+)/g, (_m, name: string) => VALUES[name] ?? '999').replace(/\/\*$/, '/x');

/** A swagger route as a matcher of concrete paths (`{x}`: one segment). */
const matcher = (route: string): { method: string; re: RegExp } => {
  const [method, path] = route.split(' ') as [string, string];
  return { method, re: new RegExp(`^${path.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+')}$`) };
};

describe.each(RELEASED.map((f) => [f.name, f] as const))('%s: a route it lacks is 405 where the path is routed for another method, else 404', (name, flavour) => {
  let h: Harness;
  beforeAll(async () => {
    h = await boot({ ...SEED, flavour: name });
  });
  afterAll(async () => h?.sb.close());

  it('every implemented route the release lacks', async () => {
    // The release's routes: its swagger's, corrected where the handler differs (SWAGGER_EXCEPTIONS).
    const exceptions = Object.entries(SWAGGER_EXCEPTIONS).filter(([what]) => /^[A-Z]+ \//.test(what));
    const routes = new Set(swaggerOf(flavour)!.routes);
    for (const [what, e] of exceptions) {
      if (available(flavour, e.handler)) routes.add(what);
      else routes.delete(what);
    }
    const table = [...routes].map(matcher);
    const wrong: string[] = [];
    let checked = 0;
    for (const { method, path } of sandboxRoutes()) {
      if (routeAvailable(flavour, method, path)) continue;
      const url = concrete(path);
      const routed = table.filter((r) => r.re.test(url));
      if (routed.some((r) => r.method === method)) continue;
      const expected = routed.length > 0 ? 405 : 404;
      const status = (await h.call(method, url.slice(1), method === 'GET' || method === 'DELETE' ? {} : { body: {} })).status;
      checked++;
      if (status !== expected) wrong.push(`${method} ${url}: ${status}, the release's routes say ${expected} (${routed.map((r) => r.method).join(', ') || 'no route'})`);
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(0);
  });
});
