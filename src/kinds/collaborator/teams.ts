// What a user has on an organisation's repository through its teams, where the permission route does not
// say it: the repository's teams (one read per repository and run, shared by the kinds that ask) and a
// membership check per team that matters.
import type { Shape } from '../../gitea/answer.js';
import { isApiError } from '../../gitea/errors.js';
import { apiPath } from '../../gitea/path.js';
import type { RequestScope, ScopeContext } from '../../model/index.js';

/** A team as `GET /repos/{o}/{r}/teams` answers it (repo/teams.go ListTeams, every release): its stored mode and its units. */
export interface RepoTeam {
  id: number;
  name: string;
  /** The stored mode (`team.authorize`): what the permission route counts; `none` for a team below admin made on Gitea 1.24+. */
  permission: string;
  /** Each unit's level (GetUnitsMap): what the unit checks count (CanWrite(code) …). */
  units_map?: Record<string, string>;
}

const TEAM: Shape = { id: 'id', name: 'string', permission: 'string' };

/** The organisation's teams that have the repository (GetRepoTeams: Owners first, then by name; unpaged). */
export function repoTeams(ctx: ScopeContext, scope: RequestScope): Promise<RepoTeam[]> {
  return ctx.cachedGet<RepoTeam[]>(apiPath(...scope.segments, 'teams'), { object: `teams of ${scope.name}`, expect: 'list', shape: TEAM }).then((t) => t ?? []);
}

/** `GET /teams/{id}/members/{user}` (org/team.go GetTeamMember): 200 a member, 404 not; 403 (the token may not ask): nobody can tell, so not. */
export async function isTeamMember(ctx: ScopeContext, team: RepoTeam, user: string): Promise<boolean> {
  try {
    await ctx.cachedGet(apiPath('teams', String(team.id), 'members', user), { object: `membership of ${user} in team ${team.name}` });
    return true;
  } catch (e) {
    if (isApiError(e, 404) || isApiError(e, 403)) return false;
    throw e;
  }
}

/** The first of the teams (in order) that has the user, checked one by one until one does. */
export async function firstTeamOf(ctx: ScopeContext, teams: RepoTeam[], user: string): Promise<RepoTeam | undefined> {
  for (const team of teams) if (await isTeamMember(ctx, team, user)) return team;
  return undefined;
}

const WRITES: ReadonlySet<string> = new Set(['write', 'admin', 'owner']);
const ADMIN_LEVEL: ReadonlySet<string> = new Set(['admin', 'owner']);

/**
 * Whether a team of the user gives it write access to the repository's code through its units, which the
 * permission route does not answer (GetUserRepoPermission puts team units in unitsMode only: v1.25.4
 * models/perm/access/repo_permission.go l.350–356), while Gitea's checks of the code unit count them
 * (`perm.CanWrite(unit.TypeCode)`, UnitAccessMode l.90–101). It matters for teams below admin made on Gitea
 * 1.24+, stored as `none` with their levels in their units: their members read back as the collaboration
 * (or read) and yet can push. One read of the repository's teams, then one check per team whose code unit
 * is at write or above.
 */
export async function writesCodeThroughTeam(ctx: ScopeContext, scope: RequestScope, user: string): Promise<boolean> {
  if (!scope.repo?.ownerIsOrg || scope.pendingCreate) return false;
  // A team with admin access (the Owners team too) makes its members read owner: never asked here.
  const writers = (await repoTeams(ctx, scope)).filter((t) => !ADMIN_LEVEL.has(t.permission) && WRITES.has(t.units_map?.['repo.code'] ?? ''));
  return (await firstTeamOf(ctx, writers, user)) !== undefined;
}
