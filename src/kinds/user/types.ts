// The types the user kind is defined with (defineKind), apart from its modules so that each imports them without a cycle.
import type { Config } from '../../config/types.js';
import type { Change, CurrentObject, CurrentOf, DesiredOf, KindTypes } from '../../model/index.js';

/** What a user carries beside its fields: its keys in full (the field ssh_keys holds their identities only). */
export interface UserMeta {
  /** As read: with their ids and titles (export and the keys' DELETEs need them). */
  sshKeys?: KnownKey[];
}
/** What the config says of a user beside its fields: the declared keys (title and full key). */
export interface DeclaredUserMeta {
  sshKeys?: KnownKey[];
}

export interface KnownKey {
  id?: number;
  title: string;
  key: string;
  identity: string;
}

/** What prepare learnt for the guards: the token's own user ('' where it cannot matter, see selfMatters) and every user. */
export interface UserFacts {
  self: string;
  users: CurrentObject[];
  /** The users by lower-case name, made when first asked (a new user's name checked against every other). */
  byLowerName?: Map<string, CurrentObject>;
  /** The users by lower-case primary e-mail, in the order read, made when first asked (a new user's address checked against every other). */
  byLowerEmail?: Map<string, CurrentObject[]>;
  /** The badge slugs the plan knows the server has (badges.ts), made when first asked. */
  badges?: ReadonlySet<string>;
  /** At plan time, the users the plan would prune that Gitea will not delete, by lower-case name, with why (owned.ts). */
  undeletable?: Map<string, string>;
}

/** What the user kind keeps for one run: the facts prepare looked up, and who survives as the config declares users (asked per user). */
export interface UserRun {
  facts?: UserFacts;
  survivors?: (u: CurrentObject) => boolean;
  /** The declared users by lower-case e-mail (the first to declare each) and each one's place, for the duplicate check. */
  emails?: { of: object; first: Map<string, string>; place: Map<string, number> };
  /** Who survives as the changes being judged leave the users (guard is asked per change), with the changes it was derived from. */
  judged?: { plan: readonly Change[]; length: number; survivors: (u: CurrentObject) => boolean };
}

/** A user as the server answers it (its shape checked): the fields by their names, `is_admin` for admin. */
export type ServerUser = Record<string, unknown> & { login?: string; username?: string; id?: number; is_admin?: boolean | null };

/** What the user kind is typed by: the whole config (users are server-wide), a user as answered, the facts its guards judge with, its state per run. */
export type UserTypes = KindTypes<Config, ServerUser, UserFacts, UserRun, UserMeta, DeclaredUserMeta>;
/** A user as read, its meta typed. */
export type UserObject = CurrentOf<UserTypes>;
/** A user as declared, its meta typed. */
export type DeclaredUser = DesiredOf<UserTypes>;
