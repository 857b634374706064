/**
 * Deleting a repository, an organisation or a user with everything that hangs off them (as
 * `services/repository`, `services/org` and `services/user/delete.go` do): the rows of the access
 * model here, every domain's own rows through its `cascade` hooks.
 */
import { domains } from './registry.js';
import { ORGS, REPOS, TOKENS, USERS, type OrgRecord, type SandboxState, type UserRecord } from './state.js';

/** Deletes a repository and what belongs to it. */
export function deleteRepository(state: SandboxState, repoId: number): void {
  state.indexes.of(REPOS).removeWhere((r) => r.id === repoId);
  for (const d of domains()) d.cascade?.repo?.(state, repoId);
}

/** Deletes an organisation with its repositories and what the domains keep for it (teams …) (`DeleteOrganization(purge)`). */
export function deleteOrganization(state: SandboxState, org: OrgRecord): void {
  for (const repo of state.reposOfOwner(org.id)) deleteRepository(state, repo.id);
  for (const d of domains()) d.cascade?.org?.(state, org.id);
  // An organisation leaves the redirects of its old names behind too.
  dropRedirects(state, org.id);
  state.indexes.of(ORGS).removeWhere((o) => o.id === org.id);
}

/** `deleteUser`: the user row and everything keyed on it; issues they wrote stay. */
export function deleteUserRecord(state: SandboxState, user: UserRecord): void {
  const id = user.id;
  state.indexes.of(USERS).removeWhere((u) => u.id === id);
  state.indexes.of(TOKENS).removeWhere((t) => t.userId === id);
  for (const repo of state.data.repos) repo.collaborators = repo.collaborators.filter((c) => c.userId !== id);
  for (const org of state.data.orgs) org.memberIds = org.memberIds.filter((m) => m !== id);
  for (const d of domains()) d.cascade?.user?.(state, id);
  dropRedirects(state, id);
}

function dropRedirects(state: SandboxState, userId: number): void {
  state.data.userRedirects = state.data.userRedirects.filter((r) => r.userId !== userId);
}

/** `purge=true`: the domains delete what the user owns outside repositories and organisations. */
export function purgeUserRows(state: SandboxState, userId: number): void {
  for (const d of domains()) d.cascade?.purgeUser?.(state, userId);
}

/** The first domain's reason why the user cannot be deleted yet, if any. */
export function userDeleteBlocker(state: SandboxState, userId: number): string | undefined {
  for (const d of domains()) {
    const reason = d.cascade?.blocksUserDelete?.(state, userId);
    if (reason) return reason;
  }
  return undefined;
}
