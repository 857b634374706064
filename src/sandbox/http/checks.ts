/**
 * Route steps mirroring Gitea's API middleware (`routers/api/v1/api.go`): context assignment
 * (repository, organisation, user — each answers 404 before any token check), the permission
 * checks with their exact messages, the archived check, and body binding.
 */
import { lookupUserRedirect } from '../core/redirects.js';
import { isOrgMember, isOrgOwner, orgVisibleTo, repoAccessMode } from '../core/permissions.js';
import { AccessMode, type RepoRecord } from '../core/state.js';
import { bindBody } from './binding.js';
import { optionFor } from '../flavours/options.js';
import type { FormOf, OptionDef } from './options.js';
import { type ApiContext, inOrg, type Step } from './context.js';
import { apiError, json } from './respond.js';
import { hasQuirk } from '../flavours/releases.js';
import { redirectToUser } from './user-redirect.js';

export type RepoUnit = 'code' | 'issues' | 'pulls';

function unitEnabled(repo: RepoRecord, unit: RepoUnit): boolean {
  if (unit === 'issues') return repo.units.hasIssues;
  if (unit === 'pulls') return repo.units.hasPullRequests;
  return true;
}

export function canRead(ctx: ApiContext, unit: RepoUnit): boolean {
  return !!ctx.repo && unitEnabled(ctx.repo, unit) && ctx.repoMode >= AccessMode.Read;
}

export function canWrite(ctx: ApiContext, unit: RepoUnit): boolean {
  return !!ctx.repo && unitEnabled(ctx.repo, unit) && ctx.repoMode >= AccessMode.Write;
}

/**
 * `APIErrorNotFound(objs...)` (`ctx.NotFound` before 1.24): `{message, url, errors}`. Without a message,
 * the locale's "The target couldn't be found." before Gitea 1.25 and in Forgejo, "not found" from Gitea
 * 1.25 (v1.24.7 `services/context/api.go` l.247–267, v1.25.4 l.247–266); `errors` a nil slice (`null`),
 * an empty array in Forgejo 10+ (`make([]string, 0)`: v10.0.0 l.300, v11.0.15 l.309–311, v15.0.3 l.306–308). With a
 * message: `APIError(404, err)` (`{message, url}`), as the user-redirect lookup answers
 * (v1.25.4 `services/context/user.go` l.74).
 */
export const notFound = (ctx: ApiContext, message?: string): Response =>
  message !== undefined
    ? apiError(ctx.root, 404, message)
    : json(404, {
        message: hasQuirk(ctx.flavour, 'notFoundLocaleWording') ? "The target couldn't be found." : 'not found',
        url: `${ctx.root}api/swagger`,
        errors: hasQuirk(ctx.flavour, 'notFoundErrorsArray') ? [] : null,
      });

/** A 500 as Gitea writes it in production: the Go error text only for site admins. */
export const internalError = (ctx: ApiContext, message: string): Response => apiError(ctx.root, 500, ctx.doer?.isAdmin ? message : '');

/** `repoAssignment()`: `{owner}/{repo}` → 404 when missing or invisible, even for anonymous callers. */
export const repoAssignment: Step = (ctx) => {
  const owner = ctx.state.ownerByName(ctx.params.owner ?? '');
  if (!owner) return notFound(ctx);
  const repo = ctx.state.repoByName(owner.id, ctx.params.repo ?? '');
  if (!repo) return notFound(ctx);
  const mode = repoAccessMode(ctx.state, repo, ctx.doer);
  if (mode < AccessMode.Read) return notFound(ctx);
  ctx.repo = repo;
  ctx.repoOwner = owner;
  ctx.repoMode = mode;
  return undefined;
};

/** `reqAdmin()`: repository admin or site admin. */
export const reqRepoAdmin: Step = (ctx) =>
  ctx.repoMode >= AccessMode.Admin || ctx.doer?.isAdmin ? undefined : apiError(ctx.root, 403, 'user should be an owner or a collaborator with admin write of a repository');

