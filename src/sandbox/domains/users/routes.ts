/**
 * Admin user endpoints (`routers/api/v1/admin/user.go`, `services/user`): list, create, edit,
 * delete and rename users. The create function is shared with the seed loader, so a seeded user is
 * exactly what the API would have created. Badges and keys are in `badges-keys.ts`; creating an
 * organisation or a repository on behalf of a user is in the orgs and repos domains.
 */
import { ADMIN_STEPS } from '../../http/auth.js';
import { bind, userAssignment, formOf } from '../../http/checks.js';
import { type ApiContext, forUser, signedIn, type UserContext } from '../../http/context.js';
import { listOptions, paginate, setLinkHeader, setTotalCountHeader } from '../../http/paging.js';
import { apiError, empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { orgAsUser } from '../orgs/convert.js';
import { toUser } from './convert.js';
import { authSourceById, deleteSecondaryEmails, emailRowsOf, findEmailRow, passwordIsManaged, replacePrimaryEmailRow, setPrimaryEmailKeepingOld } from './accounts.js';
import { newUserRedirect } from '../../core/redirects.js';
import { deleteOrganization, deleteRepository, deleteUserRecord, purgeUserRows, userDeleteBlocker } from '../../core/cascade.js';
import { orgsOfMember, removeOrgMember } from '../orgs/members.js';
import { hashPassword, nowIso, USERS, type OrgRecord, type SandboxState, type UserRecord } from '../../core/state.js';
import { fail, failure, isFailure, type Failure } from '../../core/failure.js';
import { CreateUserOption, DeleteEmailOption, EditUserOption, RenameUserOption } from './options.js';
import { hasQuirk } from '../../flavours/releases.js';
import { releaseQuery } from '../../flavours/swagger.js';
import type { FormOf } from '../../http/options.js';
import { formBool } from '../../http/form.js';
import { MIN_PASSWORD_LENGTH, checkEmail, checkUsableUsername, createUser } from './service.js';

// ---- list -------------------------------------------------------------------------------------

type UserSort = (a: UserRecord, b: UserRecord) => number;

/** `user_model.AdminUserOrderByMap`; ties keep database (id) order. */
const ASC: Readonly<Record<'name' | 'created' | 'updated' | 'id', UserSort>> = {
  name: (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id),
  created: (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id,
  updated: (a, b) => a.updatedAt.localeCompare(b.updatedAt) || a.id - b.id,
  id: (a, b) => a.id - b.id,
};
const DESC: Readonly<Record<'name' | 'created' | 'updated' | 'id', UserSort>> = {
  name: (a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : a.id - b.id),
  created: (a, b) => b.createdAt.localeCompare(a.createdAt) || a.id - b.id,
  updated: (a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id - b.id,
  id: (a, b) => b.id - a.id,
};
const ORDER_BY: Readonly<Record<string, Readonly<Record<string, UserSort>>>> = { asc: ASC, desc: DESC };

/** Forgejo's `sort` names (`utils.GetDbSearchOrder`); anything else is alphabetical. */
const FORGEJO_ORDER_BY: Record<string, UserSort> = {
  oldest: ASC.created,
  newest: DESC.created,
  alphabetically: ASC.name,
  reversealphabetically: DESC.name,
  recentupdate: DESC.updated,
  leastupdate: ASC.updated,
};

/** `admin.SearchUsers`: the filters a release reads are those its swagger declares (Gitea ≤ 1.25, Forgejo: no q, visibility, flags). */
function listUsers(ctx: ApiContext): Response {
  const q = releaseQuery(ctx.flavour, 'GET /admin/users', ctx.query);
  let sort = ASC.name;
  const sortMode = q.get('sort') ?? '';
  if (hasQuirk(ctx.flavour, 'adminUsersForgejoSort')) {
    sort = FORGEJO_ORDER_BY[sortMode] ?? sort;
  } else if (sortMode) {
    const sortOrder = q.get('order') || 'asc';
    const modes = ORDER_BY[sortOrder];
    if (!modes) return apiError(ctx.root, 422, `Invalid sort order: "${sortOrder}"`);
    const mode = modes[sortMode];
    if (!mode) return apiError(ctx.root, 422, `Invalid sort mode: "${sortMode}"`);
    sort = mode;
  }
  const visibility = q.get('visibility') ?? '';
  if (visibility && !['public', 'limited', 'private'].includes(visibility)) return apiError(ctx.root, 422, `Invalid visibility: "${visibility}"`);
  const loginName = (q.get('login_name') ?? '').trim();
  // Forgejo 10+: any integer filters, `source_id=0` too (local users); elsewhere ≤ 0 is no filter.
  const sourceGiven = /^[+-]?\d+$/.test(q.get('source_id') ?? '');
  const sourceId = sourceGiven ? Number(q.get('source_id')) : 0;
  const sourceFilter = hasQuirk(ctx.flavour, 'adminUsersSourceIdZero') ? sourceGiven : sourceId > 0;
  const keyword = (q.get('q') ?? '').trim().toLowerCase();
  const flag = (key: string): boolean | undefined => ((q.get(key) ?? '') === '' ? undefined : formBool(q, key));
  const isActive = flag('is_active');
  const isAdmin = flag('is_admin');
  const isRestricted = flag('is_restricted');
  const is2fa = flag('is_2fa_enabled');
  const isProhibitLogin = flag('is_prohibit_login');
  const unfiltered = !sourceFilter && !loginName && !keyword && !visibility && [isActive, isAdmin, isRestricted, is2fa, isProhibitLogin].every((f) => f === undefined);
  // forgeform pages through every user in the default order: sort once per change of the table, not per page.
  if (unfiltered && sort === ASC.name) {
    const sorted = ctx.state.indexes.of(USERS).derived('by name', (rows) => [...rows].sort(sort));
    return userPage(ctx, sorted);
  }
  const users = ctx.state.data.users.filter(
    (u) =>
      (!sourceFilter || u.sourceId === sourceId) &&
      (!loginName || u.loginName === loginName) &&
      (!keyword || u.name.toLowerCase().includes(keyword) || u.fullName.toLowerCase().includes(keyword) || u.email.toLowerCase().includes(keyword)) &&
      (!visibility || u.visibility === visibility) &&
      (isActive === undefined || u.isActive === isActive) &&
      (isAdmin === undefined || u.isAdmin === isAdmin) &&
      (isRestricted === undefined || u.restricted === isRestricted) &&
      // The sandbox has no TOTP: nobody has two-factor authentication.
      (is2fa === undefined || is2fa === false) &&
      (isProhibitLogin === undefined || u.prohibitLogin === isProhibitLogin),
  );
  users.sort(sort);
  return userPage(ctx, users);
}

function userPage(ctx: ApiContext, users: readonly UserRecord[]): Response {
  const opts = listOptions(ctx);
  setLinkHeader(ctx, users.length, opts.pageSize);
  setTotalCountHeader(ctx, users.length);
  return json(200, paginate(users, opts).map((u) => toUser(ctx, u, ctx.doer)));
}

// ---- edit -------------------------------------------------------------------------------------

type EditUserForm = FormOf<typeof EditUserOption>;

/** `IsLastAdminUser`: an admin when at most one individual admin exists. */
function isLastAdmin(state: SandboxState, user: UserRecord): boolean {
  return user.isAdmin && state.data.users.filter((u) => u.isAdmin).length <= 1;
}

/**
 * `admin.EditUser`: three steps, each saved on its own (not atomic as a whole): the
 * authentication fields (`UpdateAuth`), the e-mail (`ReplacePrimaryEmailAddress`), then profile
 * and flags (`UpdateUser`). A later failure leaves the earlier steps applied.
 */
function editUser(ctx: UserContext): Response {
  const form = formOf(ctx, EditUserOption);
  const target = ctx.contextUser;
  if (target.kind === 'org') return editOrgAsUser(ctx, target.org, form);
  const user = target.user;
  const { state } = ctx;

  // Forgejo 8+: both optional, but together.
  const together = hasQuirk(ctx.flavour, 'userEditLoginTogether');
  if (together && (form.source_id === undefined) !== (form.login_name === undefined)) {
    return apiError(ctx.root, 422, 'source_id and login_name must be specified together');
  }
  // 1. UpdateAuth: login source, login name (always written, except on Forgejo 8+), password, must_change_password, prohibit_login.
  let sourceId = user.sourceId;
  // Gitea: `FromNonDefault` (0 = unchanged); Forgejo 8+: `FromPtr` (an explicit 0 is the local source).
  if (form.source_id || (together && form.source_id === 0)) {
    const source = form.source_id ? authSourceById(state, form.source_id) : undefined;
    if (form.source_id && !source) return apiError(ctx.root, 500, `login source does not exist [id: ${form.source_id}]`);
    sourceId = source?.id ?? 0;
  }
  let passwordHash = user.passwordHash;
  if (form.password && passwordIsManaged(state, { ...user, sourceId })) {
    if (Buffer.byteLength(form.password) < MIN_PASSWORD_LENGTH) return apiError(ctx.root, 400, `password must be at least ${MIN_PASSWORD_LENGTH} characters`);
    passwordHash = hashPassword(form.password);
  }
  user.sourceId = sourceId;
  if (!together || form.login_name !== undefined) user.loginName = form.login_name ?? '';
  user.passwordHash = passwordHash;
  if (form.must_change_password !== undefined) user.mustChangePassword = form.must_change_password;
  if (form.prohibit_login !== undefined) user.prohibitLogin = form.prohibit_login;

  // 2. The primary e-mail: a case-only change is a no-op. Gitea 1.25+ refuses any existing address (own secondary
  // ones included) and deletes the old one; older releases and Forgejo keep the old one as a secondary address
  // and promote one the user already has (QUIRKS.userEmailChangeKeepsOld).
  if (form.email !== undefined && form.email.toLowerCase() !== user.email.toLowerCase()) {
    const old121 = hasQuirk(ctx.flavour, 'userEmailErrors1_21');
    const keepsOld = hasQuirk(ctx.flavour, 'userEmailChangeKeepsOld');
    const bad = checkEmail(form.email);
    if (bad) return apiError(ctx.root, old121 ? 500 : 400, bad.message);
    const row = findEmailRow(state, form.email);
    if (row && !(keepsOld && row.userId === user.id)) return apiError(ctx.root, old121 ? 422 : 400, `e-mail already in use [email: ${form.email}]`);
    if (keepsOld) setPrimaryEmailKeepingOld(state, user, form.email);
    else replacePrimaryEmailRow(state, user, form.email);
  }

  // 3. UpdateUser: profile and flags, all or nothing.
  if (form.admin === false && isLastAdmin(state, user)) return apiError(ctx.root, 400, `can not delete the last admin user [uid: ${user.id}]`);
  if (form.full_name !== undefined) user.fullName = form.full_name;
  if (form.website !== undefined) user.website = form.website;
  if (form.location !== undefined) user.location = form.location;
  if (form.description !== undefined) user.description = form.description;
  if (form.active !== undefined) user.isActive = form.active;
  if (form.admin !== undefined) user.isAdmin = form.admin;
  // Forgejo: `optional.FromNonDefault(VisibilityModes[v])`, and public is the zero value.
  if (form.visibility && !(form.visibility === 'public' && hasQuirk(ctx.flavour, 'userEditIgnoresPublic'))) user.visibility = form.visibility;
  if (form.allow_git_hook !== undefined) user.allowGitHook = form.allow_git_hook;
  if (form.allow_import_local !== undefined) user.allowImportLocal = form.allow_import_local;
  if (form.max_repo_creation !== undefined) user.maxRepoCreation = form.max_repo_creation;
  if (form.allow_create_organization !== undefined) user.allowCreateOrganization = form.allow_create_organization;
  if (form.restricted !== undefined) user.restricted = form.restricted;
  // Forgejo only (the field is bound only there): `optional.FromPtr(form.Pronouns)`.
  if (form.pronouns !== undefined) user.pronouns = form.pronouns;
  user.updatedAt = nowIso();
  return json(200, toUser(ctx, user, ctx.doer));
}

/**
 * PATCH on an organisation's name: the user service updates the organisation's profile columns; an
 * e-mail is refused (`user X is an organization`, 500 for the admin caller).
 */
function editOrgAsUser(ctx: ApiContext, org: OrgRecord, form: EditUserForm): Response {
  if (form.email !== undefined && form.email.toLowerCase() !== org.email.toLowerCase()) return apiError(ctx.root, 500, `user ${org.name} is an organization`);
  if (form.full_name !== undefined) org.fullName = form.full_name;
  if (form.website !== undefined) org.website = form.website;
  if (form.location !== undefined) org.location = form.location;
  if (form.description !== undefined) org.description = form.description;
  if (form.visibility) org.visibility = form.visibility;
  org.updatedAt = nowIso();
  return json(200, orgAsUser(ctx, org, true));
}

// ---- delete -----------------------------------------------------------------------------------

/** `user_service.DeleteUser(u, purge)`. */
export function deleteUser(state: SandboxState, user: UserRecord, purge: boolean): Failure | undefined {
  if (user.isActive && isLastAdmin(state, user)) return failure(422, `can not delete the last admin user [uid: ${user.id}]`);
  if (purge) {
    // Outside a transaction: each step stays done when a later one fails.
    Object.assign(user, { isActive: false, restricted: true, isAdmin: false, prohibitLogin: true, passwordHash: null, maxRepoCreation: 0 });
    for (const repo of state.reposOfOwner(user.id)) deleteRepository(state, repo.id);
    for (const org of orgsOfMember(state, user.id)) {
      // The last owner takes the organisation with them.
      if (!removeOrgMember(state, org, user.id)) deleteOrganization(state, org);
    }
    purgeUserRows(state, user.id);
  }
  if (state.reposOfOwner(user.id).length > 0) return failure(422, `user still has ownership of repositories [uid: ${user.id}]`);
  if (orgsOfMember(state, user.id).length > 0) return failure(422, `user still has membership of organizations [uid: ${user.id}]`);
  const blocker = userDeleteBlocker(state, user.id);
  if (blocker) return failure(422, blocker);
  deleteUserRecord(state, user);
  return undefined;
}

// ---- rename -----------------------------------------------------------------------------------

/**
 * `user_service.RenameUser`: 204 also when unchanged; a case-only change leaves no redirect. With
 * `localOnly` (every Gitea, Forgejo ≤ 12), a user of an external login source cannot be renamed:
 * `ErrUserIsNotLocal`, which the handler does not map (500).
 */
export function renameUser(state: SandboxState, user: UserRecord, newName: string, localOnly = false): Failure | undefined {
  if (newName === user.name) return undefined;
  if (localOnly && user.sourceId) return failure(500, `user is not local type [uid: ${user.id}, name: ${user.name}]`);
  const unusable = checkUsableUsername(newName);
  if (unusable) return unusable;
  if (newName.toLowerCase() === user.name.toLowerCase()) {
    state.indexes.of(USERS).change(user, () => (user.name = newName));
    return undefined;
  }
  const taken = state.ownerByName(newName);
  if (taken && taken.id !== user.id) return failure(422, `user already exists [name: ${newName}]`);
  newUserRedirect(state, user.id, user.name, newName);
  state.indexes.of(USERS).change(user, () => (user.name = newName));
  user.updatedAt = nowIso();
  return undefined;
}

// ---- routes -----------------------------------------------------------------------------------



export function registerAdminUserRoutes(r: ApiRouter): void {
  const admin = ADMIN_STEPS;

  r.on('GET', '/admin/users', ...admin, listUsers);

  r.on('POST', '/admin/users', ...admin, bind(CreateUserOption), (ctx) => {
    const form = formOf(ctx, CreateUserOption);
    const res = createUser(ctx.state, {
      username: form.username,
      email: form.email,
      password: form.password,
      fullName: form.full_name,
      loginName: form.login_name,
      sourceId: form.source_id,
      mustChangePassword: form.must_change_password,
      restricted: form.restricted,
      visibility: form.visibility,
      createdAt: form.created_at,
    });
    if (isFailure(res)) return fail(ctx, res);
    return json(201, toUser(ctx, res, ctx.doer));
  });

  r.on('PATCH', '/admin/users/:username', ...admin, userAssignment, bind(EditUserOption), forUser(editUser));

  r.on('DELETE', '/admin/users/:username', ...admin, userAssignment, forUser(signedIn((ctx) => {
    const target = ctx.contextUser;
    if (target.kind === 'org') return apiError(ctx.root, 422, `${target.name} is an organization not a user`);
    if (target.id === ctx.doer.id) return apiError(ctx.root, 422, 'you cannot delete yourself');
    const res = deleteUser(ctx.state, target.user, formBool(ctx.query, 'purge'));
    if (res) return fail(ctx, res);
    return empty(204);
  })));

  r.on('POST', '/admin/users/:username/rename', ...admin, userAssignment, bind(RenameUserOption), forUser((ctx) => {
    const target = ctx.contextUser;
    if (target.kind === 'org') return apiError(ctx.root, 422, `${target.name} is an organization not a user`);
    const res = renameUser(ctx.state, target.user, formOf(ctx, RenameUserOption).new_username, hasQuirk(ctx.flavour, 'renameNonLocalUserFails'));
    if (res) return fail(ctx, res);
    return empty(204);
  }));

  // A user's addresses (Forgejo 15: `admin.ListUserEmails` / `admin.DeleteUserEmails`, v15.0.3 `routers/api/v1/admin/user.go` l.527–585).
  r.on('GET', '/admin/users/:username/emails', ...admin, userAssignment, forUser((ctx) => {
    const target = ctx.contextUser;
    if (target.kind === 'org') return apiError(ctx.root, 422, `${target.name} is an organization not a user`);
    // `convert.ToEmail`: no user id nor name (zero values, no omitempty).
    return json(200, emailRowsOf(ctx.state, target.user).map((e) => ({ email: e.email, verified: e.isActivated, primary: e.isPrimary, user_id: 0, username: '' })));
  }));
  r.on('DELETE', '/admin/users/:username/emails', ...admin, userAssignment, bind(DeleteEmailOption), forUser((ctx) => {
    const target = ctx.contextUser;
    if (target.kind === 'org') return apiError(ctx.root, 422, `${target.name} is an organization not a user`);
    const emails = formOf(ctx, DeleteEmailOption).emails ?? [];
    const refused = emails.length ? deleteSecondaryEmails(ctx.state, target.user, emails) : undefined;
    return refused ? apiError(ctx.root, 422, refused) : empty(204);
  }));
}
