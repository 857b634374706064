/**
 * The per-request context that route steps share, and the step runner. A route is a list of
 * steps run in order, like the chi middleware chain of a Gitea route: the first step that returns
 * a Response answers the request. The order of the steps is the order of Gitea's checks
 * (`routers/api/v1/api.go`), which decides which error a bad request gets.
 */
import type { Context } from 'hono';
import type { Form } from './binding.js';
import type { OptionDef } from './options.js';
import type { OrgRecord, Owner, RepoRecord, SandboxState, UserRecord } from '../core/state.js';
import type { Flavour } from '../flavours/flavour.js';

export interface ApiContext {
  c: Context;
  state: SandboxState;
  /** The release the sandbox plays. */
  flavour: Flavour;
  /** The server's time zone (`--timezone`, seed `timezone:`; default UTC). */
  timezone: string;
  /** ROOT_URL, with its trailing slash: `http://127.0.0.1:PORT/`. */
  root: string;
  method: string;
  /** Path as received, without the query. */
  rawPath: string;
  query: URLSearchParams;
  /** Route parameters, URL-unescaped. */
  params: Record<string, string>;
  rawBody: string;
  contentType: string;
  /** Headers every answer carries (warnings, paging headers …). */
  headers: Record<string, string>;

  doer: UserRecord | null;
  isSigned: boolean;
  /** Signed in with `Authorization: Basic` (a password, or a token in the password): `reqBasicOrRevProxyAuth`. */
  isBasicAuth?: boolean;
  /** Scopes of the token that authenticated the request; null for password logins and anonymous calls. */
  tokenScopes: string[] | null;

  /** Set by `bind()`, with the option struct it bound. */
  form: Form;
  boundOption?: OptionDef;
  /** Set by `repoAssignment`. */
  repo?: RepoRecord;
  repoOwner?: Owner;
  /** The caller's access mode on `repo`. */
  repoMode: number;
  /** Set by `orgAssignment`. */
  org?: OrgRecord;
  /** Set by `userAssignment` (a user or an organisation). */
  contextUser?: Owner;
}

export type StepResult = Response | undefined | void;
export type Step = ((ctx: ApiContext) => StepResult | Promise<StepResult>) & { bodyOption?: OptionDef };

export async function runSteps(ctx: ApiContext, steps: Step[]): Promise<Response> {
  for (const step of steps) {
    const res = await step(ctx);
    if (res) return res;
  }
  throw new Error('route ended without a response');
}

/** Adds the context's pending headers to a response. */
export function withHeaders(res: Response, headers: Record<string, string>): Response {
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
  return res;
}

/** What a route's handler returns: a response, or nothing to go on (the steps after it). */
export type Handler<C extends ApiContext> = (ctx: C) => StepResult | Promise<StepResult>;

/** The context after `repoAssignment`: the repository and its owner are set. */
export interface RepoFacts {
  repo: RepoRecord;
  repoOwner: Owner;
}
/** The context after `orgAssignment`: the organisation is set. */
export interface OrgFacts {
  org: OrgRecord;
}
/** The context after `reqToken` (or a check that implies it): the caller is signed in. */
export interface DoerFacts {
  doer: UserRecord;
}

/** The context after `userAssignment` (or `orgAssignment`, which sets it to the organisation): the user or organisation of the path is set. */
export interface UserFacts {
  contextUser: Owner;
}

/**
 * A route group whose steps guarantee what `has` checks; its handler (or what a handler asks of the route: the place
 * its objects live) would otherwise be a route wired without them, a bug of the sandbox (500), never an answer.
 */
function narrowing<F>(has: (ctx: ApiContext) => boolean, step: string) {
  return <C extends ApiContext, R>(handler: (ctx: C & F) => R): ((ctx: C) => R) =>
    (ctx) => {
      if (!guard<C, F>(ctx, has)) throw new Error(`${ctx.method} ${ctx.rawPath}: the route's handler needs ${step} before it`);
      return handler(ctx);
    };
}

/** The one place a context is said to carry what the steps before the handler set (`has` checked it). */
function guard<C extends ApiContext, F>(ctx: C, has: (ctx: ApiContext) => boolean): ctx is C & F {
  return has(ctx);
}

/** A handler of the repository routes (after `repoAssignment`): `ctx.repo` and `ctx.repoOwner` typed as set. */
export const inRepo = narrowing<RepoFacts>((ctx) => ctx.repo !== undefined && ctx.repoOwner !== undefined, 'repoAssignment');
/** A handler of the organisation routes (after `orgAssignment`): `ctx.org` typed as set. */
export const inOrg = narrowing<OrgFacts>((ctx) => ctx.org !== undefined, 'orgAssignment');
/** A handler of the routes that need a signed-in caller (after `reqToken`): `ctx.doer` typed as set. */
export const signedIn = narrowing<DoerFacts>((ctx) => ctx.doer !== null, 'reqToken');

/** A handler of the routes on a user or organisation of the path (after `userAssignment` or `orgAssignment`): `ctx.contextUser` typed as set. */
export const forUser = narrowing<UserFacts>((ctx) => ctx.contextUser !== undefined, 'userAssignment');

/** The context of a repository route's handler (see inRepo). */
export type RepoContext = ApiContext & RepoFacts;
/** The context of an organisation route's handler (see inOrg). */
export type OrgContext = ApiContext & OrgFacts;
/** The context of a handler that needs a signed-in caller (see signedIn). */
export type SignedInContext = ApiContext & DoerFacts;
/** The context of a handler on the user or organisation of the path (see forUser). */
export type UserContext = ApiContext & UserFacts;
