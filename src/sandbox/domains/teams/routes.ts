/**
 * The team routes (`routers/api/v1/org/team.go`, helpers `models/org_team.go` or `services/org/team.go`):
 * list and create an organisation's teams, get, edit and delete one, its members and its repositories.
 * What each release does differently is in NOTES.md ("Teams") and test/conformance/teams.test.ts:
 * a team below admin stored as `none` from Gitea 1.24, the lowest `units_map` level before; names of 30
 * characters on Gitea 1.21 and Forgejo 7; members unpaged without `page` before Gitea main; `Link` on
 * the lists from Gitea main.
 */
import { reqToken, scope } from '../../http/auth.js';
import { bind, formOf, internalError, notFound, orgAssignment, repoAssignment, reqOrgMembership, reqOrgOwnership, userAssignment } from '../../http/checks.js';
import { type ApiContext, forUser, inOrg, inRepo, type OrgContext, type RepoContext, type SignedInContext, signedIn, type Step, type UserContext } from '../../http/context.js';
import { listOptions, paginate, setLinkHeader, setTotalCountHeader, formInt } from '../../http/paging.js';
import { apiError, empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { isOrgMember, isOrgOwner, repoAccessMode } from '../../core/permissions.js';
import { AccessMode, type OrgRecord, type RepoRecord, type UserRecord } from '../../core/state.js';
import { hasQuirk } from '../../flavours/releases.js';
import { toOrganization } from '../orgs/convert.js';
import { toRepo } from '../repos/convert.js';
import { toUser } from '../users/convert.js';
import { CreateTeamOption, EditTeamOption } from './options.js';
import { isAdminTeam, TEAMS, teamById, teamByName, teamHasRepo, teamsOfOrg, UNIT_KEYS, unitsOf, type TeamPermission, type TeamRecord, type UnitLevel } from './records.js';
import { createTeam } from './service.js';

/** `convert.ToTeams`: the organisation only where the handler asks for it (GET one, POST). */
function toTeam(ctx: ApiContext, team: TeamRecord, withOrg: boolean): Record<string, unknown> {
  const units = unitsOf(team);
  const org = withOrg ? ctx.state.orgById(team.orgId) : undefined;
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    organization: org ? toOrganization(ctx, org) : null,
    includes_all_repositories: team.includesAllRepositories,
    permission: team.permission,
    units: Object.keys(units),
    units_map: units,
    can_create_org_repo: team.canCreateOrgRepo ?? team.permission === 'owner',
  };
}

/** Paging headers of the team lists: X-Total-Count everywhere, Link only where the release sends it. */
function pagingHeaders(ctx: ApiContext, total: number, pageSize: number): void {
  if (hasQuirk(ctx.flavour, 'teamListsLink')) setLinkHeader(ctx, total, pageSize);
  setTotalCountHeader(ctx, total);
}

// ---- permission and units (CreateTeam / EditTeam) -------------------------------------------------

/** `perm.ParseAccessMode(s)`: read, write, admin; anything else none. */
const parseMode = (s: string | undefined): TeamPermission => (s === 'read' || s === 'write' || s === 'admin' ? s : 'none');
const RANK: Record<UnitLevel, number> = { none: 0, read: 1, write: 2, admin: 3, owner: 4 };

/** `unit.TypeFromKey`, case-insensitive; an unknown key is stored as the invalid unit (answered as ""). */
const unitKey = (k: string): string => UNIT_KEYS.find((u) => u.toLowerCase() === k.toLowerCase()) ?? '';

/** `MinUnitAccessMode`: the lowest level above none, the external units left out. */
function minUnitLevel(units: Record<string, UnitLevel>): TeamPermission {
  let res: UnitLevel = 'none';
  for (const [k, level] of Object.entries(units)) {
    if (k === 'repo.ext_wiki' || k === 'repo.ext_issues') continue;
    if (RANK[level] > 0 && (res === 'none' || RANK[level] < RANK[res])) res = level;
  }
  return res === 'owner' ? 'admin' : res;
}

/** The team's own permission from the form's (EditTeam only when one is given). */
function teamPermissionOf(ctx: ApiContext, permission: string | undefined, unitsMap: Record<string, string> | undefined): TeamPermission {
  const p = parseMode(permission);
  if (p === 'admin') return 'admin';
  if (hasQuirk(ctx.flavour, 'teamPermissionInUnits')) return 'none';
  return unitsMap && Object.keys(unitsMap).length > 0 ? minUnitLevel(attachUnitsMap(unitsMap)) : p;
}

