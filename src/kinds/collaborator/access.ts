// The projected permission model: what a user (or a team) will have on a repository once the plan is
// applied, from what the kinds read anyway (the permission route, the repository's teams) and from the
// plan's own changes (collaborators, teams with their members, repositories and units, the repositories
// and users it creates). Every access-dependent list (protections' allowlists) asks it, for the objects
// the plan creates exactly as for the existing ones. Facts and citations: src/sandbox/NOTES.md "Access".
import { isApiError } from '../../gitea/errors.js';
import { apiPath } from '../../gitea/path.js';
import { serverHas, type ProjectedObject, type RequestScope, type ScopeContext } from '../../model/index.js';
import { inGitea } from '../fields.js';
import { teamKind } from '../team/index.js';
import { collaboratorKind } from './index.js';
import { isTeamMember, repoTeams } from './teams.js';

export type Level = 'none' | 'read' | 'write' | 'admin' | 'owner';
const RANK: Record<Level, number> = { none: 0, read: 1, write: 2, admin: 3, owner: 4 };
const LEVELS: readonly Level[] = ['none', 'read', 'write', 'admin', 'owner'];
const asLevel = (v: unknown): Level => LEVELS.find((l) => l === v) ?? 'none';
const max = (a: Level, b: Level): Level => (RANK[a] >= RANK[b] ? a : b);
const lc = (s: string) => s.toLowerCase();

/**
 * Gitea 1.24+ stores a team below admin made (or edited) through the API as `none`, its levels in its units
 * (#34128; v1.24.7 routers/api/v1/org/team.go l.209): such a team writes nothing into the access table.
 */
const TEAM_STORED_NONE = inGitea('1.24');
/**
 * Gitea 1.25 counts a team's pull-request unit where it lists "readers" (GetUserIDsWithUnitAccess: the access
 * table, the owner of a user's repository, and GetTeamUserIDsWithAccessToAnyRepoUnit; v1.25.4
 * models/perm/access/repo_permission.go l.476–500), earlier releases and Forgejo the access table alone.
 */
const READERS_COUNT_TEAM_UNITS = inGitea('1.25');
/** Gitea 1.24 judges a team list by its units (GetTeamsWithAccessToAnyRepoUnit(read, code, pulls): v1.24.7 models/git/protected_branch.go l.521), earlier by its stored mode. */
const TEAM_LISTS_BY_UNITS = inGitea('1.24');

/** What one user will have on one repository after the plan. */
export interface Access {
  /** GetUserRepoPermission's mode: what the permission route answers. */
  level: Level;
  /** perm.CanWrite(unit.TypeCode): the mode, or a team's code unit (v1.25.4 repo_permission.go l.90–101). */
  writesCode: boolean;
  /**
   * Counted where the release lists the repository's readers (IsRepoReader, GetRepoReaders, GetUsersWithUnitAccess):
   * the owner of a user's repository, or a row of the access table at read or above, which collaborations
   * and teams write and being a site administrator, an owner of nothing here or the repository being public
   * do not (v1.24.7 models/perm/access/access.go l.88–125, l.189–233; repo_permission.go l.462–509).
   */
  reader: boolean;
  /**
   * May be assigned issues and pull requests: CanBeAssigned, `CanAccessAny(write, every unit) || CanAccessAny(read,
   * pulls)` on GetUserRepoPermission (v1.25.4 models/perm/access/repo_permission.go l.433–443; v1.21.11 l.335–345;
   * Forgejo v11.0.15 l.359–369): a mode at read or above (the pull-request unit read with it), or a team's unit.
   */
  assignable: boolean;
  /** How (for messages): "a read collaborator", "team developers"… */
  how: string[];
  /** The changes of this plan the access waits for (a collaborator's PUT, a team's member or repository added). */
  grants: string[];
}

/** A team as the model sees it on one repository after the plan. */
export interface TeamOnRepo {
  name: string;
  id?: number;
  /** Whether it has the repository; undefined: not known from the plan (asked of the server). */
  hasRepo: boolean | undefined;
  /** Its members (lower-cased); undefined: not known from the plan (asked of the server, one member at a time). */
  members: ReadonlySet<string> | undefined;
  /** Its stored mode (team.authorize): what the access table and the permission route count. */
  stored: Level;
  units: Record<string, string>;
  /** The change of this plan that gives it the repository or its members. */
  grant?: string;
}

