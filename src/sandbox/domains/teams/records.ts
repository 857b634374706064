/**
 * Teams of organisations (`models/organization/team.go`), saved in the state file (part of
 * `StateData`), and their lookups. Every organisation has an Owners team (`owner` permission):
 * its members are the organisation's owners.
 */
import { AccessMode, type RepoRecord, type SandboxState, type StateData } from '../../core/state.js';
import { hasMember } from '../../core/permissions.js';
import { defineIndex } from '../../core/table-index.js';

export type TeamPermission = 'read' | 'write' | 'admin' | 'owner';

export interface TeamRecord {
  id: number;
  orgId: number;
  name: string;
  description: string;
  permission: TeamPermission;
  includesAllRepositories: boolean;
  repoIds: number[];
  memberIds: number[];
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

const TEAM_MODE: Record<TeamPermission, number> = { read: AccessMode.Read, write: AccessMode.Write, admin: AccessMode.Admin, owner: AccessMode.Owner };

export function teamMode(team: TeamRecord): number {
  return TEAM_MODE[team.permission];
}

export function teamHasRepo(team: TeamRecord, repo: RepoRecord): boolean {
  return team.includesAllRepositories || team.permission === 'owner' || hasMember(team.repoIds, repo.id);
}

/** Teams of the owning organisation with at least read access to the repository (id order). */
export function teamsWithAccess(state: SandboxState, repo: RepoRecord): TeamRecord[] {
  const owner = state.repoOwner(repo);
  if (owner.kind !== 'org') return [];
  return teamsOfOrg(state, owner.id)
    .filter((t) => teamHasRepo(t, repo) && teamMode(t) >= AccessMode.Read)
    .sort((a, b) => a.id - b.id);
}