function attachUnitsMap(unitsMap: Record<string, string>): Record<string, UnitLevel> {
  return Object.fromEntries(Object.entries(unitsMap).map(([k, v]) => [unitKey(k), parseMode(v)]));
}

/** `attachTeamUnits`: each listed (known) unit at the team's permission (Gitea 1.24+: the form's read or write, else none). */
function attachUnits(ctx: ApiContext, units: string[], teamPermission: TeamPermission, permission: string | undefined): Record<string, UnitLevel> {
  const p = parseMode(permission);
  const level: UnitLevel = hasQuirk(ctx.flavour, 'teamPermissionInUnits') ? (p === 'read' || p === 'write' ? p : 'none') : teamPermission;
  return Object.fromEntries(units.map(unitKey).filter((k) => k !== '').map((k) => [k, level]));
}

/**
 * The units a team below admin is given by a form, or undefined when the form gives none: an empty
 * `units_map` and an empty `units` give none, so CreateTeam answers 500 "units permission should not be
 * empty" and EditTeam keeps the team's units (routers/api/v1/org/team.go, every release read: v1.25.4
 * l.219–228 and l.309–315, v1.21.11 l.229–238 and l.323–328, Forgejo v15.0.3 l.233–242 and l.328–333).
 * A units_map whose every unit is `none` is not empty: the server stores the units at none.
 */
function formUnits(ctx: ApiContext, form: { units_map?: Record<string, string>; units?: string[]; permission?: string }, teamPermission: TeamPermission): Record<string, UnitLevel> | undefined {
  if (form.units_map && Object.keys(form.units_map).length > 0) return attachUnitsMap(form.units_map);
  if (form.units && form.units.length > 0) return attachUnits(ctx, form.units, teamPermission, form.permission);
  return undefined;
}

// ---- routes -----------------------------------------------------------------------------------------

const teamOf = new WeakMap<ApiContext, TeamRecord>();
/** The team `teamAssignment` found (a route wired without it is a bug of the sandbox, not an answer). */
function team(ctx: ApiContext): TeamRecord {
  const found = teamOf.get(ctx);
  if (!found) throw new Error(`${ctx.method} ${ctx.rawPath}: the route's handler needs teamAssignment before it`);
  return found;
}

/** `orgAssignment(false, true)`: `{teamid}` → the team and its organisation, 404 when unknown. */
const teamAssignment: Step = (ctx) => {
  const id = Number(ctx.params.teamid);
  const found = Number.isSafeInteger(id) ? teamById(ctx.state, id) : undefined;
  const org = found ? ctx.state.orgById(found.orgId) : undefined;
  if (!found || !org) return notFound(ctx);
  teamOf.set(ctx, found);
  ctx.org = org;
  return undefined;
};

/** `reqTeamMembership()`: site admins and owners pass; an organisation member outside the team is 403, anyone else 404. */
const reqTeamMembership: Step = inOrg(signedIn((ctx) => {
  const doer = ctx.doer;
  if (doer.isAdmin || isOrgOwner(ctx.state, ctx.org, doer.id) || team(ctx).memberIds.includes(doer.id)) return undefined;
  return isOrgMember(ctx.state, ctx.org, doer.id) ? apiError(ctx.root, 403, 'Must be a team member') : notFound(ctx);
}));

function listTeams(ctx: OrgContext): Response {
  const teams = [...teamsOfOrg(ctx.state, ctx.org.id)].sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0));
  const opts = listOptions(ctx);
  pagingHeaders(ctx, teams.length, opts.pageSize);
  return json(200, paginate(teams, opts).map((t) => toTeam(ctx, t, false)));
}

function createTeamRoute(ctx: OrgContext): Response {
  const form = formOf(ctx, CreateTeamOption);
  const org = ctx.org;
  const permission = teamPermissionOf(ctx, form.permission, form.units_map);
  const units = permission === 'admin' ? undefined : formUnits(ctx, form, permission);
  if (permission !== 'admin' && !units) return internalError(ctx, 'units permission should not be empty');
  if (form.name.toLowerCase() === 'new') return internalError(ctx, `name is reserved [name: ${form.name}]`);
  if (teamByName(ctx.state, org.id, form.name)) return apiError(ctx.root, 422, `team already exists [org_id: ${org.id}, name: ${form.name.toLowerCase()}]`);
  const created = createTeam(ctx.state, org, {
    name: form.name,
    description: form.description ?? '',
    permission,
    includesAllRepositories: form.includes_all_repositories ?? false,
    memberIds: [],
    ...(units ? { units } : {}),
    canCreateOrgRepo: form.can_create_org_repo ?? false,
  });
  return json(201, toTeam(ctx, created, true));
}

