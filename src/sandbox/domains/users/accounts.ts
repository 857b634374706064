/**
 * Account bookkeeping shared by the admin routes and the seed loader: the `email_address` rows,
 * user-name redirects left by renames, and login sources.
 */
import type { AuthSourceRecord, EmailRecord } from './records.js';
import type { SandboxState, UserRecord } from '../../core/state.js';

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

// ---- login sources --------------------------------------------------------------------------------

export function authSourceById(state: SandboxState, id: number): AuthSourceRecord | undefined {
  return state.data.authSources.find((s) => s.id === id);
}

/** `u.IsLocal() || u.IsOAuth2()`: whose password the API may set. */
export function passwordIsManaged(state: SandboxState, user: UserRecord): boolean {
  if (!user.sourceId) return true;
  return authSourceById(state, user.sourceId)?.type === 'oauth2';
}
