/**
 * Account bookkeeping shared by the admin routes and the seed loader: the `email_address` rows,
 * user-name redirects left by renames, login sources, and the deletions of users, organisations
 * and repositories with everything that hangs off them (as `services/user/delete.go`,
 * `services/org` and `services/repository` do).
 */
import { isOrgMember, isOrgOwner } from '../../core/permissions.js';
import type { AuthSourceRecord, EmailRecord } from './records.js';
import type { OrgRecord, SandboxState, UserRecord } from '../../core/state.js';

const lower = (s: string): string => s.toLowerCase();

// ---- e-mail addresses -----------------------------------------------------------------------------

/**
 * The `email_address` rows of a user, primary first. State files written before e-mails were
 * modelled have no rows: the primary address is then derived from the user record.
 */
export function emailRowsOf(state: SandboxState, user: UserRecord): EmailRecord[] {
  const rows = state.data.emails.filter((e) => e.userId === user.id);
  if (!rows.some((e) => e.isPrimary)) rows.unshift({ id: 0, userId: user.id, email: user.email, isActivated: user.isActive, isPrimary: true });
  return rows.sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary) || a.id - b.id);
}

/** Every address row, the derived primaries of row-less users included. */
export function allEmailRows(state: SandboxState): EmailRecord[] {
  return state.data.users.flatMap((u) => emailRowsOf(state, u));
}

/** `IsEmailUsed`: any user's address, primary or not (case-insensitive). */
export function findEmailRow(state: SandboxState, email: string): EmailRecord | undefined {
  const e = lower(email);
  return allEmailRows(state).find((r) => lower(r.email) === e);
}

export function addEmailRow(state: SandboxState, userId: number, email: string, isPrimary: boolean, isActivated: boolean): EmailRecord {
  const row: EmailRecord = { id: state.nextId('emailAddress'), userId, email, isActivated, isPrimary };
  state.data.emails.push(row);
  return row;
}

/** Replaces the primary row (the old primary address is deleted, as `ReplacePrimaryEmailAddress` does). */
export function replacePrimaryEmailRow(state: SandboxState, user: UserRecord, email: string): void {
  state.data.emails = state.data.emails.filter((e) => !(e.userId === user.id && e.isPrimary));
  addEmailRow(state, user.id, email, true, true);
  user.email = email;
}

// ---- user-name redirects --------------------------------------------------------------------------

/** `LookupUserRedirect`: the user an old name now leads to. */
export function lookupUserRedirect(state: SandboxState, name: string): UserRecord | undefined {
  const n = lower(name);
  const r = state.data.userRedirects.find((x) => x.lowerName === n);
  return r ? state.userById(r.userId) : undefined;
}

/** `DeleteUserRedirect`: a new user or organisation with this name drops the redirect. */
export function deleteUserRedirect(state: SandboxState, name: string): void {
  const n = lower(name);
  state.data.userRedirects = state.data.userRedirects.filter((x) => x.lowerName !== n);
}

/** `NewUserRedirect`: drops a redirect from the new name, adds old → user. */
export function newUserRedirect(state: SandboxState, userId: number, oldName: string, newName: string): void {
  deleteUserRedirect(state, newName);
  deleteUserRedirect(state, oldName);
  state.data.userRedirects.push({ lowerName: lower(oldName), userId });
}

// ---- login sources --------------------------------------------------------------------------------

export function authSourceById(state: SandboxState, id: number): AuthSourceRecord | undefined {
  return state.data.authSources.find((s) => s.id === id);
}

/** `u.IsLocal() || u.IsOAuth2()`: whose password the API may set. */
export function passwordIsManaged(state: SandboxState, user: UserRecord): boolean {
  if (!user.sourceId) return true;
  return authSourceById(state, user.sourceId)?.type === 'oauth2';
}

// ---- deletions ------------------------------------------------------------------------------------

type AnyRecords = Record<string, unknown>[];

/** Drops the rows of an optional state array (arrays added by other modules may be missing in old state files). */
function dropWhere(state: SandboxState, key: string, pred: (row: Record<string, unknown>) => boolean): void {
  const data = state.data as unknown as Record<string, unknown>;
  const rows = data[key];
  if (Array.isArray(rows)) data[key] = (rows as AnyRecords).filter((r) => !pred(r));
}

