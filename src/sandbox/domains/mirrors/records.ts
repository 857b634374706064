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

/** Loopback, private and link-local address literals, and localhost: what ALLOW_LOCALNETWORKS = false refuses (the sandbox resolves no name). */
function isLocalHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || /^127\./.test(h) || /^10\./.test(h) || /^192\.168\./.test(h) || /^172\.(1[6-9]|2\d|3[01])\./.test(h) || /^169\.254\./.test(h) || h === '::1' || /^f[cd]/.test(h) || /^fe80:/.test(h);
}

/** A glob of ALLOWED_DOMAINS / BLOCKED_DOMAINS (hostmatcher): `*` within a name. */
const matches = (pattern: string, host: string): boolean => new RegExp(`^${pattern.toLowerCase().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(host.toLowerCase());

/**
 * `checkByAllowBlockList` (services/migrations/migrate.go, Gitea v1.21.11 l.89–108, built by `Init`
 * l.488–503: ALLOWED_DOMAINS, else every external address; ALLOW_LOCALNETWORKS adds private and
 * loopback ones): whether a host is refused. Pull mirrors (migrate) and push-mirror targets
 * (`CreatePushMirror` → `IsMigrateURLAllowed`, Forgejo 11+ `IsPushMirrorURLAllowed`) alike.
 */
export function hostRefused(state: SandboxState, host: string): boolean {
  const s = migrationSettings(state);
  const blocked = s.blockedDomains.some((d) => matches(d, host));
  const allowed = s.allowedDomains.length === 0 || s.allowedDomains.some((d) => matches(d, host));
  return blocked || !allowed || (!s.allowLocalNetworks && isLocalHost(host));
}

