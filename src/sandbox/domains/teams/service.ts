/** Creating teams and adding members (`models/organization/team.go`), for organisations and the seed loader. */
import type { OrgRecord, SandboxState } from '../../core/state.js';
import { ownersTeam, type TeamPermission, type TeamRecord } from './records.js';

export interface CreateTeamInput {
  name: string;
  description?: string;
  permission: TeamPermission;
  includesAllRepositories: boolean;
  memberIds: number[];
  units?: TeamRecord['units'];
  canCreateOrgRepo?: boolean;
}

export function createTeam(state: SandboxState, org: OrgRecord, input: CreateTeamInput): TeamRecord {
  const team: TeamRecord = {
    id: state.nextId('team'),
    orgId: org.id,
    name: input.name,
    description: input.description ?? '',
    permission: input.permission,
    includesAllRepositories: input.includesAllRepositories,
    repoIds: [],
    memberIds: input.memberIds,
    ...(input.units ? { units: input.units } : {}),
    ...(input.canCreateOrgRepo !== undefined ? { canCreateOrgRepo: input.canCreateOrgRepo } : {}),
  };
  state.data.teams.push(team);
  return team;
}

/** `organization.CreateOrganization`: the Owners team, with the creator as its only member. */
export function createOwnersTeam(state: SandboxState, org: OrgRecord, creatorId: number): TeamRecord {
  return createTeam(state, org, { name: 'Owners', permission: 'owner', includesAllRepositories: true, memberIds: [creatorId], canCreateOrgRepo: true });
}

/** Adds an owner to the organisation's Owners team (once). */
export function addOwner(state: SandboxState, org: OrgRecord, userId: number): void {
  const owners = ownersTeam(state, org.id);
  if (owners && !owners.memberIds.includes(userId)) owners.memberIds.push(userId);
}
