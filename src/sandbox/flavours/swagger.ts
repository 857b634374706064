/**
 * Each release's own API description as the sandbox uses it: the tables scripts/swagger-tables.mjs
 * generated from the tag's `templates/swagger/v1_json.tmpl` (swagger/<flavour>.json, committed). A
 * released flavour serves the routes its table lists, binds the request keys its table gives the
 * option struct and answers with the keys its table gives the answer struct — except where the
 * handler does otherwise than the swagger says (SWAGGER_EXCEPTIONS: the handler wins, with its
 * source). The idealised `gitea@main` has no table: it keeps the hand-written data of releases.ts.
 */
import type { Flavour } from './flavour.js';
import { SWAGGER_EXCEPTIONS } from './swagger-exceptions.js';
import { available } from './availability.js';
import gitea121 from './swagger/gitea@1.21.json' with { type: 'json' };
import gitea122 from './swagger/gitea@1.22.json' with { type: 'json' };
import gitea123 from './swagger/gitea@1.23.json' with { type: 'json' };
import gitea124 from './swagger/gitea@1.24.json' with { type: 'json' };
import gitea125 from './swagger/gitea@1.25.json' with { type: 'json' };
import gitea126 from './swagger/gitea@1.26.json' with { type: 'json' };
import forgejo7 from './swagger/forgejo@7.json' with { type: 'json' };
import forgejo11 from './swagger/forgejo@11.json' with { type: 'json' };
import forgejo15 from './swagger/forgejo@15.json' with { type: 'json' };

export interface SwaggerTables {
  release: string;
  source: string;
  /** Definitions used as request bodies. */
  requests: string[];
  /** `METHOD /path/{param}`, as the swagger writes them. */
  routes: string[];
  /** Route → the query parameters it declares. */
  query: Record<string, string[]>;
  /** Definition → its keys. */
  definitions: Record<string, string[]>;
}

const RAW: Record<string, SwaggerTables> = {
  'gitea@1.21': gitea121,
  'gitea@1.22': gitea122,
  'gitea@1.23': gitea123,
  'gitea@1.24': gitea124,
  'gitea@1.25': gitea125,
  'gitea@1.26': gitea126,
  'forgejo@7': forgejo7,
  'forgejo@11': forgejo11,
  'forgejo@15': forgejo15,
};

/** The table of a released flavour; undefined for `gitea@main`. */
export function swaggerOf(flavour: Flavour): SwaggerTables | undefined {
  return RAW[flavour.name];
}

/**
 * A route with its parameter names blanked: `/repos/{owner}/{repo}` and the sandbox's `/repos/:owner/:repo`
 * (and its `*` for a name that may hold `/`) both become `/repos/{}/{}`. Parameter names differ between
 * releases and between the swagger and the router; the shape is what routes.
 */
export function routeShape(route: string): string {
  return route.replace(/\{[^}]+\}/g, '{}').replace(/\/:[^/]+/g, '/{}').replace(/\/\*$/, '/{}');
}

const shapes = new Map<string, Set<string>>();

function routeShapes(t: SwaggerTables): Set<string> {
  let set = shapes.get(t.release);
  if (!set) shapes.set(t.release, (set = new Set(t.routes.map(routeShape))));
  return set;
}

/** The handler's truth where it differs from the swagger, else undefined. */
function exception(flavour: Flavour, what: string): boolean | undefined {
  const e = SWAGGER_EXCEPTIONS[what];
  return e ? available(flavour, e.handler) : undefined;
}

/** Whether the release serves `METHOD /path` (sandbox form); undefined when it has no table. */
export function swaggerHasRoute(flavour: Flavour, method: string, path: string): boolean | undefined {
  const t = swaggerOf(flavour);
  if (!t) return undefined;
  return exception(flavour, `${method} ${path}`) ?? routeShapes(t).has(routeShape(`${method} ${path}`));
}

/**
 * Whether the release's struct has the key (an answer's or a request body's); undefined when the release
 * has no table or the table has no such struct (then the hand-written data decides).
 */
export function swaggerHasKey(flavour: Flavour, struct: string, key: string): boolean | undefined {
  const keys = swaggerOf(flavour)?.definitions[struct];
  if (!keys) return undefined;
  return exception(flavour, `${struct}.${key}`) ?? keys.includes(key);
}

/**
 * The query of a request as the release's handler reads it: only the parameters its swagger declares for
 * the route (list filters a release does not have are ignored there, as on the real server). Unchanged on
 * `gitea@main` and for a route the table does not have.
 */
export function releaseQuery(flavour: Flavour, route: string, query: URLSearchParams): URLSearchParams {
  const t = swaggerOf(flavour);
  const declared = t?.query[route];
  if (!declared) return query;
  const out = new URLSearchParams();
  for (const [k, v] of query) if (declared.includes(k)) out.append(k, v);
  return out;
}
