/**
 * The caller's notification threads (`routers/api/v1/notify/{user,notifications,threads}.go`):
 * list, mark (205), the unread count, one thread, mark one thread (205). The group needs the
 * `notification` scope and a token on every route.
 */
import { notFound } from '../../http/checks.js';
import { reqToken, scope } from '../../http/auth.js';
import { type ApiContext, type SignedInContext, signedIn } from '../../http/context.js';
import { listOptions, paginate, setLinkHeader, setTotalCountHeader } from '../../http/paging.js';
import { formGoBool } from '../../http/form.js';
import { apiError, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { toNotificationThread } from './convert.js';
import { nowIso } from '../../core/state.js';
import type { NotificationRecord, NotificationSource, NotificationStatus } from './records.js';

const RFC3339_LAYOUT = '2006-01-02T15:04:05Z07:00';

/**
 * Go's `time.Parse(time.RFC3339, v)`: the time in ms, or the error text Go would give
 * (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`).
 */
export function parseRfc3339(v: string): number | string {
  const elems: [RegExp, string][] = [
    [/^\d{4}/, '2006'], [/^-/, '-'], [/^\d{2}/, '01'], [/^-/, '-'], [/^\d{2}/, '02'], [/^T/, 'T'], [/^\d{2}/, '15'], [/^:/, ':'], [/^\d{2}/, '04'],
    [/^:/, ':'], [/^\d{2}(?:[.,]\d+)?/, '05'], [/^(?:Z|[+-]\d{2}:\d{2})/, 'Z07:00'],
  ];
  let rest = v;
  for (const [re, elem] of elems) {
    const m = re.exec(rest);
    if (!m) return `parsing time ${JSON.stringify(v)} as ${JSON.stringify(RFC3339_LAYOUT)}: cannot parse ${JSON.stringify(rest)} as ${JSON.stringify(elem)}`;
    rest = rest.slice(m[0].length);
  }
  if (rest !== '') return `parsing time ${JSON.stringify(v)}: extra text: ${JSON.stringify(rest)}`;
  // The layout matched above: every field is there.
  const [mo = 0, d = 0, h = 0, mi = 0, s = 0] = (/^\d{4}-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(v) ?? []).slice(1).map(Number);
  const range = mo < 1 || mo > 12 ? 'month' : d < 1 || d > 31 ? 'day' : h > 23 ? 'hour' : mi > 59 ? 'minute' : s > 59 ? 'second' : '';
  if (range) return `parsing time ${JSON.stringify(v)}: ${range} out of range`;
  const ms = Date.parse(v.replace(',', '.'));
  return Number.isNaN(ms) ? `parsing time ${JSON.stringify(v)}: day out of range` : ms;
}

/** A time query parameter as a Unix second (0 = absent), or the parse error. */
function formTime(ctx: ApiContext, key: string): number | { error: string } {
  const v = ctx.query.get(key) ?? '';
  if (!v) return 0;
  const t = parseRfc3339(v);
  return typeof t === 'string' ? { error: t } : Math.floor(t / 1000);
}

function statusOf(s: string): NotificationStatus | undefined {
  const v = s.trim().toLowerCase();
  return v === 'unread' || v === 'read' || v === 'pinned' ? v : undefined;
}

/** `statusStringsToNotificationStatuses`: the given values (default when none), unknown ones dropped. */
function statuses(ctx: ApiContext, defaults: NotificationStatus[]): NotificationStatus[] {
  const given = ctx.query.getAll('status-types');
  return (given.length ? given : defaults).map(statusOf).filter((s): s is NotificationStatus => s !== undefined);
}


const unixOf = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

/** `FindNotificationOptions` for the caller; `GetNotifications` orders by `updated_unix DESC`. */
function findNotifications(ctx: SignedInContext, f: { statuses: NotificationStatus[]; sources?: NotificationSource[]; after?: number; before?: number }): NotificationRecord[] {
  const userId = ctx.doer.id;
  return ctx.state.data.notifications
    .filter((n) => n.userId === userId)
    .filter((n) => f.statuses.length === 0 || f.statuses.includes(n.status))
    .filter((n) => !f.sources?.length || f.sources.includes(n.source))
    .filter((n) => !f.after || unixOf(n.updatedAt) >= f.after)
    .filter((n) => !f.before || unixOf(n.updatedAt) <= f.before)
    .sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || b.id - a.id);
}

