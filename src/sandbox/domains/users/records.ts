/**
 * Records of the admin account endpoints (behavior.md §7 and §8): e-mail addresses, SSH public
 * keys, badges, user-name redirects left by renames, login sources and the admin (system and
 * default) webhooks. `StateData` (state.ts) extends {@link AccountStateData}, so they are saved in
 * the state file with everything else.
 */

/** A row of Gitea's `email_address` table; the primary address mirrors `UserRecord.email`. */
export interface EmailRecord {
  id: number;
  userId: number;
  email: string;
  isActivated: boolean;
  isPrimary: boolean;
}

/** A user's SSH key (`asymkey_model.PublicKey`, type user). */
export interface PublicKeyRecord {
  id: number;
  ownerId: number;
  /** The key title (`Name`), unique per owner. */
  name: string;
  /** Normalised line: `<type> <base64>[ <comment>]`. */
  content: string;
  /** `SHA256:<base64 without padding>`, unique over all keys. */
  fingerprint: string;
  createdAt: string;
  updatedAt: string;
}

/** A badge definition (created in the web admin only: seeded here). */
export interface BadgeRecord {
  id: number;
  slug: string;
  description: string;
  imageUrl: string;
}

export interface UserBadgeRecord {
  id: number;
  userId: number;
  badgeId: number;
}

/** `user_redirect`: an old (lower-cased) user name that now leads to a user id. */
export interface UserRedirectRecord {
  lowerName: string;
  userId: number;
}

/** Login source types (`auth.Type`); `plain` is the local database. */
export type AuthSourceType = 'ldap' | 'dldap' | 'smtp' | 'pam' | 'oauth2' | 'sspi';

export interface AuthSourceRecord {
  id: number;
  name: string;
  type: AuthSourceType;
}

/** Hook events as the `HookEvents` map stores them (event name → chosen). */
export type HookEventMap = Record<string, boolean>;

/** An admin webhook: no repository, no owner; system (every repository) or default (copied into new ones). */
export interface AdminHookRecord {
  id: number;
  type: string;
  /** Since v1.26 (trimmed, ≤ 255). */
  name: string;
  url: string;
  contentType: 'json' | 'form';
  /** Stored, never returned. */
  secret: string;
  /** Stored, read back as `""` (newest behaviour). */
  authorizationHeader: string;
  isSystem: boolean;
  active: boolean;
  branchFilter: string;
  /** API-created hooks always "choose events"; seeded or UI hooks may be push-only or send everything. */
  pushOnly: boolean;
  sendEverything: boolean;
  events: HookEventMap;
  /** Slack settings (`SlackMeta`), null for other types. */
  slack: { channel: string; username: string; iconUrl: string; color: string } | null;
  createdAt: string;
  updatedAt: string;
}

export interface AccountStateData {
  emails: EmailRecord[];
  publicKeys: PublicKeyRecord[];
  badges: BadgeRecord[];
  userBadges: UserBadgeRecord[];
  userRedirects: UserRedirectRecord[];
  authSources: AuthSourceRecord[];
  adminHooks: AdminHookRecord[];
}

export function emptyAccountStateData(): AccountStateData {
  return { emails: [], publicKeys: [], badges: [], userBadges: [], userRedirects: [], authSources: [], adminHooks: [] };
}
