/**
 * The sandbox as a hono app: `/api/v1` (every domain's routes), the request log under
 * `/_sandbox/requests`, and around every `/api/v1` request the cross-cutting machinery — request
 * logging with `unknownFields`, latency, fault injection, `Cache-Control`, the state file, and the
 * answers for unknown paths (plain-text 404) and known paths with another method (405).
 */
import { renameSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bindBody, jsonKeys } from './http/binding.js';
import { apiError, empty, json, pageNotFound, plainText } from './http/respond.js';
import { ApiRouter, API_PREFIX, rawPathOf, type SandboxEnv } from './http/router.js';
import { isAdminAuthorization, redactEntry, type RequestLogEntry } from './request-log.js';
import { DOMAINS } from './domains/index.js';
import type { SandboxState } from './core/state.js';
import { stateToJSON } from './core/state-file.js';
import { defaultFlavour, type Flavour } from './flavours/flavour.js';
import { optionFor } from './flavours/options.js';
import { routeAvailable } from './flavours/releases.js';

export type { RequestLogEntry };

export interface AppOptions {
  /** ROOT_URL (with or without the trailing slash); default: the origin of each request. */
  rootUrl?: string | (() => string);
  /** Delay before every `/api/v1` answer. */
  latencyMs?: number;
  /** Share (0..1) of `/api/v1` requests answered with 500, 502, 503, 429 or a dropped connection. */
  faultRate?: number;
  /** Written (JSON) after every successful write request. */
  statePath?: string;
  /** Where requests are logged; default a new array (read it with `GET /_sandbox/requests`). */
  requestLog?: RequestLogEntry[];
  /** false: nothing is logged (nor its body parsed again for unknown fields), for a caller that never reads the log. */
  logRequests?: boolean;
  /** One line per request on stderr. */
  verbose?: boolean;
  /** Random source for fault injection (tests make it deterministic). */
  random?: () => number;
  /** Retry-After (seconds) of an injected 429; default 1 (tests that inject many set 0). */
  faultRetryAfter?: number;
  /** The release to play (routes, fields, answers, quirks); default `gitea@main`, the idealised server. */
  flavour?: Flavour;
  /** `[federation] ENABLED = true`: `/api/v1/nodeinfo` and `/.well-known/nodeinfo`, on releases that have them. */
  federation?: boolean;
  /** The server's time zone (IANA name; default UTC): `due_date` in answers carries its offset. */
  timezone?: string;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const CACHE_CONTROL = 'max-age=0, private, must-revalidate';

export type FaultKind = '500' | '502' | '503' | '429' | 'drop';
const FAULTS: FaultKind[] = ['500', '502', '503', '429', 'drop'];

function logBody(raw: string, contentType: string): unknown {
  if (raw === '') return undefined;
  if (contentType.toLowerCase().includes('json')) {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return raw;
    }
  }
  return raw;
}

/** The answer of an injected fault (a proxy's plain text, except Gitea's own 500). */
function faultResponse(kind: Exclude<FaultKind, 'drop'>, root: string, retryAfter = 1): Response {
  const headers = { 'X-Forgeform-Sandbox-Fault': kind };
  switch (kind) {
    case '500': {
      const res = apiError(root, 500, 'sandbox: injected fault');
      res.headers.set('X-Forgeform-Sandbox-Fault', kind);
      return res;
    }
    case '502':
      return plainText(502, 'Bad Gateway\n', headers);
    case '503':
      return plainText(503, 'Service Unavailable\n', headers);
    case '429':
      return plainText(429, 'Too Many Requests\n', { ...headers, 'Retry-After': String(retryAfter) });
  }
}

/** Destroys the client connection (a dropped connection, as a crashing proxy would). */
function dropConnection(c: Context<SandboxEnv>): Response {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming) throw new Error('sandbox: injected connection drop');
  incoming.socket.destroy();
  return new Response(null, { status: 500 });
}

export function persistState(state: SandboxState, path: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, stateToJSON(state));
  renameSync(tmp, path);
}

/** The request log, outside the API: a site administrator's token only, credentials shown as (sensitive). */
function serveRequestLog(app: Hono<SandboxEnv>, state: SandboxState, log: RequestLogEntry[], rootOf: (c: Context) => string): void {
  const adminOnly = (c: Context): Response | undefined =>
    isAdminAuthorization(c.req.header('authorization'), state) ? undefined : apiError(rootOf(c), 401, 'the request log needs a site administrator token (Authorization: token …)');
  app.get('/_sandbox/requests', (c) => adminOnly(c) ?? json(200, log.map(redactEntry)));
  app.delete('/_sandbox/requests', (c) => {
    const refused = adminOnly(c);
    if (refused) return refused;
    log.length = 0;
    return empty(204);
  });
}

async function rawBodyOf(c: Context<SandboxEnv>): Promise<string> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return '';
  try {
    return await c.req.text();
  } catch {
    return '';
  }
}