function listNotifications(ctx: SignedInContext): Response {
  // context.GetQueryBeforeSince: `before` is parsed first; an invalid time is 422 with Go's error text.
  const before = formTime(ctx, 'before');
  if (typeof before !== 'number') return apiError(ctx.root, 422, before.error);
  const since = formTime(ctx, 'since');
  if (typeof since !== 'number') return apiError(ctx.root, 422, since.error);
  const opts = listOptions(ctx);
  const sources = ctx.query
    .getAll('subject-type')
    .map((s) => s.toLowerCase())
    .filter((s): s is NotificationSource => ['issue', 'pull', 'commit', 'repository'].includes(s));
  const found = findNotifications(ctx, { statuses: formGoBool(ctx.query, 'all') ? [] : statuses(ctx, ['unread', 'pinned']), sources, after: since, before });
  setLinkHeader(ctx, found.length, opts.pageSize);
  setTotalCountHeader(ctx, found.length);
  return json(200, paginate(found, opts).map((n) => toNotificationThread(ctx, n)));
}

function setStatus(n: NotificationRecord, status: NotificationStatus): void {
  n.status = status;
  n.updatedAt = nowIso();
}

function readNotifications(ctx: SignedInContext): Response {
  const v = (ctx.query.get('last_read_at') ?? '').trim();
  let lastRead = 0;
  if (v) {
    const t = parseRfc3339(v);
    if (typeof t === 'string') return apiError(ctx.root, 400, t);
    lastRead = Math.floor(t / 1000);
  }
  const found = findNotifications(ctx, { statuses: formGoBool(ctx.query, 'all') ? [] : statuses(ctx, ['unread']), before: lastRead });
  const target = statusOf(ctx.query.get('to-status') ?? '') ?? 'read';
  for (const n of found) setStatus(n, target);
  return json(205, found.map((n) => toNotificationThread(ctx, n)));
}

/** `getThread`: 404 unknown, 403 another user's thread (site admins may). */
function thread(ctx: SignedInContext): NotificationRecord | Response {
  const id = /^[+-]?\d+$/.test(ctx.params.id ?? '') ? Number(ctx.params.id) : 0;
  const n = ctx.state.data.notifications.find((x) => x.id === id);
  if (!n) return notFound(ctx);
  if (n.userId !== ctx.doer.id && !ctx.doer.isAdmin) return apiError(ctx.root, 403, `only user itself and admin are allowed to read/change this thread ${n.id}`);
  return n;
}

export function registerNotificationRoutes(r: ApiRouter): void {
  const group = [scope('notification')];

  r.on('GET', '/notifications', ...group, reqToken, signedIn(listNotifications));
  r.on('PUT', '/notifications', ...group, reqToken, signedIn(readNotifications));
  r.on('GET', '/notifications/new', ...group, reqToken, signedIn((ctx) =>
    json(200, { new: ctx.state.data.notifications.filter((n) => n.userId === ctx.doer.id && n.status === 'unread').length })),
  );
  r.on('GET', '/notifications/threads/:id', ...group, reqToken, signedIn((ctx) => {
    const n = thread(ctx);
    return n instanceof Response ? n : json(200, toNotificationThread(ctx, n));
  }));
  r.on('PATCH', '/notifications/threads/:id', ...group, reqToken, signedIn((ctx) => {
    const n = thread(ctx);
    if (n instanceof Response) return n;
    const target = statusOf(ctx.query.get('to-status') ?? '') ?? 'read';
    if (n.status !== target) setStatus(n, target);
    return json(205, toNotificationThread(ctx, n));
  }));
}
