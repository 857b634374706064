/**
 * Organisations and e-mail addresses: `GET /admin/orgs`, `GET`/`PATCH /orgs/{org}`, `GET
 * /admin/emails` and `GET /admin/emails/search` (behavior.md §9, `routers/api/v1/admin/{org,email}.go`,
 * `routers/api/v1/org/org.go`).
 */
import { reqToken, scope } from '../../http/auth.js';
import { bind, notFound, orgAssignment, reqOrgOwnership, formOf } from '../../http/checks.js';
import type { ApiContext } from '../../http/context.js';
import { listOptions, paginate, setLinkHeader, setTotalCountHeader } from '../../http/paging.js';
import { apiError, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { toOrganization } from './convert.js';
import { allEmailRows } from '../users/accounts.js';
import { orgVisibleTo } from '../../core/permissions.js';
import { nowIso, type Visibility } from '../../core/state.js';
import { ADMIN_STEPS, checkEmail } from '../users/routes.js';
import { EditOrgOption } from './options.js';


const VISIBILITIES: readonly string[] = ['public', 'limited', 'private'];

/** `org.Edit` (newest): e-mail first (validated unless empty), then only the given fields. */
function editOrg(ctx: ApiContext): Response {
  const form = formOf(ctx, EditOrgOption);
  const org = ctx.org!;
  if (form.email !== undefined) {
    if (form.email !== '') {
      const bad = checkEmail(form.email);
      if (bad) return apiError(ctx.root, 422, bad.message);
    }
    org.email = form.email;
  }
  if (form.full_name !== undefined) org.fullName = form.full_name;
  if (form.description !== undefined) org.description = form.description;
  if (form.website !== undefined) org.website = form.website;
  if (form.location !== undefined) org.location = form.location;
  if (form.visibility !== undefined && VISIBILITIES.includes(form.visibility)) org.visibility = form.visibility as Visibility;
  if (form.repo_admin_change_team_access !== undefined) org.repoAdminChangeTeamAccess = form.repo_admin_change_team_access;
  org.updatedAt = nowIso();
  return json(200, toOrganization(ctx, org));
}

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

export function registerAdminOrgEmailRoutes(r: ApiRouter): void {
  const admin = ADMIN_STEPS;

  // Every visibility, ordered by name (`SearchOrderByAlphabetically`).
  r.on('GET', '/admin/orgs', ...admin, (ctx) => {
    const orgs = [...ctx.state.data.orgs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
    const opts = listOptions(ctx);
    setLinkHeader(ctx, orgs.length, opts.pageSize);
    setTotalCountHeader(ctx, orgs.length);
    return json(200, paginate(orgs, opts).map((o) => toOrganization(ctx, o)));
  });

  r.on('GET', '/admin/emails', ...admin, (ctx) => listEmails(ctx, ''));
  r.on('GET', '/admin/emails/search', ...admin, (ctx) => listEmails(ctx, (ctx.query.get('q') ?? '').trim()));

  // The `/orgs/{org}` group: organisation scope, then the organisation (404).
  const org = [scope('organization'), orgAssignment];
  r.on('GET', '/orgs/:org', ...org, (ctx) => {
    if (!orgVisibleTo(ctx.state, ctx.org!, ctx.doer)) return notFound(ctx);
    const out = toOrganization(ctx, ctx.org!);
    // No e-mail for anonymous callers.
    if (!ctx.doer) out.email = '';
    return json(200, out);
  });
  r.on('PATCH', '/orgs/:org', ...org, reqToken, reqOrgOwnership, bind(EditOrgOption), editOrg);
}
