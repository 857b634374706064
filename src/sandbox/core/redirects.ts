/**
 * User-name redirects left by renames (`user_redirect`): part of the name space that users and
 * organisations share, so generic lookups (`userAssignment`) follow them too.
 */
import type { SandboxState, UserRecord } from './state.js';

const lower = (s: string): string => s.toLowerCase();

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
