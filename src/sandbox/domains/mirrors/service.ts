/**
 * What the push mirror routes share with the seed loader: the checks of `CreatePushMirror`
 * (routers/api/v1/repo/mirror.go) and the row it inserts.
 */
import { randomInt } from 'node:crypto';
import { nowIso, type RepoRecord, type SandboxState } from '../../core/state.js';
import type { Flavour } from '../../flavours/flavour.js';
import { hasQuirk } from '../../flavours/releases.js';
import { parseGoDuration } from '../../../go-duration.js';
import { hostRefused, mirrorSettings, type PushMirrorRecord } from './records.js';

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** `util.CryptoRandomString(10)`. */
function randomSuffix(): string {
  let s = '';
  for (let i = 0; i < 10; i++) s += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return s;
}

export interface PushMirrorInput {
  remote_address?: string;
  remote_username?: string;
  remote_password?: string;
  interval?: string;
  sync_on_commit?: boolean;
  use_ssh?: boolean;
  branch_filter?: string;
}

/** A refusal: the status and message the handler answers. */
export interface Refusal {
  status: number;
  message: string;
}

const HTTP_LIKE = /^(https?|git):\/\//;

/**
 * `forms.ParseRemoteAddr` then `migrations.IsMigrateURLAllowed` (Forgejo 11+: `IsPushMirrorURLAllowed`):
 * http(s) and git URLs are parsed (Forgejo 11.0.4+ refuses credentials in them), schemes other than http,
 * https and git are refused (Forgejo 9+ takes ssh too), then the host by the allow and block lists and
 * ALLOW_LOCALNETWORKS as a migration's (`checkByAllowBlockList`: `IsPermissionDenied`, which
 * `HandleRemoteAddressError` answers 401 "Permission denied", v1.21.11 routers/api/v1/repo/mirror.go
 * l.341–348, 400–401). No DNS: a host is judged by its name or address literal.
 */
function addressRefusal(state: SandboxState, flavour: Flavour, address: string): Refusal | undefined {
  const trimmed = address.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    // A local path: only site admins may import local paths, and the sandbox has no file system to offer.
    return { status: 401, message: 'Permission denied' };
  }
  if (HTTP_LIKE.test(trimmed) && (url.username || url.password) && hasQuirk(flavour, 'remoteUrlCredentialsRefused')) return { status: 400, message: 'The URL contains credentials' };
  const schemes = hasQuirk(flavour, 'pushMirrorSsh') ? ['http:', 'https:', 'git:', 'ssh:'] : ['http:', 'https:', 'git:'];
  if (!schemes.includes(url.protocol)) return { status: 400, message: 'Invalid mirror protocol' };
  if (hostRefused(state, url.hostname)) return { status: 401, message: 'Permission denied' };
  return undefined;
}

/**
 * `util.SanitizeURL` (modules/util/url.go l.43–50 in every release read): Go's url.Parse, `u.User = nil`,
 * `u.String()`. The user info is what precedes the last "@" of the authority (after `scheme://`, up to the
 * first "/", "?" or "#"); the rest is kept as written, the host's case and port included (WHATWG's URL
 * would lower-case the host, drop a default port and add a "/").
 */
export function sanitizeUrl(address: string): string {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*:)?\/\/([^/?#]*)/.exec(address);
  const at = m?.[2]?.lastIndexOf('@') ?? -1;
  if (!m || at < 0) return address;
  const authorityStart = m[0].length - (m[2] ?? '').length;
  return address.slice(0, authorityStart) + address.slice(authorityStart + at + 1);
}

/** Whether Go's url.Parse refuses the address for a control character ("net/url: invalid control character in URL"). */
export function goUrlRefuses(address: string): boolean {
  // eslint-disable-next-line no-control-regex -- the characters Go's stringContainsCTLByte looks for
  return /[\u0000-\u001f\u007f]/.test(address);
}

/** `CreatePushMirror`'s checks, in its order; the interval against `[mirror] MIN_INTERVAL` (0: no periodic sync). */
export function pushMirrorRefusal(state: SandboxState, flavour: Flavour, form: PushMirrorInput): Refusal | undefined {
  const interval = parseGoDuration(form.interval ?? '');
  const min = BigInt(mirrorSettings(state).minInterval);
  if (interval === undefined) return { status: 400, message: `time: invalid duration ${JSON.stringify(form.interval ?? '')}` };
  if (interval !== 0n && interval < min) return { status: 400, message: '' };
  if (form.use_ssh && (form.remote_username || form.remote_password)) return { status: 400, message: "'use_ssh' is mutually exclusive with 'remote_username' and 'remote_password'" };
  return addressRefusal(state, flavour, form.remote_address ?? '');
}

export function createPushMirror(state: SandboxState, repo: RepoRecord, form: PushMirrorInput): PushMirrorRecord {
  const record: PushMirrorRecord = {
    id: state.nextId('push_mirror'),
    repoId: repo.id,
    remoteName: `remote_mirror_${randomSuffix()}`,
    remoteAddress: sanitizeUrl((form.remote_address ?? '').trim()),
    interval: String(parseGoDuration(form.interval ?? '') ?? 0n),
    syncOnCommit: form.sync_on_commit ?? false,
    branchFilter: form.branch_filter ?? '',
    withCredentials: Boolean(form.remote_username || form.remote_password),
    createdAt: nowIso(),
  };
  state.data.pushMirrors.push(record);
  return record;
}
