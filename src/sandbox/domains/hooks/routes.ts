/**
 * Admin (system and default) webhooks (`routers/api/v1/admin/hooks.go`,
 * `routers/api/v1/utils/hook.go`, `models/webhook`, `services/webhook`):
 *
 * - `POST` creates a *default* hook unless `config.is_system_webhook` parses as true; `active`
 *   defaults to false; the secret is stored and never returned; the authorization header is stored
 *   and read back as `""`;
 * - `PATCH` is not a partial update: omitted `events` become `["push"]`, omitted `branch_filter`
 *   and `authorization_header` are cleared, `config.secret` is ignored; an unknown id is 500;
 * - `events` come back in random order (a Go map), `issues` and `pull_request` expanded.
 *
 * `createAdminHook` is shared with the seed loader.
 */
import type { ApiContext } from '../../http/context.js';
import { bind, formOf, notFound } from '../../http/checks.js';
import { listOptions, paginate, setLinkHeader, setTotalCountHeader } from '../../http/paging.js';
import { apiError, empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import type { AdminHookRecord } from './records.js';
import { nowIso } from '../../core/state.js';
import { pathInt64 } from '../users/badges-keys.js';
import { ADMIN_STEPS } from '../../http/auth.js';
import { fail, isFailure } from '../../core/failure.js';
import { CreateHookOption, EditHookOption } from './options.js';
import { available, hasQuirk, HOOK_EDIT_EVENTS } from '../../flavours/releases.js';
import { createAdminHook, eventsArray, isValidHookUrl, toHook, updateHookEvents } from './service.js';

/** `utils.editHook`: validation first (nothing is saved on a 422), then the resets. */
export function editHook(ctx: ApiContext, hook: AdminHookRecord): Response {
  const form = formOf(ctx, EditHookOption);
  const next = { ...hook };
  if (form.config) {
    // The binding keeps a key only with a string value (a null is left out): present means given.
    const url = form.config.url;
    if (url !== undefined) {
      if (hasQuirk(ctx.flavour, 'hookChecksUrl') && !isValidHookUrl(url)) return apiError(ctx.root, 422, 'Invalid url');
      next.url = url;
    }
    if (Object.hasOwn(form.config, 'content_type')) {
      const ct = form.config.content_type;
      if (ct !== 'json' && ct !== 'form') return apiError(ctx.root, 422, 'Invalid content type');
      next.contentType = ct;
    }
    // Slack: rewritten only with a channel, the other settings taken from the same request; not validated here.
    const channel = form.config.channel;
    if (hook.type === 'slack' && channel !== undefined) {
      next.slack = { channel, username: form.config.username ?? '', iconUrl: form.config.icon_url ?? '', color: form.config.color ?? '' };
    }
  }
  // Events the release's edit does not list keep their stored value (releases.ts HOOK_EDIT_EVENTS).
  const events = updateHookEvents(form.events, ctx.flavour);
  for (const [e, a] of Object.entries(HOOK_EDIT_EVENTS)) if (!available(ctx.flavour, a)) events[e] = eventsArray(hook).includes(e);
  next.events = events;
  next.pushOnly = false;
  next.sendEverything = false;
  next.branchFilter = form.branch_filter ?? '';
  next.authorizationHeader = form.authorization_header ?? '';
  if (form.active !== undefined) next.active = form.active;
  if (form.name !== undefined) next.name = form.name.trim();
  next.updatedAt = nowIso();
  Object.assign(hook, next);
  return json(200, toHook(hook, ctx.flavour));
}

function hookById(ctx: ApiContext): AdminHookRecord | undefined {
  const id = pathInt64(ctx.params.id);
  return ctx.state.data.adminHooks.find((h) => h.id === id);
}

export function registerAdminHookRoutes(r: ApiRouter): void {
  const admin = ADMIN_STEPS;

  // `type`: system (default, also for any other value), default, all. Paged since Gitea 1.26 and Forgejo 15.
  r.on('GET', '/admin/hooks', ...admin, (ctx) => {
    // Before `type=` the list is the system hooks, whatever the query says.
    const type = hasQuirk(ctx.flavour, 'adminHooksListType') ? (ctx.query.get('type') ?? '') : 'system';
    const hooks = ctx.state.data.adminHooks.filter((h) => (type === 'all' ? true : type === 'default' ? !h.isSystem : h.isSystem)).sort((a, b) => a.id - b.id);
    // Unpaged before Gitea 1.26 and Forgejo 15: every hook, whatever page and limit say, and no header.
    if (hasQuirk(ctx.flavour, 'adminHooksUnpaged')) return json(200, hooks.map((h) => toHook(h, ctx.flavour)));
    const opts = listOptions(ctx);
    if (!hasQuirk(ctx.flavour, 'adminHooksTotalOnly')) setLinkHeader(ctx, hooks.length, opts.pageSize);
    setTotalCountHeader(ctx, hooks.length);
    return json(200, paginate(hooks, opts).map((h) => toHook(h, ctx.flavour)));
  });

  r.on('POST', '/admin/hooks', ...admin, bind(CreateHookOption), (ctx) => {
    const res = createAdminHook(ctx.state, formOf(ctx, CreateHookOption), ctx.flavour);
    if (isFailure(res)) return fail(ctx, res);
    return json(201, toHook(res, ctx.flavour));
  });

  r.on('GET', '/admin/hooks/:id', ...admin, (ctx) => {
    const hook = hookById(ctx);
    return hook ? json(200, toHook(hook, ctx.flavour)) : notFound(ctx);
  });

  r.on('PATCH', '/admin/hooks/:id', ...admin, bind(EditHookOption), (ctx) => {
    const hook = hookById(ctx);
    // `GetSystemOrDefaultWebhook` fails → APIErrorInternal: the admin sees the error text.
    if (!hook) return apiError(ctx.root, 500, `webhook does not exist [id: ${pathInt64(ctx.params.id)}]`);
    return editHook(ctx, hook);
  });

  r.on('DELETE', '/admin/hooks/:id', ...admin, (ctx) => {
    const hook = hookById(ctx);
    if (!hook) return notFound(ctx);
    ctx.state.data.adminHooks = ctx.state.data.adminHooks.filter((h) => h.id !== hook.id);
    return empty(204);
  });
}