type AccessRequest = { ctx: ScopeContext; scope: RequestScope };

const repoName = (scope: RequestScope) => lc(scope.repo?.name ?? scope.name.slice(scope.name.indexOf('/') + 1));

/** The stored mode of a team the plan leaves (see TEAM_STORED_NONE; older Gitea and Forgejo store the lowest unit level: MinUnitAccessMode, v1.21.11 team.go l.216–219). */
function storedMode(ctx: ScopeContext, p: ProjectedObject, current: ProjectedObject | undefined): Level {
  const permission = asLevel(p.fields.permission);
  if (permission === 'owner' || permission === 'admin') return permission;
  const units = unitsOf(p);
  const same = current && String(current.fields.permission) === String(p.fields.permission) && JSON.stringify(unitsOf(current)) === JSON.stringify(units);
  if (current && (same || !p.changedBy)) return asLevel(current.fields.permission);
  if (serverHas(ctx.server, TEAM_STORED_NONE)) return 'none';
  const levels = Object.values(units).map(asLevel).filter((l) => l !== 'none');
  return levels.length ? levels.reduce((a, b) => (RANK[a] <= RANK[b] ? a : b)) : permission;
}

function unitsOf(p: ProjectedObject): Record<string, string> {
  const u = p.fields.units_map;
  return u && typeof u === 'object' && !Array.isArray(u) ? Object.fromEntries(Object.entries(u).map(([k, v]) => [k, String(v)])) : {};
}

/**
 * The organisation's teams on the repository after the plan: those the plan manages as it leaves them
 * (members and repositories as declared, a new team with neither), the others as the server has them (the
 * repository's teams: one read per repository and run; for a repository the plan creates, the organisation's
 * teams, one list shared with the team kind, of which only those with every repository have it).
 */
export async function teamsOnRepo(req: AccessRequest): Promise<TeamOnRepo[]> {
  const { ctx, scope } = req;
  if (!scope.repo?.ownerIsOrg) return [];
  const org = { type: 'org' as const, name: scope.owner };
  const planned = ctx.planned(teamKind, org);
  if (!planned) {
    if (!scope.pendingCreate) return (await repoTeams(ctx, scope)).map((t) => ({ name: t.name, id: t.id, hasRepo: true, members: undefined, stored: asLevel(t.permission), units: t.units_map ?? {} }));
    return (await ctx.projected(teamKind, org))
      .filter((t) => t.fields.includes_all_repositories === true || t.fields.permission === 'owner')
      .map((t) => ({ name: t.key, ...(typeof t.id === 'number' ? { id: t.id } : {}), hasRepo: true, members: undefined, stored: asLevel(t.fields.permission), units: unitsOf(t) }));
  }
  const current = new Map((await ctx.currentOf(teamKind, org)).map((c) => [lc(c.key), { key: c.key, id: c.id, fields: c.fields }]));
  const name = repoName(scope);
  const views = planned.map((p) => {
    const all = p.fields.includes_all_repositories === true || p.fields.permission === 'owner';
    const repos = Array.isArray(p.fields.repositories) ? new Set(p.fields.repositories.map((r) => lc(String(r)))) : undefined;
    // Not said by the plan (a team declared without repositories, or not declared): as the server has it.
    const hasRepo = all || repos?.has(name) || (repos || p.madeBy || scope.pendingCreate ? false : undefined);
    const members = Array.isArray(p.fields.members) ? new Set(p.fields.members.map((m) => lc(String(m)))) : p.madeBy && typeof p.id !== 'number' ? new Set<string>() : undefined;
    const grant = p.madeBy ?? p.changedBy;
    return { name: p.key, ...(typeof p.id === 'number' ? { id: p.id } : {}), hasRepo, members, stored: storedMode(ctx, p, current.get(lc(p.key))), units: unitsOf(p), ...(grant ? { grant } : {}) };
  });
  // The repository's teams are read only for the teams whose repositories the plan does not say.
  if (views.some((v) => v.hasRepo === undefined)) {
    const had = new Set((await repoTeams(ctx, scope)).map((t) => lc(t.name)));
    for (const v of views) v.hasRepo ??= had.has(lc(v.name));
  }
  return views;
}

