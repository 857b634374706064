/**
 * Push mirrors of repositories (`models/repo/pushmirror.go`) and the server's `[mirror]` settings
 * (`modules/setting/mirror.go`), saved in the state file (part of `StateData`). The sandbox clones and
 * pushes nothing: a mirror is its row. Credentials are never stored: Gitea keeps them in the git
 * remote's URL (`AddPushMirrorRemote`), not in the row, and no route answers them.
 */
import type { SandboxState, StateData } from '../../core/state.js';

export interface PushMirrorRecord {
  id: number;
  repoId: number;
  /** `remote_mirror_` + 10 random characters: the name the routes take. */
  remoteName: string;
  /** As `util.SanitizeURL` leaves it: no user name nor password. */
  remoteAddress: string;
  /** Nanoseconds, as a decimal string (an int64 does not fit in a double). */
  interval: string;
  syncOnCommit: boolean;
  /** Forgejo 15 only; '' elsewhere. */
  branchFilter: string;
  /** Whether a user name or password was given (they are not kept). */
  withCredentials: boolean;
  createdAt: string;
}

/** `[mirror]`: ENABLED, DISABLE_NEW_PULL, DISABLE_NEW_PUSH, MIN_INTERVAL (nanoseconds as a decimal string). */
export interface MirrorSettings {
  enabled: boolean;
  disableNewPull: boolean;
  disableNewPush: boolean;
  minInterval: string;
}

/** The pull mirror of a repository created by `POST /repos/migrate` with `mirror: true` (`models/repo/mirror.go` Mirror). */
export interface PullMirrorRecord {
  repoId: number;
  /** Nanoseconds, as a decimal string. */
  interval: string;
  /** Without credentials. */
  remoteAddress: string;
  enablePrune: boolean;
}

/** `[repository] DISABLE_MIGRATIONS` and `[migrations] ALLOWED_DOMAINS`, `BLOCKED_DOMAINS`, `ALLOW_LOCALNETWORKS`. */
export interface MigrationSettings {
  disabled: boolean;
  allowedDomains: string[];
  blockedDomains: string[];
  allowLocalNetworks: boolean;
}

declare module '../../core/state.js' {
  /** The mirrors domain's tables: part of the state, saved in the state file (the domain's `data`). */
  interface StateData {
    pushMirrors: PushMirrorRecord[];
    pullMirrors: PullMirrorRecord[];
    /** Absent: the defaults (a state without the seed's `mirror:`). */
    mirrorSettings?: MirrorSettings;
    /** Absent: the defaults (a state without the seed's `migrations:`). */
    migrationSettings?: MigrationSettings;
  }
  /** A migrated repository's source (`repository.original_url`), as given (credentials included: answered sanitized). */
  interface RepoRecord {
    originalUrl?: string;
  }
}

export type MirrorsData = Pick<StateData, 'pushMirrors' | 'pullMirrors'>;

export const DEFAULT_MIGRATION_SETTINGS: MigrationSettings = { disabled: false, allowedDomains: [], blockedDomains: [], allowLocalNetworks: false };

/** The defaults of modules/setting/mirror.go: enabled, MIN_INTERVAL 10m. */
export const DEFAULT_MIRROR_SETTINGS: MirrorSettings = { enabled: true, disableNewPull: false, disableNewPush: false, minInterval: String(10n * 60_000_000_000n) };

export function emptyMirrorsData(): MirrorsData {
  return { pushMirrors: [], pullMirrors: [] };
}

/** A repository's push mirrors in id order (the database's order without a sort). */
export function pushMirrorsOf(state: SandboxState, repoId: number): PushMirrorRecord[] {
  return state.data.pushMirrors.filter((m) => m.repoId === repoId).sort((a, b) => a.id - b.id);
}

export function pullMirrorOf(state: SandboxState, repoId: number): PullMirrorRecord | undefined {
  return state.data.pullMirrors.find((m) => m.repoId === repoId);
}

/** The server's `[mirror]` settings: the seed's, else the defaults. */
export function mirrorSettings(state: SandboxState): MirrorSettings {
  return state.data.mirrorSettings ?? DEFAULT_MIRROR_SETTINGS;
}

/** The server's migration settings: the seed's, else the defaults. */
export function migrationSettings(state: SandboxState): MigrationSettings {
  return state.data.migrationSettings ?? DEFAULT_MIGRATION_SETTINGS;
}