/** An API request with no log, latency, fault or state file around it (AppOptions.logRequests false): its answer, as logged ones get it. */
async function unlogged(c: Context<SandboxEnv>, next: () => Promise<void>): Promise<void> {
  await next();
  c.res.headers.set('Cache-Control', CACHE_CONTROL);
}

interface ApiRequestSetup {
  log: RequestLogEntry[];
  flavour: Flavour;
  rootOf: (c: Context) => string;
}

/** Latency, faults, the request log, unknown body fields and the state file, around each API request. */
function aroundApiRequest(state: SandboxState, opts: AppOptions, { log, flavour, rootOf }: ApiRequestSetup): MiddlewareHandler<SandboxEnv> {
  const random = opts.random ?? Math.random;
  return async (c, next) => {
    const started = Date.now();
    const method = c.req.method;
    const contentType = c.req.header('content-type') ?? '';
    const raw = await rawBodyOf(c);
    c.set('rawBody', raw);
    if (opts.logRequests === false && !opts.latencyMs && !opts.faultRate && !opts.statePath && !opts.verbose) return unlogged(c, next);
    const entry: RequestLogEntry = {
      method,
      path: rawPathOf(c.req.url),
      query: Object.fromEntries(new URL(c.req.url).searchParams),
      status: 0,
      body: logBody(raw, contentType),
      unknownFields: [],
    };
    let status = 0;
    try {
      if (opts.latencyMs && opts.latencyMs > 0) await new Promise((r) => setTimeout(r, opts.latencyMs));
      const fault = opts.faultRate && opts.faultRate > 0 && random() < opts.faultRate ? FAULTS[Math.floor(random() * FAULTS.length) % FAULTS.length] : undefined;
      // 500, 503 and 429 refuse the request; 502 and a dropped connection may come after it was processed.
      if (fault === '500' || fault === '503' || fault === '429') {
        const res = faultResponse(fault, rootOf(c), opts.faultRetryAfter);
        status = res.status;
        return res;
      }
      const processFirst = fault === '502' || (fault === 'drop' && random() < 0.5);
      if (fault === 'drop' && !processFirst) return dropConnection(c);

      await next();
      const bodyOption = c.get('bodyOption');
      if (bodyOption) {
        entry.unknownFields = bindBody(optionFor(bodyOption, flavour), { method, contentType, rawBody: raw, query: new URLSearchParams() }).unknownFields;
      } else if (bodyOption === null && raw) {
        entry.unknownFields = jsonKeys(raw);
      }
      const ok = c.res.status >= 200 && c.res.status < 300;
      if (opts.statePath && ok && WRITE_METHODS.has(method)) persistState(state, opts.statePath);

      if (fault === 'drop') return dropConnection(c);
      if (fault === '502') {
        // Replace, not merge: hono's c.res setter would copy the old headers.
        c.res = undefined;
        c.res = faultResponse('502', rootOf(c));
      } else {
        c.res.headers.set('Cache-Control', CACHE_CONTROL);
      }
      status = c.res.status;
    } finally {
      entry.status = status;
      log.push(entry);
      if (opts.verbose) process.stderr.write(`${method} ${entry.path} ${entry.status} ${Date.now() - started}ms\n`);
    }
  };
}

export function createApp(state: SandboxState, opts: AppOptions = {}): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  const log = opts.requestLog ?? [];
  const flavour = opts.flavour ?? defaultFlavour();
  const rootOf = (c: Context): string => {
    const configured = typeof opts.rootUrl === 'function' ? opts.rootUrl() : opts.rootUrl;
    const base = configured || new URL(c.req.url).origin;
    return base.endsWith('/') ? base : `${base}/`;
  };
  serveRequestLog(app, state, log, rootOf);
  // Around every API request (/api/v1 and Forgejo's /api/forgejo/v1, and an unknown path below /api: a request all the same).
  app.use('/api/*', aroundApiRequest(state, opts, { log, flavour, rootOf }));

  // Forgejo's own API root answers its version; on Gitea the path is an unknown page (404).
  if (flavour.forgejoVersion) app.get('/api/forgejo/v1/version', () => json(200, { version: flavour.forgejoVersion }));

  const router = new ApiRouter(app, state, rootOf, flavour, opts.federation, opts.timezone);
  // The web side's link to the API's nodeinfo (`routers/web/nodeinfo.go`), with the API route.
  if (opts.federation && routeAvailable(flavour, 'GET', '/nodeinfo')) {
    app.get('/.well-known/nodeinfo', (c) => json(200, { links: [{ href: `${rootOf(c)}api/v1/nodeinfo`, rel: 'http://nodeinfo.diaspora.software/ns/schema/2.1' }] }));
  }
  for (const domain of DOMAINS) domain.routes?.(router);

  app.notFound((c) => {
    const path = c.req.path;
    if (path.startsWith(`${API_PREFIX}/`)) {
      const methods = router.methodsFor(path);
      if (methods.length > 0) return empty(405, { Allow: [...new Set(methods)].join(', ') });
    }
    return pageNotFound();
  });

  app.onError((err, c) => apiError(rootOf(c), 500, err instanceof Error ? err.message : String(err)));

  return app;
}
