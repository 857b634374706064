/**
 * Account bookkeeping shared by the admin routes and the seed loader: the `email_address` rows,
 * user-name redirects left by renames, and login sources.
 */
import type { AuthSourceRecord, EmailRecord } from './records.js';
import { USERS, type SandboxState, type UserRecord } from '../../core/state.js';
import { defineIndex } from '../../core/table-index.js';

const lower = (s: string): string => s.toLowerCase();

/** Address rows by user and by address (lower case): seeding 5,000 users looked each new address up in every row. */
export const EMAILS = defineIndex<EmailRecord>()({ table: 'emails', groups: { user: (e) => e.userId, email: (e) => lower(e.email) } });

// ---- e-mail addresses -----------------------------------------------------------------------------

/**
 * The `email_address` rows of a user, primary first. State files written before e-mails were
 * modelled have no rows: the primary address is then derived from the user record.
 */
export function emailRowsOf(state: SandboxState, user: UserRecord): EmailRecord[] {
  const rows = state.indexes.of(EMAILS).list('user', user.id);
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
  const emails = state.indexes.of(EMAILS);
  // The rows with this address, and the derived primary of a row-less user whose address it is.
  const candidates = emails.list('email', e).filter((r) => state.userById(r.userId));
  const owner = state.indexes.of(USERS).get('email', e);
  if (owner && !emails.list('user', owner.id).some((r) => r.isPrimary)) candidates.push(emailRowsOf(state, owner)[0]!);
  // allEmailRows order: users in table order (id order), each user's rows primary first, then by id.
  return candidates.sort((a, b) => a.userId - b.userId || Number(b.isPrimary) - Number(a.isPrimary) || a.id - b.id)[0];
}

export function addEmailRow(state: SandboxState, userId: number, email: string, isPrimary: boolean, isActivated: boolean): EmailRecord {
  const row: EmailRecord = { id: state.nextId('emailAddress'), userId, email, isActivated, isPrimary };
  state.data.emails.push(row);
  return row;
}

/** Replaces the primary row (the old primary address is deleted, as `ReplacePrimaryEmailAddress` does). */
export function replacePrimaryEmailRow(state: SandboxState, user: UserRecord, email: string): void {
  state.indexes.of(EMAILS).removeWhere((e) => e.userId === user.id && e.isPrimary);
  addEmailRow(state, user.id, email, true, true);
  state.indexes.of(USERS).change(user, () => (user.email = email));
}

/**
 * `AdminAddOrSetPrimaryEmailAddress` (Gitea 1.22–1.24, every Forgejo; Gitea 1.21's `UpdateUser` alike):
 * the old primary address stays as a secondary one; an address the user already has is promoted
 * (and activated), any other is inserted. Gitea v1.24.7 `services/user/email.go` l.36–63.
 */
export function setPrimaryEmailKeepingOld(state: SandboxState, user: UserRecord, email: string): void {
  const rows = emailRowsOf(state, user);
  const old = rows.find((e) => e.isPrimary)!;
  // A derived primary (a state file without rows) becomes a real row before it is demoted.
  if (old.id === 0) addEmailRow(state, user.id, old.email, false, old.isActivated);
  else old.isPrimary = false;
  const own = rows.find((e) => e.id !== 0 && !e.isPrimary && e !== old && lower(e.email) === lower(email));
  if (own) Object.assign(own, { isPrimary: true, isActivated: true });
  else addEmailRow(state, user.id, email, true, true);
  state.indexes.of(USERS).change(user, () => (user.email = email));
}

/** `DeleteEmailAddresses` (Forgejo 15 `services/user/email.go` l.183–206): unknown addresses skipped, a primary one refused. */
export function deleteSecondaryEmails(state: SandboxState, user: UserRecord, emails: string[]): string | undefined {
  const rows = emailRowsOf(state, user);
  const gone: EmailRecord[] = [];
  for (const email of emails) {
    const row = rows.find((e) => lower(e.email) === lower(email));
    if (!row) continue;
    if (row.isPrimary) return `Primary email address cannot be deleted [email: ${email}]`;
    gone.push(row);
  }
  // One transaction: nothing is deleted when one address is refused.
  state.indexes.of(EMAILS).removeWhere((e) => gone.includes(e));
  return undefined;
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
