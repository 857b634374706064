/** `GET /admin/emails` and `GET /admin/emails/search` (`routers/api/v1/admin/email.go`). */
import { ADMIN_STEPS } from '../../http/auth.js';
import type { ApiContext } from '../../http/context.js';
import { listOptions, paginate, setLinkHeader, setTotalCountHeader } from '../../http/paging.js';
import { json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { allEmailRows } from './accounts.js';

/** `SearchEmails`: individual users' addresses, by address, primary first. */
function listEmails(ctx: ApiContext, keyword: string): Response {
  const k = keyword.toLowerCase();
  const users = new Map(ctx.state.data.users.map((u) => [u.id, u]));
  const rows = allEmailRows(ctx.state).filter((e) => {
    if (!k) return true;
    const u = users.get(e.userId)!;
    return u.fullName.toLowerCase().includes(k) || u.name.toLowerCase().includes(k) || e.email.toLowerCase().includes(k);
  });
  rows.sort((a, b) => {
    const la = a.email.toLowerCase();
    const lb = b.email.toLowerCase();
    return la < lb ? -1 : la > lb ? 1 : Number(b.isPrimary) - Number(a.isPrimary) || a.id - b.id;
  });
  const opts = listOptions(ctx);
  setLinkHeader(ctx, rows.length, opts.pageSize);
  setTotalCountHeader(ctx, rows.length);
  return json(
    200,
    paginate(rows, opts).map((e) => ({ email: e.email, verified: e.isActivated, primary: e.isPrimary, user_id: e.userId, username: users.get(e.userId)!.name })),
  );
}

export function registerEmailRoutes(r: ApiRouter): void {
  r.on('GET', '/admin/emails', ...ADMIN_STEPS, (ctx) => listEmails(ctx, ''));
  r.on('GET', '/admin/emails/search', ...ADMIN_STEPS, (ctx) => listEmails(ctx, (ctx.query.get('q') ?? '').trim()));
}