/** Deletes a repository and what belongs to it. */
export function deleteRepository(state: SandboxState, repoId: number): void {
  state.data.repos = state.data.repos.filter((r) => r.id !== repoId);
  const issueIds = new Set(state.data.issues.filter((i) => i.repoId === repoId).map((i) => i.id));
  for (const key of ['labels', 'milestones', 'issues', 'branchProtections', 'projects', 'runners', 'runnerTokens', 'actionRuns', 'actionJobs', 'notifications']) {
    dropWhere(state, key, (r) => r.repoId === repoId);
  }
  dropWhere(state, 'notifications', (r) => issueIds.has(r.issueId as number));
  for (const t of state.data.teams) if (t.repoIds.includes(repoId)) t.repoIds = t.repoIds.filter((x) => x !== repoId);
  const data = state.data as unknown as Record<string, unknown>;
  if (Array.isArray(data.packages)) for (const p of data.packages as { repoId: number }[]) if (p.repoId === repoId) p.repoId = 0;
}

/** Deletes an organisation with its repositories, teams, labels and packages (`DeleteOrganization(purge)`). */
export function deleteOrganization(state: SandboxState, org: OrgRecord): void {
  for (const repo of state.reposOfOwner(org.id)) deleteRepository(state, repo.id);
  state.data.teams = state.data.teams.filter((t) => t.orgId !== org.id);
  dropWhere(state, 'labels', (r) => r.orgId === org.id && r.repoId === 0);
  for (const key of ['projects', 'runners', 'runnerTokens', 'packages']) dropWhere(state, key, (r) => r.ownerId === org.id);
  state.data.orgs = state.data.orgs.filter((o) => o.id !== org.id);
  state.data.userRedirects = state.data.userRedirects.filter((r) => r.userId !== org.id);
}

/** `RemoveOrgUser`: false when the user is the last member of the Owners team (`ErrLastOrgOwner`). */
export function removeOrgMember(state: SandboxState, org: OrgRecord, userId: number): boolean {
  if (isOrgOwner(state, org, userId)) {
    const owners = state.teamsOfOrg(org.id).find((t) => t.permission === 'owner');
    if (owners && owners.memberIds.length === 1 && owners.memberIds[0] === userId) return false;
  }
  org.memberIds = org.memberIds.filter((id) => id !== userId);
  for (const t of state.teamsOfOrg(org.id)) t.memberIds = t.memberIds.filter((id) => id !== userId);
  return true;
}

/** Organisations the user belongs to (`org_user`), by id. */
export function orgsOfMember(state: SandboxState, userId: number): OrgRecord[] {
  return state.data.orgs.filter((o) => isOrgMember(state, o, userId)).sort((a, b) => a.id - b.id);
}

/** `deleteUser`: the user row and everything keyed on it; issues they wrote stay. */
export function deleteUserRecord(state: SandboxState, user: UserRecord): void {
  const id = user.id;
  state.data.users = state.data.users.filter((u) => u.id !== id);
  state.data.tokens = state.data.tokens.filter((t) => t.userId !== id);
  state.data.emails = state.data.emails.filter((e) => e.userId !== id);
  state.data.publicKeys = state.data.publicKeys.filter((k) => k.ownerId !== id);
  state.data.userBadges = state.data.userBadges.filter((b) => b.userId !== id);
  state.data.userRedirects = state.data.userRedirects.filter((r) => r.userId !== id);
  for (const repo of state.data.repos) repo.collaborators = repo.collaborators.filter((c) => c.userId !== id);
  for (const org of state.data.orgs) org.memberIds = org.memberIds.filter((m) => m !== id);
  for (const team of state.data.teams) team.memberIds = team.memberIds.filter((m) => m !== id);
  for (const issue of state.data.issues) issue.assigneeIds = issue.assigneeIds.filter((a) => a !== id);
  dropWhere(state, 'notifications', (r) => r.userId === id);
  for (const key of ['projects', 'runners', 'runnerTokens']) dropWhere(state, key, (r) => r.ownerId === id);
}
