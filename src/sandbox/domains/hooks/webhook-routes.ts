/**
 * Repository and organisation webhooks (`routers/api/v1/repo/hook.go`, `routers/api/v1/org/hook.go`):
 * the admin hooks' `utils.addHook` and `utils.editHook` (same checks, same resets on an edit), with
 * their own lists and lookups (`routers/api/v1/utils/hook.go` `ListOwnerHooks`, `GetRepoHook`,
 * `GetOwnerHook`, Gitea v1.21.11 l.24–82):
 *
 * - lists are paged (`GetListOptions`) with X-Total-Count and no Link header, in id order;
 * - an unknown id is 404 for GET, PATCH and DELETE (the admin PATCH answers 500);
 * - repository hooks need a repository admin (`reqAdmin()`), organisation hooks an owner
 *   (`reqOrgOwnership()`), both a token (`routers/api/v1/api.go` v1.21.11 l.1076 and l.1454).
 */
import { type ApiContext, inOrg, inRepo, type Step } from '../../http/context.js';
import { reqToken, scope } from '../../http/auth.js';
import { bind, formOf, notFound, orgAssignment, repoAssignment, reqOrgOwnership, reqRepoAdmin } from '../../http/checks.js';
import { listOptions, paginate, setTotalCountHeader } from '../../http/paging.js';
import { empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { fail, isFailure } from '../../core/failure.js';
import { pathInt64 } from '../users/badges-keys.js';
import type { WebhookRecord } from './records.js';
import { CreateHookOption, EditHookOption } from './options.js';
import { editHook } from './routes.js';
import { createWebhook, toHook } from './service.js';

/** Where a route's hooks live: the repository's (`RepoID`) or the organisation's (`OwnerID`). */
type Place = { repoId: number } | { ownerId: number };
type PlaceOf = (ctx: ApiContext) => Place;

const belongs = (h: WebhookRecord, p: Place): boolean => ('repoId' in p ? h.repoId === p.repoId : h.ownerId === p.ownerId && h.repoId === 0);

function register(r: ApiRouter, base: string, steps: Step[], placeOf: PlaceOf): void {
  const hooksOf = (ctx: ApiContext): WebhookRecord[] => ctx.state.data.webhooks.filter((h) => belongs(h, placeOf(ctx))).sort((a, b) => a.id - b.id);
  const hookOf = (ctx: ApiContext): WebhookRecord | undefined => {
    const id = pathInt64(ctx.params.id);
    return hooksOf(ctx).find((h) => h.id === id);
  };
  r.on('GET', base, ...steps, (ctx) => {
    const hooks = hooksOf(ctx);
    setTotalCountHeader(ctx, hooks.length);
    return json(200, paginate(hooks, listOptions(ctx)).map((h) => toHook(h, ctx.flavour)));
  });
  r.on('POST', base, ...steps, bind(CreateHookOption), (ctx) => {
    const res = createWebhook(ctx.state, placeOf(ctx), formOf(ctx, CreateHookOption), ctx.flavour);
    return isFailure(res) ? fail(ctx, res) : json(201, toHook(res, ctx.flavour));
  });
  r.on('GET', `${base}/:id`, ...steps, (ctx) => {
    const hook = hookOf(ctx);
    return hook ? json(200, toHook(hook, ctx.flavour)) : notFound(ctx);
  });
  r.on('PATCH', `${base}/:id`, ...steps, bind(EditHookOption), (ctx) => {
    const hook = hookOf(ctx);
    return hook ? editHook(ctx, hook) : notFound(ctx);
  });
  r.on('DELETE', `${base}/:id`, ...steps, (ctx) => {
    const hook = hookOf(ctx);
    if (!hook) return notFound(ctx);
    ctx.state.data.webhooks = ctx.state.data.webhooks.filter((h) => h.id !== hook.id);
    return empty(204);
  });
}

export function registerWebhookRoutes(r: ApiRouter): void {
  register(r, '/repos/:owner/:repo/hooks', [scope('repository'), repoAssignment, reqToken, reqRepoAdmin], inRepo((ctx) => ({ repoId: ctx.repo.id })));
  register(r, '/orgs/:org/hooks', [scope('organization'), orgAssignment, reqToken, reqOrgOwnership], inOrg((ctx) => ({ ownerId: ctx.org.id })));
}
