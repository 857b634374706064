/** Public organisation memberships (`org_user.is_public`), saved in the state file (`StateData` extends {@link OrgMembersData}). */
import { isOrgMember } from '../../core/permissions.js';
import type { OrgRecord, SandboxState, StateData, UserRecord } from '../../core/state.js';

/** One public membership: the `is_public` flag of a member's `org_user` row. */
export interface PublicMemberRecord {
  orgId: number;
  userId: number;
}

declare module '../../core/state.js' {
  /** The org-members domain's table: part of the state, saved in the state file (the domain's `data`). */
  interface StateData {
    publicMembers: PublicMemberRecord[];
  }
}

export type OrgMembersData = Pick<StateData, 'publicMembers'>;

export function emptyOrgMembersData(): OrgMembersData {
  return { publicMembers: [] };
}

/**
 * The organisation's members (its `org_user` rows: its own list and every team's members), in id order.
 * A flag of a user no longer a member is not a membership: Gitea deletes the row (RemoveOrgUser).
 */
export function orgMembers(state: SandboxState, org: OrgRecord): UserRecord[] {
  const ids = new Set(org.memberIds);
  for (const t of state.data.teams ?? []) if (t.orgId === org.id) for (const id of t.memberIds) ids.add(id);
  return [...ids]
    .filter((id) => isOrgMember(state, org, id))
    .sort((a, b) => a - b)
    .map((id) => state.userById(id))
    .filter((u): u is UserRecord => u !== undefined);
}

export function isPublicMember(state: SandboxState, org: OrgRecord, userId: number): boolean {
  return isOrgMember(state, org, userId) && state.data.publicMembers.some((p) => p.orgId === org.id && p.userId === userId);
}

/** `ChangeOrgUserStatus`: sets the flag of a member's row; a user without one is left as is (no error). */
export function setPublic(state: SandboxState, org: OrgRecord, userId: number, value: boolean): void {
  if (!isOrgMember(state, org, userId)) return;
  state.data.publicMembers = state.data.publicMembers.filter((p) => !(p.orgId === org.id && p.userId === userId));
  if (value) state.data.publicMembers.push({ orgId: org.id, userId });
}
