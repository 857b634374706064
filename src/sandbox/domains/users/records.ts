/**
 * Records of the admin account endpoints (`routers/api/v1/admin/{user,user_badge}.go`): e-mail
 * addresses, SSH public keys, badges and login sources. Their tables are part of `StateData`, saved in
 * the state file (user-name redirects are the access model's: `core/redirects.ts`).
 */
import type { StateData } from '../../core/state.js';

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
  /** A deploy key's (`KeyTypeDeploy`, owner 0): shared by the repositories that have it (src/sandbox/domains/deploy-keys). */
  deploy?: boolean;
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

/** Login source types (`auth.Type`); `plain` is the local database. */
export type AuthSourceType = 'ldap' | 'dldap' | 'smtp' | 'pam' | 'oauth2' | 'sspi';

export interface AuthSourceRecord {
  id: number;
  name: string;
  type: AuthSourceType;
}

declare module '../../core/state.js' {
  /** The users domain's tables: part of the state, saved in the state file (the domain's `data`). */
  interface StateData {
    emails: EmailRecord[];
    publicKeys: PublicKeyRecord[];
    badges: BadgeRecord[];
    userBadges: UserBadgeRecord[];
    authSources: AuthSourceRecord[];
  }
}

export type AccountStateData = Pick<StateData, 'emails' | 'publicKeys' | 'badges' | 'userBadges' | 'authSources'>;

export function emptyAccountStateData(): AccountStateData {
  return { emails: [], publicKeys: [], badges: [], userBadges: [], authSources: [] };
}