/** Whether the team will be a member's way to the repository (the plan's members, else the server's: one cached check). */
async function hasMember(ctx: ScopeContext, team: TeamOnRepo, user: string): Promise<boolean> {
  if (team.members) return team.members.has(lc(user));
  if (team.id === undefined) return false;
  return isTeamMember(ctx, { id: team.id, name: team.name, permission: team.stored }, user);
}

/** Whether a team on the repository counts for a team allowlist (updateTeamWhitelist; see TEAM_LISTS_BY_UNITS). */
export function teamListed(ctx: ScopeContext, team: TeamOnRepo): boolean {
  if (!team.hasRepo) return false;
  if (team.stored === 'owner' || team.stored === 'admin') return true;
  if (serverHas(ctx.server, TEAM_LISTS_BY_UNITS)) return ['repo.code', 'repo.pulls'].some((u) => RANK[asLevel(team.units[u])] >= RANK.read);
  return RANK[team.stored] >= RANK.read;
}

/**
 * What a team on the repository gives its members: its level (owner for an admin team: HasAdminAccess), write
 * on the code (its mode, or its code unit: CanWrite counts units), and whether they are readers. Gitea ≤ 1.23
 * and Forgejo write each member's row at the team's stored mode when it joins or the team gets the repository
 * (AddTeamMember: v1.23.8 services/org/team.go l.264–289, Forgejo v11.0.15 models/org_team.go l.390–417; a
 * team below admin made through the API on Gitea 1.24+ is stored as none: no row). Gitea 1.24+ writes none when
 * a member joins (v1.24.7 services/org/team.go l.228–263): not modelled (the history is not read), a known gap
 * for admin-level teams there. Gitea 1.25 also counts every member of a team whose pull-request unit is at read
 * or above (GetTeamUserIDsWithAccessToAnyRepoUnit, v1.25.4 models/organization/team_repo.go l.68–97).
 */
function teamGives(ctx: ScopeContext, team: TeamOnRepo): { level: Level; code: boolean; reads: boolean; assigns: boolean } {
  const admin = team.stored === 'owner' || team.stored === 'admin';
  const level: Level = admin ? 'owner' : team.stored;
  const code = admin || RANK[asLevel(team.units['repo.code'])] >= RANK.write;
  const byRow = RANK[level] >= RANK.read;
  const byUnit = serverHas(ctx.server, READERS_COUNT_TEAM_UNITS) && (admin || RANK[asLevel(team.units['repo.pulls'])] >= RANK.read);
  const assigns = RANK[level] >= RANK.read || Object.values(team.units).some((u) => RANK[asLevel(u)] >= RANK.write) || RANK[asLevel(team.units['repo.pulls'])] >= RANK.read;
  return { level, code, reads: byRow || byUnit, assigns };
}

/** The collaboration as the plan leaves it: its level and the change that makes it; undefined where the plan does not manage the repository's collaborators. */
function plannedCollaboration(req: AccessRequest, user: string): { level: Level | undefined; grant?: string } | undefined {
  const planned = req.ctx.planned(collaboratorKind, req.scope);
  if (!planned) return undefined;
  const c = planned.find((o) => lc(o.key) === lc(user));
  if (!c) return { level: 'none' };
  const grant = c.madeBy ?? c.changedBy;
  return { level: typeof c.fields.permission === 'string' ? asLevel(c.fields.permission) : undefined, ...(grant ? { grant } : {}) };
}

/** The permission route's answer for an existing user on an existing repository (403: a token that may not ask; nothing is known, taken as write). */
async function serverLevel(req: AccessRequest, user: string): Promise<Level> {
  const { ctx, scope } = req;
  const answer = await ctx
    .cachedGet<{ permission?: string } | undefined>(apiPath(...scope.segments, 'collaborators', user, 'permission'), { object: `${user}'s permission on ${scope.name}` })
    .catch((e: unknown) => {
      if (isApiError(e, 403)) return { permission: 'write' };
      throw e;
    });
  return asLevel(answer?.permission);
}