/** `EditTeam`: see NOTES.md "Teams" for what the Owners team and a PATCH without permission ignore. */
function editTeam(ctx: ApiContext): Response {
  const form = formOf(ctx, EditTeamOption);
  const t = team(ctx);
  const owners = t.name === 'Owners';
  if (form.name && form.name.toLowerCase() !== t.name.toLowerCase() && teamByName(ctx.state, t.orgId, form.name))
    return internalError(ctx, `team already exists [org_id: ${t.orgId}, name: ${form.name.toLowerCase()}]`);
  if (form.can_create_org_repo !== undefined) t.canCreateOrgRepo = owners || form.can_create_org_repo;
  if (form.name) {
    const name = form.name;
    ctx.state.indexes.of(TEAMS).change(t, () => (t.name = name));
  }
  if (form.description !== undefined) t.description = form.description.slice(0, 255);
  if (!owners && form.permission) {
    const next = teamPermissionOf(ctx, form.permission, form.units_map);
    if (isAdminTeam(t) && next !== 'admin') t.units = unitsOf(t);
    t.permission = t.permission === 'owner' ? t.permission : next;
    if (form.includes_all_repositories !== undefined) t.includesAllRepositories = form.includes_all_repositories;
  }
  if (!isAdminTeam(t)) {
    const units = formUnits(ctx, form, t.permission);
    if (units) t.units = units;
  } else delete t.units;
  return json(200, toTeam(ctx, t, false));
}

function deleteTeam(ctx: OrgContext): Response {
  const t = team(ctx);
  ctx.state.indexes.of(TEAMS).remove(t);
  for (const id of t.memberIds) leaveOrgIfTeamless(ctx, ctx.org, id);
  return empty(204);
}

/** `removeInvalidOrgUser`: a user in no team of the organisation any more leaves it. */
function leaveOrgIfTeamless(ctx: ApiContext, org: OrgRecord, userId: number): void {
  if (teamsOfOrg(ctx.state, org.id).some((t) => t.memberIds.includes(userId))) return;
  org.memberIds = org.memberIds.filter((id) => id !== userId);
}

function listMembers(ctx: OrgContext & SignedInContext): Response {
  const doer = ctx.doer;
  if (!doer.isAdmin && !isOrgMember(ctx.state, ctx.org, doer.id)) return notFound(ctx);
  const t = team(ctx);
  const members = t.memberIds
    .map((id) => ctx.state.userById(id))
    .filter((u): u is UserRecord => u !== undefined)
    .sort((a, b) => a.fullName.localeCompare(b.fullName) || a.name.localeCompare(b.name));
  const opts = listOptions(ctx);
  pagingHeaders(ctx, t.memberIds.length, opts.pageSize);
  // Before Gitea main a request without `page` reaches GetTeamMembers with page 0: no limit at all.
  const unpaged = hasQuirk(ctx.flavour, 'teamMembersUnpagedWithoutPage') && formInt(ctx.query, 'page') <= 0;
  return json(200, (unpaged ? members : paginate(members, opts)).map((u) => toUser(ctx, u, doer)));
}

function memberUser(ctx: UserContext): UserRecord | Response {
  const owner = ctx.contextUser;
  return owner.kind === 'user' ? owner.user : notFound(ctx);
}

function addMember(ctx: OrgContext & UserContext): Response {
  const user = memberUser(ctx);
  if (user instanceof Response) return user;
  const t = team(ctx);
  if (!t.memberIds.includes(user.id)) t.memberIds = [...t.memberIds, user.id];
  const org = ctx.org;
  if (!org.memberIds.includes(user.id)) org.memberIds = [...org.memberIds, user.id];
  return empty(204);
}

function removeMember(ctx: OrgContext & UserContext): Response {
  const user = memberUser(ctx);
  if (user instanceof Response) return user;
  const t = team(ctx);
  if (!t.memberIds.includes(user.id)) return empty(204);
  if (t.name === 'Owners' && t.memberIds.length === 1) return internalError(ctx, `user is the last member of owner team [uid: ${user.id}]`);
  t.memberIds = t.memberIds.filter((id) => id !== user.id);
  leaveOrgIfTeamless(ctx, ctx.org, user.id);
  return empty(204);
}

/** `GetTeamMember`: the user when a member of the team (200), else 404; an unknown user 404 (GetUserByParams). */
function getMember(ctx: UserContext): Response {
  const user = memberUser(ctx);
  if (user instanceof Response) return user;
  return team(ctx).memberIds.includes(user.id) ? json(200, toUser(ctx, user, ctx.doer)) : notFound(ctx);
}

