/**
 * Organisations: `POST /admin/users/{username}/orgs`, `GET /admin/orgs`, `GET`/`PATCH /orgs/{org}`
 * (`routers/api/v1/admin/org.go`, `routers/api/v1/org/org.go`).
 */
import { ADMIN_STEPS, reqToken, scope } from '../../http/auth.js';
import { bind, formOf, notFound, orgAssignment, reqOrgOwnership, userAssignment } from '../../http/checks.js';
import type { FormOf } from '../../http/options.js';
import { forUser, inOrg, type OrgContext, signedIn } from '../../http/context.js';
import { listOptions, paginate, setLinkHeader, setTotalCountHeader } from '../../http/paging.js';
import { apiError, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { toOrganization } from './convert.js';
import { orgVisibleTo } from '../../core/permissions.js';
import { nowIso, type Visibility } from '../../core/state.js';
import { checkEmail } from '../users/service.js';
import { fail, isFailure } from '../../core/failure.js';
import { CreateOrgOption, EditOrgOption } from './options.js';
import { createOrg, type CreateOrgInput } from './service.js';
import { deleteOrganization } from '../../core/cascade.js';
import { hasQuirk } from '../../flavours/releases.js';


/** The fields of a CreateOrgOption that both create handlers copy (`admin.CreateOrg` copies only these; `org.Create` two more). */
function adminCopied(form: FormOf<typeof CreateOrgOption>): CreateOrgInput {
  return { username: form.username, fullName: form.full_name, description: form.description, website: form.website, location: form.location, visibility: form.visibility };
}

const VISIBILITIES: readonly string[] = ['public', 'limited', 'private'];

/** The text fields that Gitea ≤ 1.25 and Forgejo write from a plain (non-pointer) string. */
const PLAIN_TEXT_FIELDS = ['full_name', 'description', 'website', 'location'] as const;

/**
 * `org.Edit`: e-mail first (validated unless empty), then the given fields. Releases with plain
 * strings write the four text fields whatever was sent (omitted = cleared); releases before
 * pointer e-mails keep an empty one; Forgejo drops `public`.
 */
function editOrg(ctx: OrgContext): Response {
  const form = { ...formOf(ctx, EditOrgOption) };
  const org = ctx.org;
  if (hasQuirk(ctx.flavour, 'orgEditClearsOmitted')) for (const key of PLAIN_TEXT_FIELDS) form[key] ??= '';
  if (hasQuirk(ctx.flavour, 'orgEditKeepsEmptyEmail') && form.email === '') delete form.email;
  if (hasQuirk(ctx.flavour, 'orgEditIgnoresPublic') && form.visibility === 'public') delete form.visibility;
  // Gitea 1.21: `org.Email = form.Email` (echoed, unvalidated), but `UpdateUserCols` does not list "email" (v1.21.11 `org.go` l.348, 358–361).
  const echoed = hasQuirk(ctx.flavour, 'orgEditEmailNotStored') ? (formOf(ctx, EditOrgOption).email ?? '') : undefined;
  if (echoed !== undefined) delete form.email;
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
  return json(200, echoed === undefined ? toOrganization(ctx, org) : { ...toOrganization(ctx, org), email: echoed });
}

export function registerOrgRoutes(r: ApiRouter): void {
  const admin = ADMIN_STEPS;

  r.on('POST', '/admin/users/:username/orgs', ...admin, userAssignment, bind(CreateOrgOption), forUser((ctx) => {
    const form = formOf(ctx, CreateOrgOption);
    // The admin handler copies only these fields: email and repo_admin_change_team_access are ignored.
    const res = createOrg(ctx.state, ctx.contextUser, adminCopied(form));
    if (isFailure(res)) return fail(ctx, res);
    return json(201, toOrganization(ctx, res));
  }));


  // Every visibility, ordered by name (`SearchOrderByAlphabetically`).
  r.on('GET', '/admin/orgs', ...admin, (ctx) => {
    const orgs = [...ctx.state.data.orgs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
    const opts = listOptions(ctx);
    setLinkHeader(ctx, orgs.length, opts.pageSize);
    setTotalCountHeader(ctx, orgs.length);
    return json(200, paginate(orgs, opts).map((o) => toOrganization(ctx, o)));
  });

  // The `/orgs/{org}` group: organisation scope, then the organisation (404).
  const org = [scope('organization'), orgAssignment];
  r.on('GET', '/orgs/:org', ...org, inOrg((ctx) => {
    if (!orgVisibleTo(ctx.state, ctx.org, ctx.doer)) return notFound(ctx);
    const out = toOrganization(ctx, ctx.org);
    // No e-mail for anonymous callers.
    if (!ctx.doer) out.email = '';
    return json(200, out);
  }));
  r.on('PATCH', '/orgs/:org', ...org, reqToken, reqOrgOwnership, bind(EditOrgOption), inOrg(editOrg));

  /**
   * `org.Create` (routers/api/v1/org/org.go, v1.21.11:228 … v1.25.4, Forgejo v7.0.16–v15.0.3): the doer
   * creates it; 403 when it may not create organisations; a taken name 422 (`IsUserExist` before the
   * insert; a race past that check ends on the UNIQUE index of user.lower_name, 500). Here the check
   * and the insert are one step, so two creates at once give one 201 and one 422. forgeform's apply
   * lock rests on it (src/lock/lock.ts).
   */
  r.on('POST', '/orgs', scope('organization'), reqToken, bind(CreateOrgOption), signedIn((ctx) => {
    const doer = ctx.doer;
    if (!doer.isAdmin && !doer.allowCreateOrganization) return apiError(ctx.root, 403, 'Create organization not allowed');
    const form = formOf(ctx, CreateOrgOption);
    const res = createOrg(ctx.state, { kind: 'user', user: doer, id: doer.id, name: doer.name }, {
      ...adminCopied(form),
      email: form.email,
      repoAdminChangeTeamAccess: form.repo_admin_change_team_access,
    });
    if (isFailure(res)) return fail(ctx, res);
    return json(201, toOrganization(ctx, res));
  }));

  // `org.Delete` → `DeleteOrganization(ctx, org, false)`: 204; repositories still owned: 500 (v1.21.11:370).
  r.on('DELETE', '/orgs/:org', ...org, reqToken, reqOrgOwnership, inOrg((ctx) => {
    const target = ctx.org;
    if (ctx.state.reposOfOwner(target.id).length > 0) return apiError(ctx.root, 500, `organization still has ownership of repositories [uid: ${target.id}]`);
    deleteOrganization(ctx.state, target);
    return new Response(null, { status: 204 });
  }));
}
