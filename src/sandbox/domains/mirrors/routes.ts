/**
 * Push mirror routes (`routers/api/v1/repo/mirror.go`, the `/push_mirrors` group of `routers/api/v1/api.go`,
 * behind `reqAdmin(), reqToken()`; POST and DELETE behind `mustNotBeArchived` from Gitea 1.22 and in every
 * Forgejo read). There is no edit route in any release: a change is a delete and a create.
 *
 * - `[mirror] ENABLED = false`: every route 400 "Mirror feature is disabled"; `DISABLE_NEW_PUSH` is read by
 *   the web UI only (routers/web/repo/setting/setting.go), the API creates all the same;
 * - the list is paged only when `page` is given (`GetPushMirrorsByRepoID`: `if listOptions.Page != 0`),
 *   `X-Total-Count` is the count, `Link` is computed from the page's length (`SetLinkHeader(len(…))`);
 * - `interval` is parsed with `time.ParseDuration` ("" is refused) and answered as `Duration.String()`
 *   ("8h" → "8h0m0s"); 0 is allowed, anything else below `MIN_INTERVAL` (10m) is 400;
 * - `remote_address` is stored without credentials (`util.SanitizeURL`); user name and password go to the
 *   git remote only, and no route answers them;
 * - DELETE of a name the repository does not have is 204 (`DeletePushMirrors` deletes no row, no error).
 */
import { reqToken, scope } from '../../http/auth.js';
import { bind, formOf, mustNotBeArchived, notFound, repoAssignment, reqRepoAdmin } from '../../http/checks.js';
import { type ApiContext, inRepo, type RepoContext, type Step } from '../../http/context.js';
import { formInt, listOptions, paginate, setLinkHeader, setTotalCountHeader } from '../../http/paging.js';
import { apiError, empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { hasQuirk, shapeAnswer } from '../../flavours/releases.js';
import { formatGoDuration } from '../../../go-duration.js';
import { CreatePushMirrorOption } from './options.js';
import { mirrorSettings, pushMirrorsOf, type PushMirrorRecord } from './records.js';
import { createPushMirror, pushMirrorRefusal } from './service.js';

/** `convert.ToPushMirror`: the keys the release's PushMirror has. */
export function toPushMirror(ctx: ApiContext, m: PushMirrorRecord): Record<string, unknown> {
  const repo = ctx.state.repoById(m.repoId);
  return shapeAnswer(ctx.flavour, 'PushMirror', {
    repo_name: repo?.name ?? '',
    remote_name: m.remoteName,
    remote_address: m.remoteAddress,
    created: m.createdAt,
    last_update: null,
    last_error: '',
    interval: formatGoDuration(BigInt(m.interval)),
    sync_on_commit: m.syncOnCommit,
    public_key: '',
    branch_filter: m.branchFilter,
  });
}

const mirrorsEnabled: Step = (ctx) => (mirrorSettings(ctx.state).enabled ? undefined : apiError(ctx.root, 400, 'Mirror feature is disabled'));

/** Gitea 1.21's group has no `mustNotBeArchived` (v1.21.11 routers/api/v1/api.go l.1173-1179). */
const notArchivedWhereChecked: Step = (ctx) => (hasQuirk(ctx.flavour, 'pushMirrorsIgnoreArchive') ? undefined : mustNotBeArchived(ctx));

function listPushMirrors(ctx: RepoContext): Response {
  const all = pushMirrorsOf(ctx.state, ctx.repo.id);
  const opts = listOptions(ctx);
  const page = formInt(ctx.query, 'page') !== 0 ? paginate(all, opts) : all;
  setLinkHeader(ctx, page.length, opts.pageSize);
  setTotalCountHeader(ctx, all.length);
  return json(200, page.map((m) => toPushMirror(ctx, m)));
}

function addPushMirror(ctx: RepoContext): Response {
  const form = formOf(ctx, CreatePushMirrorOption);
  const refusal = pushMirrorRefusal(ctx.state, ctx.flavour, form);
  if (refusal) return apiError(ctx.root, refusal.status, refusal.message);
  return json(200, toPushMirror(ctx, createPushMirror(ctx.state, ctx.repo, form)));
}

function byName(ctx: RepoContext): PushMirrorRecord | undefined {
  return pushMirrorsOf(ctx.state, ctx.repo.id).find((m) => m.remoteName === ctx.params.name);
}

export function registerMirrorRoutes(r: ApiRouter): void {
  const group = [scope('repository'), repoAssignment, reqRepoAdmin, reqToken, mirrorsEnabled];
  r.on('GET', '/repos/:owner/:repo/push_mirrors', ...group, inRepo(listPushMirrors));
  r.on('POST', '/repos/:owner/:repo/push_mirrors', ...group, notArchivedWhereChecked, bind(CreatePushMirrorOption), inRepo(addPushMirror));
  r.on(
    'GET',
    '/repos/:owner/:repo/push_mirrors/:name',
    ...group,
    inRepo((ctx) => {
      const m = byName(ctx);
      return m ? json(200, toPushMirror(ctx, m)) : notFound(ctx);
    }),
  );
  r.on(
    'DELETE',
    '/repos/:owner/:repo/push_mirrors/:name',
    ...group,
    notArchivedWhereChecked,
    inRepo((ctx) => {
      const m = byName(ctx);
      if (m) ctx.state.data.pushMirrors = ctx.state.data.pushMirrors.filter((x) => x !== m);
      return empty(204);
    }),
  );
}