/**
 * `GET /repos/{o}/{r}/teams` (routers/api/v1/repo/teams.go ListTeams): the teams of the owning organisation
 * that have the repository (GetRepoTeams: team_repo rows, so the Owners team and the teams with every
 * repository too), Owners first, then by name; unpaged; `organization: null`. A user's repository: 405.
 */
function listRepoTeams(ctx: RepoContext): Response {
  const repo = ctx.repo;
  const owner = ctx.state.repoOwner(repo);
  if (owner.kind !== 'org') return apiError(ctx.root, 405, 'repo is not owned by an organization');
  const sortName = (t: TeamRecord): string => (t.name === 'Owners' ? '' : t.name);
  const teams = teamsOfOrg(ctx.state, owner.id)
    .filter((t) => teamHasRepo(t, repo))
    .sort((a, b) => (sortName(a) < sortName(b) ? -1 : sortName(a) > sortName(b) ? 1 : a.id - b.id));
  return json(200, teams.map((t) => toTeam(ctx, t, false)));
}

function listRepos(ctx: ApiContext): Response {
  const t = team(ctx);
  const repos = ctx.state
    .reposOfOwner(t.orgId)
    .filter((r) => teamHasRepo(t, r))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const opts = listOptions(ctx);
  pagingHeaders(ctx, repos.length, opts.pageSize);
  return json(200, paginate(repos, opts).map((r) => toRepo(ctx, r, repoAccessMode(ctx.state, r, ctx.doer))));
}

/** `getRepositoryByParams`: `{reponame}` in the team's own organisation (`{org}` is not read), then repository admin. */
function teamRepo(ctx: ApiContext): RepoRecord | Response {
  const repo = ctx.state.repoByName(team(ctx).orgId, ctx.params.repo ?? '');
  if (!repo) return notFound(ctx);
  if (!ctx.doer?.isAdmin && repoAccessMode(ctx.state, repo, ctx.doer) < AccessMode.Admin) return apiError(ctx.root, 403, 'Must have admin-level access to the repository');
  return repo;
}

function addRepo(ctx: ApiContext): Response {
  const repo = teamRepo(ctx);
  if (repo instanceof Response) return repo;
  const t = team(ctx);
  if (!t.repoIds.includes(repo.id)) t.repoIds = [...t.repoIds, repo.id];
  return empty(204);
}

function removeRepo(ctx: ApiContext): Response {
  const repo = teamRepo(ctx);
  if (repo instanceof Response) return repo;
  const t = team(ctx);
  // RemoveRepositoryFromTeam: a team with every repository keeps them all.
  if (!t.includesAllRepositories) t.repoIds = t.repoIds.filter((id) => id !== repo.id);
  return empty(204);
}

export function registerTeamRoutes(r: ApiRouter): void {
  const org = [scope('organization'), reqToken, orgAssignment, reqOrgMembership];
  r.on('GET', '/orgs/:org/teams', ...org, inOrg(listTeams));
  r.on('POST', '/orgs/:org/teams', ...org, reqOrgOwnership, bind(CreateTeamOption), inOrg(createTeamRoute));

  r.on('GET', '/repos/:owner/:repo/teams', scope('repository'), repoAssignment, reqToken, inRepo(listRepoTeams));

  const one = [scope('organization'), teamAssignment, reqToken, reqTeamMembership];
  r.on('GET', '/teams/:teamid', ...one, (ctx) => json(200, toTeam(ctx, team(ctx), true)));
  r.on('PATCH', '/teams/:teamid', ...one, reqOrgOwnership, bind(EditTeamOption), editTeam);
  r.on('DELETE', '/teams/:teamid', ...one, reqOrgOwnership, inOrg(deleteTeam));
  r.on('GET', '/teams/:teamid/members', ...one, inOrg(signedIn(listMembers)));
  r.on('GET', '/teams/:teamid/members/:username', ...one, userAssignment, forUser(getMember));
  r.on('PUT', '/teams/:teamid/members/:username', ...one, reqOrgOwnership, userAssignment, inOrg(forUser(addMember)));
  r.on('DELETE', '/teams/:teamid/members/:username', ...one, reqOrgOwnership, userAssignment, inOrg(forUser(removeMember)));
  r.on('GET', '/teams/:teamid/repos', ...one, listRepos);
  r.on('PUT', '/teams/:teamid/repos/:org/:repo', ...one, addRepo);
  r.on('DELETE', '/teams/:teamid/repos/:org/:repo', ...one, removeRepo);
}
