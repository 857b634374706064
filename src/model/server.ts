/**
 * Which server a plan is made for: the fork and its release. Both forks share the API's shape but
 * not its fields, routes and quirks (Gitea 1.21–1.26, Forgejo 7 onwards), so what forgeform may send
 * and how it reads an answer depend on it. Kinds hold, beside their fields, the releases that have
 * each one (Availability, src/releases/availability.ts: the type the sandbox's tables use too); this
 * module only knows how to compare them.
 */
import type { Availability, Release } from '../releases/availability.js';

export type { Availability, Release, Span } from '../releases/availability.js';

/**
 * The organisation that is apply's lock on a server (src/lock/lock.ts): it is no object of the
 * configuration, so no kind reads it, plans it or prunes it.
 */
export const LOCK_ORG = 'forgeform-lock';

/**
 * A name an organisation can have, as the lock's (policy.apply_lock): Gitea's user names
 * (models/user/user.go IsValidUsername, v1.25.4: alphanumerics, `-`, `_`, `.`, at most 40).
 */
export const LOCK_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,38}$';

/** The lock's name a policy says (policy.apply_lock, for a server where the default is another's object), else the default. */
export function lockNameOf(policy: { apply_lock?: string | undefined } | undefined): string {
  return policy?.apply_lock ?? LOCK_ORG;
}

/** Whether an organisation of this name is the lock (names compare as Gitea compares them: lower-cased). */
export function isLockName(name: string, lock: string): boolean {
  return name.toLowerCase() === lock.toLowerCase();
}

export type Flavour = 'gitea' | 'forgejo';
export const FLAVOURS: readonly Flavour[] = ['gitea', 'forgejo'];

export interface ServerInfo {
  flavour: Flavour;
  /** major.minor.patch of the release ("1.25.4", "11.0.2"); a development build counts as the release it leads to. */
  version: string;
  /** What the server itself said (GET /version), when it differs from `version` ("1.26.0+dev-12-gabc"). */
  reported?: string;
  /** Set by --server-version: not detected, so never compared with the server. */
  assumed?: boolean;
}

const NAMES: Record<Flavour, string> = { gitea: 'Gitea', forgejo: 'Forgejo' };

/** The oldest releases forgeform knows the API of; older ones are treated as these, with a warning. */
export const OLDEST_KNOWN: Record<Flavour, string> = { gitea: '1.21', forgejo: '7' };

/** [major, minor, patch] of "1.25.4", "v11.0", "15"; undefined when it is not a version. */
export function parseVersion(text: string): [number, number, number] | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?=$|[-+])/.exec(text.trim());
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
}

/**
 * Compares a release with a bound as precisely as the bound is written: "1.23" compares major and
 * minor, "11" the major only, so that `until: "1.25"` includes 1.25.9. "main" (Gitea's development
 * branch) comes after every release.
 */
function compareWithBound(version: [number, number, number], release: Release): number {
  const bound = String(release);
  if (bound === 'main') return -1;
  const b = parseVersion(bound);
  if (!b) throw new Error(`not a release: ${bound}`);
  const parts = bound.replace(/^v/, '').split('.').length;
  for (let i = 0; i < parts; i++) if (version[i] !== b[i]) return (version[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

/** Whether the server has what the availability describes. No server known (offline validate): everything is available. */
export function serverHas(server: ServerInfo | undefined, a: Availability | undefined): boolean {
  if (!server || !a) return true;
  const span = a[server.flavour];
  if (!span) return false;
  const v = parseVersion(server.version);
  if (!v) return true;
  if (span.since !== undefined && compareWithBound(v, span.since) < 0) return false;
  if (span.until !== undefined && compareWithBound(v, span.until) > 0) return false;
  return true;
}

/** "Gitea 1.25.4", "Forgejo 11.0.2". */
export function describeServer(server: ServerInfo): string {
  return `${NAMES[server.flavour]} ${server.version}`;
}

/** "Gitea ≥ 1.23", "Forgejo", "Gitea ≥ 1.22 or Forgejo", "Gitea 1.21–1.25": who has it, for messages. */
export function describeAvailability(a: Availability): string {
  const parts: string[] = [];
  for (const flavour of FLAVOURS) {
    const span = a[flavour];
    if (!span) continue;
    const { since, until } = span;
    const range = since && until ? ` ${since}–${until}` : since ? ` ≥ ${since}` : until ? ` ≤ ${until}` : '';
    parts.push(`${NAMES[flavour]}${range}`);
  }
  return parts.length ? parts.join(' or ') : 'no server';
}

/** "gitea@1.25", "forgejo@11.0.2" (--server-version); a message when it is not one. */
export function parseServerSpec(text: string): ServerInfo | string {
  const [, name = '', version = ''] = /^(gitea|forgejo)@(.+)$/i.exec(text.trim()) ?? [];
  const flavour = FLAVOURS.find((f) => f === name.toLowerCase());
  const v = parseVersion(version);
  if (!flavour || !v) return `"${text}" is not FLAVOUR@VERSION: write gitea@1.25 or forgejo@11.0.2`;
  return { flavour, version: v.join('.'), assumed: true };
}

/**
 * The server from what it reports (src/gitea/preflight.ts): Forgejo when its own version route
 * answers; when a proxy hides that route (neither 200 nor 404) the number still tells, as Gitea is
 * still 1.x and Forgejo's majors start at 7. Undefined when the version is not a release number.
 */
export function serverFromReports(report: { version: string; forgejo: { version?: string; absent?: boolean } }): ServerInfo | undefined {
  const { version, forgejo } = report;
  const flavour = forgejo.version !== undefined || (!forgejo.absent && (parseVersion(version)?.[0] ?? 0) >= 7) ? 'forgejo' : 'gitea';
  return serverFromReport(flavour, forgejo.version ?? version);
}

/**
 * The server from what it reports. Gitea: GET /version ("1.25.4", a development build
 * "1.26.0+dev-12-gabc" = the 1.26 to come). Forgejo: GET /api/forgejo/v1/version, whose "+gitea-1.22.0"
 * suffix (also in its /version) is frozen and unlocks no Gitea feature. Undefined when not a version.
 */
export function serverFromReport(flavour: Flavour, reported: string): ServerInfo | undefined {
  const v = parseVersion(reported);
  if (!v) return undefined;
  const version = v.join('.');
  return { flavour, version, ...(reported !== version ? { reported } : {}) };
}

/** Whether two plans were made for the same release (a saved plan is applied only to the server it was made for). */
export function sameServer(a: ServerInfo, b: ServerInfo): boolean {
  return a.flavour === b.flavour && a.version === b.version;
}

/** The release is older than any forgeform knows: a warning, as fields may be missing that it does not check. */
export function olderThanKnown(server: ServerInfo): boolean {
  const v = parseVersion(server.version);
  return !!v && compareWithBound(v, OLDEST_KNOWN[server.flavour]) < 0;
}
