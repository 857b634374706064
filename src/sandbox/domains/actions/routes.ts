/**
 * Admin Actions endpoints (`routers/api/v1/admin/{runners,action}.go`,
 * `routers/api/v1/shared/{runners,action}.go`): runners (list, get, edit, delete), the global
 * registration token, and the run and job lists of the whole instance.
 */
import { randomBytes } from 'node:crypto';
import { reqSiteAdmin, reqToken, scope } from '../../http/auth.js';
import { bind, formOf, notFound, orgAssignment, repoAssignment, reqOrgOwnership } from '../../http/checks.js';
import { type ApiContext, inOrg, inRepo, signedIn, type Step } from '../../http/context.js';
import { AccessMode } from '../../core/state.js';
import { formBool, formOptionalBool } from '../../http/form.js';
import { listOptions, paginate, setLinkHeader, setTotalCountHeader } from '../../http/paging.js';
import { apiError, empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { runnerLastOnlineMs, statusFilter, toActionRunner, toWorkflowJob, toWorkflowRun } from './convert.js';
import type { ActionStatus, RunnerRecord } from './records.js';
import { EditActionRunnerOption, RegisterRunnerOption } from './options.js';
import { createRunner, registrationToken } from './service.js';
import { ANSWER_FIELDS, available, hasQuirk } from '../../flavours/releases.js';

/** `ctx.PathParamInt64`: Go's `strconv.ParseInt`, 0 on failure. */
function pathInt64(s: string | undefined): number {
  if (!s || !/^[+-]?\d+$/.test(s)) return 0;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : 0;
}

/** `getRunnerByID`: `runner with id N: resource does not exist` (`models/actions/runner.go`). */
function findRunner(ctx: ApiContext): RunnerRecord | Response {
  const id = pathInt64(ctx.params.runner_id);
  const runner = ctx.state.data.runners.find((r) => r.id === id);
  return runner ?? apiError(ctx.root, 404, `runner with id ${id}: resource does not exist`);
}

/** The runners a list is about: the admin list (0, 0), an owner's (user or organisation) or a repository's. */
interface RunnerListScope {
  ownerId: number;
  repoId: number;
  /** The repository's owner (a repository's list with Forgejo's `visible` adds its owner's runners). */
  repoOwnerId?: number;
}

/**
 * `FindRunnerOptions.ToConds` as each list calls it (`shared.ListRunners(ctx, ownerID, repoID)`). Gitea passes
 * neither `WithAvailable` nor a filter: a repository's list has its runners (`repo_id`), an owner's its own
 * (`owner_id`), and the admin list (0, 0) filters nothing, so it holds every runner of every scope (v1.24.7 and
 * v1.25.4 `models/actions/runner.go` l.197–221, upstream main l.208–232). Forgejo 15 passes `WithVisible:
 * ctx.FormBool("visible")`: without it the admin list is the instance's own runners only; with it a repository's
 * list adds its owner's and the instance's, an owner's the instance's (v15.0.3 `models/actions/runner.go` l.207–225).
 */
function inRunnerList(r: RunnerRecord, { ownerId, repoId, repoOwnerId }: RunnerListScope, visible: boolean): boolean {
  const global = r.ownerId === 0 && r.repoId === 0;
  if (repoId > 0) return r.repoId === repoId || (visible && (r.ownerId === repoOwnerId || global));
  if (ownerId > 0) return r.ownerId === ownerId || (visible && global);
  return visible || global;
}

function listRunners(ctx: ApiContext, of: RunnerListScope): Response {
  const opts = listOptions(ctx);
  // The `disabled` filter came with the runner's disabled flag (Gitea 1.26).
  const disabled = available(ctx.flavour, ANSWER_FIELDS.ActionRunner!.disabled) ? formOptionalBool(ctx.query, 'disabled') : undefined;
  // Forgejo's lists read `visible` (the admin list: the instance's own runners unless it is true); Gitea's every runner.
  const visible = hasQuirk(ctx.flavour, 'runnerListInstanceOnly') ? formBool(ctx.query, 'visible') : of.repoId === 0 && of.ownerId === 0;
  const now = Date.now();
  const runners = ctx.state.data.runners
    .filter((r) => inRunnerList(r, of, visible))
    .filter((r) => disabled === undefined || r.disabled === disabled)
    .sort((a, b) => runnerLastOnlineMs(b, now) - runnerLastOnlineMs(a, now) || a.id - b.id);
  const page = paginate(runners, opts).map((r) => toActionRunner(r, ctx.flavour));
  if (!hasQuirk(ctx.flavour, 'runnerListBareArray')) return json(200, { runners: page, total_count: runners.length });
  setLinkHeader(ctx, runners.length, opts.pageSize);
  setTotalCountHeader(ctx, runners.length);
  return json(200, page);
}

/** Repeated `status` values (`ctx.FormStrings`); 400 `Invalid status X` for an unknown one. */
function statusesOf(ctx: ApiContext): ActionStatus[] | Response {
  const out: ActionStatus[] = [];
  for (const s of ctx.query.getAll('status')) {
    const mapped = statusFilter(s);
    if (!mapped) return apiError(ctx.root, 400, `Invalid status ${s}`);
    out.push(...mapped);
  }
  return out;
}

function listRuns(ctx: ApiContext): Response {
  const { state } = ctx;
  const opts = listOptions(ctx);
  const event = ctx.query.get('event') ?? '';
  const branch = ctx.query.get('branch') ?? '';
  const statuses = statusesOf(ctx);
  if (statuses instanceof Response) return statuses;
  const actor = ctx.query.get('actor') ?? '';
  let actorId = 0;
  if (actor) {
    // user_model.GetUserByName: an unknown name is an internal error (500), its text shown to admins.
    const owner = state.ownerByName(actor);
    if (!owner) return apiError(ctx.root, 500, `user does not exist [uid: 0, name: ${actor}]`);
    actorId = owner.id;
  }
  const headSha = ctx.query.get('head_sha') ?? '';
  const runs = state.data.actionRuns
    .filter((r) => !event || r.event === event)
    .filter((r) => !branch || r.ref === `refs/heads/${branch}`)
    .filter((r) => statuses.length === 0 || statuses.includes(r.status))
    .filter((r) => !actorId || r.triggerUserId === actorId)
    .filter((r) => !headSha || r.commitSha === headSha)
    .sort((a, b) => b.id - a.id);
  setLinkHeader(ctx, runs.length, opts.pageSize);
  setTotalCountHeader(ctx, runs.length);
  return json(200, { total_count: runs.length, workflow_runs: paginate(runs, opts).map((r) => toWorkflowRun(ctx, r)) });
}

function listJobs(ctx: ApiContext): Response {
  const opts = listOptions(ctx);
  // utils.ResolveSortOrder: only when `sort` is given; `order` defaults to asc.
  let desc = false;
  const sort = ctx.query.get('sort') ?? '';
  if (sort) {
    const order = ctx.query.get('order') || 'asc';
    if (order !== 'asc' && order !== 'desc') return apiError(ctx.root, 422, `Invalid sort order: ${JSON.stringify(order)}`);
    if (sort !== 'id') return apiError(ctx.root, 422, `Invalid sort mode: ${JSON.stringify(sort)}`);
    desc = order === 'desc';
  }
  const statuses = statusesOf(ctx);
  if (statuses instanceof Response) return statuses;
  const jobs = ctx.state.data.actionJobs.filter((j) => statuses.length === 0 || statuses.includes(j.status)).sort((a, b) => (desc ? b.id - a.id : a.id - b.id));
  setLinkHeader(ctx, jobs.length, opts.pageSize);
  setTotalCountHeader(ctx, jobs.length);
  return json(200, { total_count: jobs.length, jobs: paginate(jobs, opts).map((j) => toWorkflowJob(ctx, j)) });
}

/** `reqOwner()` (repository routes of the Actions group): the repository's owner access, or a site admin. */
export const reqRepoOwner: Step = (ctx) => (ctx.repoMode >= AccessMode.Owner || ctx.doer?.isAdmin ? undefined : apiError(ctx.root, 403, 'user should be the owner of the repo'));

/**
 * The check of a repository's Actions routes (secrets, variables, runner registration token): `reqOwner()`, and on
 * Forgejo 15 `reqOwner(unit.TypeActions)`, which first answers `ctx.NotFound()` when the repository's Actions unit
 * is off, site administrators included (QUIRKS.repoActionsNeedUnit).
 */
export const reqRepoActionsOwner: Step = (ctx) => (hasQuirk(ctx.flavour, 'repoActionsNeedUnit') && !ctx.repo?.units.hasActions ? notFound(ctx) : reqRepoOwner(ctx));

/**
 * A scope's runner registration token (`shared.GetRegistrationToken`; POST: `CreateRegistrationToken`,
 * the same lookup). Which of GET and POST a release serves at which path is releases.ts ROUTES data.
 */
function registerTokenRoutes(r: ApiRouter, path: string, steps: Step[], scopeOf: (ctx: ApiContext) => { ownerId: number; repoId: number }): void {
  const answer = (ctx: ApiContext): Response => {
    const { ownerId, repoId } = scopeOf(ctx);
    return json(200, { token: registrationToken(ctx.state, ownerId, repoId).token });
  };
  r.on('GET', path, ...steps, answer);
  r.on('POST', path, ...steps, answer);
}

/**
 * `util.SplitStringAtByteN(s, n)`'s first part (Forgejo v15.0.3 `modules/util/truncate.go` l.18–40): a string over
 * n bytes keeps the whole characters of its first n-3 bytes and ends with "…". `CreateRunner` uses n = 255.
 */
function firstBytes(s: string, n: number): string {
  if (Buffer.byteLength(s) <= n) return s;
  let out = '';
  let bytes = 0;
  for (const ch of s) {
    bytes += Buffer.byteLength(ch);
    if (bytes > n - 3) break;
    out += ch;
  }
  return `${out}…`;
}

export function registerAdminActionRoutes(r: ApiRouter): void {
  const admin = [scope('admin'), reqToken, reqSiteAdmin];

  r.on('GET', '/admin/actions/runners', ...admin, (ctx) => listRunners(ctx, { ownerId: 0, repoId: 0 }));
  // The scoped lists, with the rights of their registration tokens' routes (`shared.ListRunners(ctx, ownerID, repoID)`).
  // Gitea v1.25.4 `routers/api/v1/api.go` l.941 in `addActionsRoutes`, which the repository (l.1201, `reqOwner()`) and
  // the organisation (l.1649, `reqOrgOwnership()`) use, and l.1079 for `/user`; the handlers `repo/action.go` l.584
  // `(0, repo)`, `org/action.go` l.514 `(org, 0)`, `user/runners.go` l.57 `(doer, 0)`. Forgejo v15.0.3 `api.go` l.855
  // (repository l.1145 `reqOwner(unit.TypeActions)`, organisation l.1584), l.1020 `/user`; `repo/action.go` l.552,
  // `org/action.go` l.306, `user/runners.go` l.87. Releases: ROUTES.
  r.on(
    'GET',
    '/repos/:owner/:repo/actions/runners',
    scope('repository'),
    repoAssignment,
    reqToken,
    reqRepoActionsOwner,
    inRepo((ctx) => listRunners(ctx, { ownerId: 0, repoId: ctx.repo.id, repoOwnerId: ctx.repo.ownerId })),
  );
  r.on('GET', '/orgs/:org/actions/runners', scope('organization'), orgAssignment, reqToken, reqOrgOwnership, inOrg((ctx) => listRunners(ctx, { ownerId: ctx.org.id, repoId: 0 })));
  // The token's own user's runners (a site administrator reads another user's with sudo).
  r.on('GET', '/user/actions/runners', scope('user'), reqToken, signedIn((ctx) => listRunners(ctx, { ownerId: ctx.doer.id, repoId: 0 })));

  // Forgejo 15 registers a runner through the API (`shared.RegisterRunner`, v15.0.3 `routers/api/v1/shared/runners.go`
  // l.161–187): an instance runner that never connected; the answer is the only place its token appears.
  r.on('POST', '/admin/actions/runners', ...admin, bind(RegisterRunnerOption), (ctx) => {
    const form = formOf(ctx, RegisterRunnerOption);
    const runner = createRunner(ctx.state, { name: firstBytes(form.name, 255), description: form.description ?? '', ephemeral: form.ephemeral ?? false });
    return json(201, { id: runner.id, uuid: runner.uuid, token: randomBytes(20).toString('hex') });
  });

  // Before `/{runner_id}`: Forgejo 15 routes this GET itself (on Gitea it falls to the runner route, id 0 → 404).
  registerTokenRoutes(r, '/admin/actions/runners/registration-token', admin, () => ({ ownerId: 0, repoId: 0 }));
  registerTokenRoutes(r, '/admin/runners/registration-token', admin, () => ({ ownerId: 0, repoId: 0 }));
  registerTokenRoutes(r, '/repos/:owner/:repo/actions/runners/registration-token', [scope('repository'), repoAssignment, reqToken, reqRepoActionsOwner], inRepo((ctx) => ({ ownerId: 0, repoId: ctx.repo.id })));
  registerTokenRoutes(r, '/orgs/:org/actions/runners/registration-token', [scope('organization'), orgAssignment, reqToken, reqOrgOwnership], inOrg((ctx) => ({ ownerId: ctx.org.id, repoId: 0 })));
  registerTokenRoutes(r, '/user/actions/runners/registration-token', [scope('user'), reqToken], signedIn((ctx) => ({ ownerId: ctx.doer.id, repoId: 0 })));

  r.on('GET', '/admin/actions/runners/:runner_id', ...admin, (ctx) => {
    const runner = findRunner(ctx);
    return runner instanceof Response ? runner : json(200, toActionRunner(runner, ctx.flavour));
  });

  r.on('PATCH', '/admin/actions/runners/:runner_id', ...admin, bind(EditActionRunnerOption), (ctx) => {
    const runner = findRunner(ctx);
    if (runner instanceof Response) return runner;
    const disabled = formOf(ctx, EditActionRunnerOption).disabled;
    if (typeof disabled !== 'boolean') return apiError(ctx.root, 422, '[Disabled]: Required');
    runner.disabled = disabled;
    return json(200, toActionRunner(runner, ctx.flavour));
  });

  r.on('DELETE', '/admin/actions/runners/:runner_id', ...admin, (ctx) => {
    const runner = findRunner(ctx);
    if (runner instanceof Response) return runner;
    ctx.state.data.runners = ctx.state.data.runners.filter((x) => x.id !== runner.id);
    return empty(204);
  });

  r.on('GET', '/admin/actions/runs', ...admin, listRuns);
  r.on('GET', '/admin/actions/jobs', ...admin, listJobs);
}