/** `GET …/collaborators/{user}` (IsCollaborator: 204 or 404), one cached read. */
async function isCollaborator(req: AccessRequest, user: string): Promise<boolean> {
  try {
    await req.ctx.cachedGet(apiPath(...req.scope.segments, 'collaborators', user), { object: `collaboration of ${user} in ${req.scope.name}` });
    return true;
  } catch (e) {
    if (isApiError(e, 404) || isApiError(e, 403)) return false;
    throw e;
  }
}

/** What the asking lists need to know of a user: whether it writes the code, whether it is a reader. Reads stop once both are known to hold. */
export interface Wants {
  write: boolean;
  reader: boolean;
  assignable?: boolean;
}

/**
 * What `user` will have on the repository after the plan. `exists`: the user is on the server now (one
 * the plan creates has only what the plan gives it, and its own repositories). Reads only where the plan
 * does not say enough for what is wanted: the permission route for an existing user of an existing
 * repository, the repository's teams and the membership of those that could give it, and, for a user the
 * server answers as owner through none of them, its collaboration.
 */
export async function projectedAccess(req: AccessRequest, user: string, exists: boolean, wants: Wants = { write: true, reader: true }): Promise<Access> {
  const { scope } = req;
  if (!scope.repo?.ownerIsOrg && lc(scope.owner) === lc(user)) return { level: 'owner', writesCode: true, reader: true, assignable: true, how: [`the owner of ${scope.name}`], grants: [] };
  const onServer = exists && !scope.pendingCreate;
  const out: Access = { level: 'none', writesCode: false, reader: false, assignable: false, how: [], grants: [] };
  const done = () => (!wants.reader || out.reader) && (!wants.write || out.writesCode || RANK[out.level] >= RANK.write) && (!wants.assignable || out.assignable || RANK[out.level] >= RANK.read);
  const minCollab: Level = scope.repo?.private === false ? 'write' : 'read';
  const collab = plannedCollaboration(req, user);
  if (collab?.level && collab.level !== 'none') {
    out.level = collab.level;
    out.how.push(`a ${collab.level} collaborator`);
    out.reader = RANK[collab.level] >= RANK[minCollab];
    if (collab.grant) out.grants.push(collab.grant);
  }
  const server = onServer && !done() ? await serverLevel(req, user) : 'none';
  out.level = max(out.level, server);
  // A level the server answers at write or admin is a row of the access table (a collaboration or a team's
  // stored mode), as read is on a private repository; owner may be a site administrator's (see below).
  if (server === 'write' || server === 'admin' || (server === 'read' && minCollab === 'read')) out.reader = true;
  await throughTeams(req, user, out, done);
  out.writesCode ||= RANK[out.level] >= RANK.write;
  out.assignable ||= RANK[out.level] >= RANK.read;
  // Owner through no team of the repository: a site administrator (no row), unless a collaborator too.
  if (!out.reader && wants.reader && server === 'owner' && collab?.level === undefined && (await isCollaborator(req, user))) out.reader = true;
  return out;
}

/**
 * What the repository's teams add, read only where they may decide, one membership at a time until what is
 * wanted holds: first the teams whose members the plan says, then those that give most, the Owners team last.
 */
async function throughTeams(req: AccessRequest, user: string, out: Access, done: () => boolean): Promise<void> {
  if (done()) return;
  const teams = (await teamsOnRepo(req)).map((t) => ({ t, ...teamGives(req.ctx, t) })).filter((x) => x.t.hasRepo && (x.code || x.reads || x.assigns));
  teams.sort((a, b) => Number(!a.t.members) - Number(!b.t.members) || Number(!(b.code && b.reads)) - Number(!(a.code && a.reads)) || Number(a.t.stored === 'owner') - Number(b.t.stored === 'owner'));
  for (const { t, level, code, reads, assigns } of teams) {
    if (done() || !(await hasMember(req.ctx, t, user))) continue;
    out.level = max(out.level, level);
    out.writesCode ||= code;
    out.reader ||= reads;
    out.assignable ||= assigns;
    out.how.push(`a member of team ${t.name}`);
    if (t.grant) out.grants.push(t.grant);
  }
}
