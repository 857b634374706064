/**
 * Route registration on top of hono. Every `/api/v1` route authenticates (401 for a wrong
 * credential, account-state 403s), applies sudo, then runs its steps. The router remembers its
 * patterns so that a known path with another method can answer 405 instead of 404.
 */
import type { Context, Hono } from 'hono';
import { authenticate, sudo } from './auth.js';
import { runSteps, withHeaders, type ApiContext, type Step } from './context.js';
import type { OptionDef } from './options.js';
import type { SandboxState } from '../core/state.js';
import type { Flavour } from '../flavours/flavour.js';
import { releasePattern, routeAvailable } from '../flavours/releases.js';
import { DEFAULT_TIMEZONE } from '../core/timezone.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface SandboxEnv {
  Variables: {
    /** Set when a route matched: the Go option struct it binds, or null. */
    bodyOption: OptionDef | null;
    rawBody: string;
  };
}

export const API_PREFIX = '/api/v1';

function patternToRegExp(path: string): RegExp {
  const re = path
    .split('/')
    .map((seg) => (seg === '*' ? '.*' : seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${re}$`);
}

/** The raw (still percent-encoded) path of a request. */
export function rawPathOf(url: string): string {
  const afterScheme = url.indexOf('://');
  const start = url.indexOf('/', afterScheme >= 0 ? afterScheme + 3 : 0);
  if (start < 0) return '/';
  const q = url.indexOf('?', start);
  return url.slice(start, q < 0 ? undefined : q);
}

export class ApiRouter {
  private readonly patterns: { method: Method; re: RegExp }[] = [];

  constructor(
    private readonly app: Hono<SandboxEnv>,
    private readonly state: SandboxState,
    private readonly rootOf: (c: Context) => string,
    readonly flavour: Flavour,
    /** `[federation] ENABLED`: the federation routes (`/nodeinfo`) exist only then. */
    readonly federation = false,
    /** The server's time zone: answers' `due_date` carry its offset. */
    readonly timezone = DEFAULT_TIMEZONE,
  ) {}

  on(method: Method, path: string, ...steps: Step[]): void {
    // A route the release does not have is not registered: a 404, as on that release.
    if (!routeAvailable(this.flavour, method, path)) return;
    const full = API_PREFIX + releasePattern(this.flavour, path);
    const bodyOption = steps.find((s) => s.bodyOption)?.bodyOption ?? null;
    this.patterns.push({ method, re: patternToRegExp(full) });
    this.app.on(method, full, async (c) => {
      c.set('bodyOption', bodyOption);
      const ctx = this.context(c);
      const res = authenticate(ctx) ?? sudo(ctx) ?? (await runSteps(ctx, steps));
      return withHeaders(res, ctx.headers);
    });
  }

  /** Methods registered for a path (for the 405 answer). */
  methodsFor(path: string): Method[] {
    return this.patterns.filter((p) => p.re.test(path)).map((p) => p.method);
  }

  private context(c: Context<SandboxEnv>): ApiContext {
    const url = new URL(c.req.url);
    return {
      c,
      state: this.state,
      flavour: this.flavour,
      timezone: this.timezone,
      root: this.rootOf(c),
      method: c.req.method === 'HEAD' ? 'GET' : c.req.method,
      rawPath: rawPathOf(c.req.url),
      query: url.searchParams,
      params: c.req.param(),
      rawBody: c.get('rawBody') ?? '',
      contentType: c.req.header('content-type') ?? '',
      headers: {},
      doer: null,
      isSigned: false,
      tokenScopes: null,
      form: {},
      repoMode: 0,
    };
  }
}