/** `reqRepoWriter(units…)`: write access to one of the units, repository admin or site admin. */
export function reqRepoWriter(...units: RepoUnit[]): Step {
  return (ctx) =>
    units.some((u) => canWrite(ctx, u)) || ctx.repoMode >= AccessMode.Admin || ctx.doer?.isAdmin
      ? undefined
      : apiError(ctx.root, 403, 'user should have a permission to write to a repo');
}

/** `reqRepoReader(unit)`. */
export function reqRepoReader(unit: RepoUnit): Step {
  return (ctx) =>
    canRead(ctx, unit) || ctx.repoMode >= AccessMode.Admin || ctx.doer?.isAdmin
      ? undefined
      : apiError(ctx.root, 403, 'user should have specific read permission or be a repo admin or a site admin');
}

/** `mustNotBeArchived`: 423 on the routes that have it (`routers/api/v1/api.go`). */
export const mustNotBeArchived: Step = (ctx) => (ctx.repo?.archived ? apiError(ctx.root, 423, 'repo is archived') : undefined);

export const mustEnableIssuesOrPulls: Step = (ctx) => (canRead(ctx, 'issues') || canRead(ctx, 'pulls') ? undefined : notFound(ctx));

/** `orgAssignment(true)`: `{org}` → 404 when no organisation has that name. */
export const orgAssignment: Step = (ctx) => {
  const org = ctx.state.orgByName(ctx.params.org ?? '');
  if (!org) return notFound(ctx);
  ctx.org = org;
  ctx.contextUser = { kind: 'org', org, id: org.id, name: org.name };
  return undefined;
};

export const reqOrgVisible: Step = (ctx) => (ctx.org && orgVisibleTo(ctx.state, ctx.org, ctx.doer) ? undefined : notFound(ctx));

/** `reqOrgOwnership()`: members who are not owners get 403 too. */
export const reqOrgOwnership: Step = (ctx) => {
  if (ctx.doer?.isAdmin) return undefined;
  if (ctx.org && ctx.doer && isOrgOwner(ctx.state, ctx.org, ctx.doer.id)) return undefined;
  return apiError(ctx.root, 403, 'Must be an organization owner');
};

/** `reqOrgMembership()`: a site administrator or a member of the organisation (after `orgAssignment` or `teamAssignment`). */
export const reqOrgMembership: Step = inOrg((ctx) => (ctx.doer?.isAdmin || (ctx.doer && isOrgMember(ctx.state, ctx.org, ctx.doer.id)) ? undefined : apiError(ctx.root, 403, 'Must be an organization member')));

/** `context.UserAssignmentAPI()`: `{username}` (a user or an organisation). */
export const userAssignment: Step = (ctx) => {
  const name = ctx.params.username ?? '';
  const owner = ctx.state.ownerByName(name);
  if (!owner) {
    // A name left by a rename answers 307 to the new name (`RedirectToUser`).
    const renamed = lookupUserRedirect(ctx.state, name);
    if (renamed) return redirectToUser(ctx, name, renamed);
    return notFound(ctx, `user redirect does not exist [name: ${name.toLowerCase()}]`);
  }
  ctx.contextUser = owner;
  return undefined;
};

/** `bind(api.X{})`: decode and validate the body into `ctx.form`, or 422. Read it with {@link formOf}. */
export function bind(opt: OptionDef): Step {
  const step: Step = (ctx) => {
    const res = bindBody(optionFor(opt, ctx.flavour), { method: ctx.method, contentType: ctx.contentType, rawBody: ctx.rawBody, query: ctx.query });
    if (res.error) return apiError(ctx.root, 422, res.error);
    ctx.form = res.form;
    ctx.boundOption = opt;
    return undefined;
  };
  step.bodyOption = opt;
  return step;
}

/** The body a `bind(opt)` step of this route decoded, typed by its option table. */
export function formOf<O extends OptionDef>(ctx: ApiContext, opt: O): FormOf<O> {
  if (ctx.boundOption !== opt) throw new Error(`the route did not bind ${opt.name}`);
  return ctx.form as FormOf<O>;
}
