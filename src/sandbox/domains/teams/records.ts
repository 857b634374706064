/**
 * Teams of organisations (`models/organization/team.go`), saved in the state file (part of
 * `StateData`), and their lookups. Every organisation has an Owners team (`owner` permission):
 * its members are the organisation's owners.
 */
import { AccessMode, type RepoRecord, type SandboxState, type StateData } from '../../core/state.js';
import { hasMember } from '../../core/permissions.js';
import { defineIndex } from '../../core/table-index.js';

/** A team's own access mode as stored (`team.authorize`): `none` for teams below admin from Gitea 1.24 (see NOTES.md "Teams"). */
export type TeamPermission = 'none' | 'read' | 'write' | 'admin' | 'owner';

/** A level of one unit (`team_unit.access_mode`). */
export type UnitLevel = 'none' | 'read' | 'write' | 'admin' | 'owner';

/** Every repository unit (`models/unit/unit.go`, the same in every release read). */
export const UNIT_KEYS = ['repo.code', 'repo.issues', 'repo.pulls', 'repo.releases', 'repo.wiki', 'repo.ext_wiki', 'repo.ext_issues', 'repo.projects', 'repo.packages', 'repo.actions'] as const;

export interface TeamRecord {
  id: number;
  orgId: number;
  name: string;
  description: string;
  permission: TeamPermission;
  includesAllRepositories: boolean;
  repoIds: number[];
  memberIds: number[];
  /** Stored units and their levels (`team_unit`); absent on teams of older state files and seeds: every unit at the permission. */
  units?: Record<string, UnitLevel>;
  /** Absent: false (the Owners team: true). */
  canCreateOrgRepo?: boolean;
}

const LEVEL: Record<UnitLevel, number> = { none: AccessMode.None, read: AccessMode.Read, write: AccessMode.Write, admin: AccessMode.Admin, owner: AccessMode.Owner };

export const isAdminTeam = (team: TeamRecord): boolean => team.permission === 'admin' || team.permission === 'owner';

/**
 * The units a team answers (`GetUnitsMap`): an admin-level team every unit at its own level, another
 * its stored units (`none` entries included); a seeded team without stored units every unit at its
 * permission, the external ones at read (as `attachAdminTeamUnits` and the web form make them).
 */
export function unitsOf(team: TeamRecord): Record<string, UnitLevel> {
  if (isAdminTeam(team)) return Object.fromEntries(UNIT_KEYS.map((k) => [k, team.permission]));
  if (team.units) return team.units;
  return Object.fromEntries(UNIT_KEYS.map((k) => [k, k.endsWith('.ext_wiki') || k.endsWith('.ext_issues') ? 'read' : team.permission]));
}

declare module '../../core/state.js' {
  /** The teams domain's table: part of the state, saved in the state file (the domain's `data`). */
  interface StateData {
    teams: TeamRecord[];
  }
}

export type TeamsData = Pick<StateData, 'teams'>;

export function emptyTeamsData(): TeamsData {
  return { teams: [] };
}

const lower = (s: string): string => s.toLowerCase();

export const TEAMS = defineIndex<TeamRecord>()({ table: 'teams', unique: { id: (t) => t.id, name: (t) => `${t.orgId}/${lower(t.name)}` }, groups: { org: (t) => t.orgId } });

export function teamById(state: SandboxState, id: number): TeamRecord | undefined {
  return state.indexes.of(TEAMS).get('id', id);
}

export function teamsOfOrg(state: SandboxState, orgId: number): TeamRecord[] {
  return state.indexes.of(TEAMS).list('org', orgId);
}

/** Case-insensitive, like Gitea's `lower_name` lookups. */
export function teamByName(state: SandboxState, orgId: number, name: string): TeamRecord | undefined {
  return state.indexes.of(TEAMS).get('name', `${orgId}/${lower(name)}`);
}

/** The organisation's Owners team (every organisation has one from its creation). */
export function ownersTeam(state: SandboxState, orgId: number): TeamRecord | undefined {
  return teamsOfOrg(state, orgId).find((t) => t.permission === 'owner');
}

/** What the team gives on the code of its repositories: its own mode when admin-level, else its code unit's level. */
export function teamMode(team: TeamRecord): number {
  if (isAdminTeam(team) || !team.units) return LEVEL[team.permission];
  return LEVEL[team.units['repo.code'] ?? 'none'];
}

/**
 * What the team writes into the access table (`access.mode`, RecalculateUserAccess / RecalculateTeamAccesses,
 * v1.25.4 models/perm/access/access.go l.196–242): its own stored mode (`team.authorize`), never its units;
 * the Owners team owner. A team below admin created on Gitea 1.24+ is stored as none: it adds nothing there.
 */
export function teamAccessTableMode(team: TeamRecord): number {
  return LEVEL[team.permission];
}

export function teamHasRepo(team: TeamRecord, repo: RepoRecord): boolean {
  return team.includesAllRepositories || team.permission === 'owner' || hasMember(team.repoIds, repo.id);
}

/**
 * Teams of the owning organisation with at least read access to the repository (id order): what a protection's
 * team lists keep and answer. Gitea ≤ 1.23 and Forgejo judge the stored mode (GetTeamsWithAccessToRepo(read):
 * v1.23.8 models/git/protected_branch.go l.521), Gitea 1.24+ the code and pull-request units
 * (GetTeamsWithAccessToAnyRepoUnit(read, code, pulls): v1.24.7 l.521).
 */
export function teamsWithAccess(state: SandboxState, repo: RepoRecord, byUnits: boolean): TeamRecord[] {
  const owner = state.repoOwner(repo);
  if (owner.kind !== 'org') return [];
  const units = (t: TeamRecord) => Math.max(LEVEL[unitsOf(t)['repo.code'] ?? 'none'], LEVEL[unitsOf(t)['repo.pulls'] ?? 'none']);
  return teamsOfOrg(state, owner.id)
    .filter((t) => teamHasRepo(t, repo) && (isAdminTeam(t) || (byUnits ? units(t) : teamAccessTableMode(t)) >= AccessMode.Read))
    .sort((a, b) => a.id - b.id);
}
