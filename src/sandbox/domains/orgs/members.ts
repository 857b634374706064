/** Organisation membership (`org_user` and team members). */
import { isOrgMember, isOrgOwner } from '../../core/permissions.js';
import type { OrgRecord, SandboxState } from '../../core/state.js';
import { ownersTeam, teamsOfOrg } from '../teams/records.js';

/** `RemoveOrgUser`: false when the user is the last member of the Owners team (`ErrLastOrgOwner`). */
export function removeOrgMember(state: SandboxState, org: OrgRecord, userId: number): boolean {
  if (isOrgOwner(state, org, userId)) {
    const owners = ownersTeam(state, org.id);
    if (owners && owners.memberIds.length === 1 && owners.memberIds[0] === userId) return false;
  }
  org.memberIds = org.memberIds.filter((id) => id !== userId);
  for (const t of teamsOfOrg(state, org.id)) t.memberIds = t.memberIds.filter((id) => id !== userId);
  return true;
}

/** Organisations the user belongs to (`org_user`), by id. */
export function orgsOfMember(state: SandboxState, userId: number): OrgRecord[] {
  return state.data.orgs.filter((o) => isOrgMember(state, o, userId)).sort((a, b) => a.id - b.id);
}
