/**
 * One apply at a time on a server (issue 18 §1). Gitea keeps label and webhook names apart from
 * nothing, so two applies that both find a label missing both create it. Before its first read,
 * apply takes a lock on the server itself — whatever the CI does — and gives it back at the end.
 *
 * The lock is an organisation named LOCK_ORG, created with POST /orgs. That create is the one the
 * server refuses when the name exists, atomically in the database, on every supported release:
 * `org.Create` answers 422 for `IsErrUserAlreadyExist` (routers/api/v1/org/org.go: Gitea
 * v1.21.11:271-276, v1.25.4:267-272, 1.26 (main 423cdd4d94):269-274; Forgejo v7.0.16:269-274,
 * v11.0.15:274-279, v15.0.3:274-279), after `organization.CreateOrganization` checks the name
 * (models/organization/org.go: v1.21.11:284-288, v1.25.4:293-297, v15.0.3:290-294); two creates
 * that both pass that check meet the UNIQUE index on user.lower_name (models/user/user.go
 * v1.21.11:72, v1.25.4:82, v15.0.3:86) inside the insert's transaction, and the second fails (500).
 * An organisation is visible to administrators (site administration → organisations), private (no
 * one else sees it), owns nothing, and is harmless to delete (DELETE /orgs/{org}, 204). Labels and
 * hooks have no unique name; a user's token name is unique only per user and needs basic auth.
 *
 * Who holds it, and since when, is in its description (host, process, user, start time, the CI run,
 * the boot and PID namespace of its machine), renewed every minute: a lock not renewed for `staleMs`
 * belongs to a run that died, and is taken over with a warning; a holder whose process is provably
 * gone (same boot id and PID namespace as this process, no such pid) is too. `forgeform unlock ID`
 * removes any other.
 *
 * Trust (issue 28): the name is one any user may take (Gitea lets every user create organisations by
 * default, `[service] DEFAULT_ALLOW_CREATE_ORGANIZATION = true`), so a found lock is trusted only when
 * its organisation is owned by the token's user alone and holds no repository, and its description
 * parses strictly (ids `[0-9a-f-]`, plain host and user names, times not ahead of the server's clock).
 * Anything else is a foreign object: reported with its owners and what resolves it, never taken over
 * or removed. Every age is judged on the server's clock (the `Date` of its answers), never this
 * machine's, and the times recorded are the server's too.
 *
 * Its requests rest on no list the plan read: the server's unique name judges the create, a read of the
 * lock itself the renewal and the removal. They say so to the client (`restsOnNoList`): `PATCH` and
 * `DELETE orgs/forgeform-lock` are writes under the API's root, and would otherwise first read the page
 * after every list that ended on X-Total-Count's word (issue 21: 4 such reads in the large benchmark).
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { randomBytes } from 'node:crypto';
import { isApiError, type GiteaClient } from '../gitea/client.js';
import { apiPath } from '../gitea/path.js';
import { LOCK_NAME_PATTERN, LOCK_ORG } from '../model/index.js';
import { inert } from '../inert.js';

export { LOCK_ORG };

/** Who holds the lock, as its description records it. */
export interface Holder {
  /** Random, per run: tells this run's lock from another's (a lost answer to our own create). */
  id: string;
  user: string;
  host: string;
  pid: number;
  since: string;
  renewed: string;
  /** The machine's boot (/proc/sys/kernel/random/boot_id) and PID namespace (/proc/self/ns/pid's inode), where known. */
  boot?: string;
  pidns?: string;
  /** The CI run's number ($GITHUB_RUN_ID), when there is one; its address is kept on the lock's website, never printed. */
  run?: string;
}

export interface LockOptions {
  /** How long to wait for another apply's lock to go (0: fail at once). */
  timeoutMs: number;
  /** A lock not renewed for this long is stale (its run died): taken over. */
  staleMs: number;
  /** How often the lock is renewed while held. */
  renewMs?: number;
  /** How often a held lock is looked at again while waiting. */
  pollMs?: number;
  /** The lock's organisation (policy.apply_lock; default forgeform-lock). */
  name?: string;
  warn: (message: string) => void;
  /** The run's environment (GITHUB_ACTOR, GITHUB_RUN_ID…: who holds the lock); default the process's. */
  env?: NodeJS.ProcessEnv;
  /** Told once when apply starts to wait (so that a silent wait is never mistaken for a hang). */
  waiting?: (holder: Holder) => void;
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_STALE_MS = 10 * 60_000;
export const DEFAULT_RENEW_MS = 60_000;
const DEFAULT_POLL_MS = 2_000;
/** A recorded time may be this far ahead of the server's clock (the `Date` header counts whole seconds). */
const AHEAD_TOLERANCE_MS = 5_000;
const FULL_NAME = 'forgeform apply lock';

/** The lock could not be taken: another apply holds the server, or the name is another's object. */
export class LockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LockError';
  }
}

/** The lock's name: a Gitea user name (models/user/user.go IsValidUsername: alphanumerics, `-`, `_`, `.`). */
export function checkLockName(name: string): string | undefined {
  return new RegExp(LOCK_NAME_PATTERN).test(name) ? undefined : `policy.apply_lock "${inert(name)}" is not a name an organisation can have (letters, digits, "-", "_", "." and at most 39 characters)`;
}

/** The command that removes a lock left behind: with --lock-name when the lock is not the default's. */
export function unlockHint(id: string, name = LOCK_ORG): string {
  return `forgeform unlock ${name === LOCK_ORG ? '' : `--lock-name ${name} `}${id}`;
}

export function describeHolder(h: Holder, now = Date.now()): string {
  return `held by ${h.user} on host "${h.host}" (pid ${h.pid}) since ${h.since} (${ago(now - Date.parse(h.since))} ago, last renewed ${ago(now - Date.parse(h.renewed))} ago)${h.run ? `, CI run ${h.run}` : ''}; lock id ${h.id}`;
}

function ago(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '0 s';
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}

const PREFIX = 'Held by forgeform apply:';
/** Each field of the record and what its value may be: anything else makes the record not a lock's. */
const FIELDS: Readonly<Record<string, RegExp>> = {
  user: /^[A-Za-z0-9_.@+-]{1,40}$|^\?$/,
  host: /^[A-Za-z0-9_.-]{1,40}$|^\?$/,
  pid: /^\d{1,10}$/,
  since: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
  renewed: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
  id: /^[0-9a-f-]{1,64}$/,
  boot: /^[0-9a-f-]{1,64}$/,
  pidns: /^\d{1,20}$/,
  run: /^\d{1,20}$/,
};
const REQUIRED = ['user', 'host', 'pid', 'since', 'renewed', 'id'];

/** The description recorded on the server (at most 255 characters, as CreateOrgOption allows). */
export function encodeHolder(h: Holder): string {
  const parts = [`user=${h.user}`, `host=${h.host}`, `pid=${h.pid}`, `since=${h.since}`, `renewed=${h.renewed}`, `id=${h.id}`];
  if (h.boot) parts.push(`boot=${h.boot}`);
  if (h.pidns) parts.push(`pidns=${h.pidns}`);
  if (h.run) parts.push(`run=${h.run}`);
  return `${PREFIX} ${parts.join(' ')}`.slice(0, 255);
}

/** The holder a description records, or why it is not a lock's record (parsed strictly: nothing of it is printed unchecked). */
export function decodeHolder(description: unknown): Holder | { problem: string } {
  if (typeof description !== 'string' || !description.startsWith(`${PREFIX} `)) return { problem: 'its description is not a lock record' };
  const values = new Map<string, string>();
  for (const part of description.slice(PREFIX.length + 1).split(' ')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq);
    const value = part.slice(eq + 1);
    if (eq < 1 || !FIELDS[key] || values.has(key)) return { problem: 'its description is not a lock record' };
    if (!FIELDS[key].test(value)) return { problem: `its description's ${key} is not one forgeform writes` };
    values.set(key, value);
  }
  const missing = REQUIRED.filter((k) => !values.has(k));
  if (missing.length) return { problem: `its description lacks ${missing.join(', ')}` };
  const get = (k: string) => values.get(k) ?? '';
  if (REQUIRED.some((k) => (k === 'since' || k === 'renewed') && Number.isNaN(Date.parse(get(k))))) return { problem: "its description's times are not dates" };
  const optional = Object.fromEntries(['boot', 'pidns', 'run'].flatMap((k) => (values.has(k) ? [[k, get(k)]] : [])));
  return { id: get('id'), user: get('user'), host: get('host'), pid: Number(get('pid')), since: get('since'), renewed: get('renewed'), ...optional };
}

function readOr(read: () => string): string | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** This machine's boot id and this process's PID namespace (Linux; elsewhere unknown, and then no holder is judged dead by its pid). */
function machine(): { boot?: string; pidns?: string } {
  const boot = readOr(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
  const pidns = /^pid:\[(\d+)\]$/.exec(readOr(() => readlinkSync('/proc/self/ns/pid')) ?? '')?.[1];
  return { ...(boot && FIELDS.boot?.test(boot) ? { boot } : {}), ...(pidns ? { pidns } : {}) };
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

/** This run, as a holder, at `now` (the server's time). Names are made safe for the one-line record. */
export function thisRun(now: number, env: NodeJS.ProcessEnv = process.env): Holder {
  const safe = (s: string, allowed: RegExp) => s.replace(allowed, '_').slice(0, 40) || '?';
  let user = env.GITHUB_ACTOR ?? '';
  if (!user) user = readOr(() => userInfo().username) ?? '?';
  const runId = env.GITHUB_RUN_ID;
  const at = iso(now);
  return {
    id: randomBytes(6).toString('hex'),
    user: safe(user, /[^A-Za-z0-9_.@+-]/g),
    host: safe(hostname(), /[^A-Za-z0-9_.-]/g),
    pid: process.pid,
    since: at,
    renewed: at,
    ...machine(),
    ...(runId && /^\d{1,20}$/.test(runId) ? { run: runId } : {}),
  };
}

/** The CI run's address, kept on the organisation's website for an administrator to follow (forgeform never prints what it reads there). */
function runUrl(env: NodeJS.ProcessEnv): string {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: runId } = env;
  const url = server && runId ? `${server.replace(/\/+$/, '')}/${repo ? `${repo}/` : ''}actions/runs/${runId}` : '';
  return /^https?:\/\/\S+$/.test(url) && url.length <= 255 ? url : '';
}

/** The organisation's body: full name, description, website and location all sent (releases before 1.26 clear what an edit omits). */
function lockBody(h: Holder, env: NodeJS.ProcessEnv): Record<string, unknown> {
  return { full_name: FULL_NAME, description: encodeHolder(h), website: runUrl(env), location: '' };
}

/** The lock as the server has it. */
export type Found =
  /** No lock; `vanished`: one was there a moment ago (its holder gave it back while it was being judged). */
  | { state: 'none'; vanished?: boolean }
  | { state: 'held'; holder: Holder; orgId: number }
  /** Not forgeform's lock: what it is, and what resolves it. */
  | { state: 'foreign'; what: string; fix: string; removable?: Holder };

/** What the server's clock says now: from the lock's own answers' `Date` (the client keeps the last), else this machine's. */
function serverNow(client: GiteaClient): number {
  return client.serverNow() ?? Date.now();
}

/** A plain read of the lock (its renewal and release: this run's own lock, judged by its id). */
export async function readLock(client: GiteaClient, name = LOCK_ORG): Promise<Found> {
  let org: { id?: number; description?: string };
  try {
    org = await client.get<{ id?: number; description?: string }>(apiPath('orgs', name), { object: 'the apply lock', shape: { description: 'string?' } });
  } catch (e) {
    if (isApiError(e, 404)) return { state: 'none' };
    throw e;
  }
  const holder = decodeHolder(org.description);
  if ('problem' in holder) return { state: 'foreign', what: `an organisation named "${name}" exists that is not forgeform's apply lock (${holder.problem})`, fix: '' };
  return { state: 'held', holder, orgId: typeof org.id === 'number' ? org.id : 0 };
}

/** How lockNotice's notice of a lock held begins (plan --rehearse says it too: the copy is of a server being changed). */
export const HELD_NOTICE = 'an apply held the server';

/**
 * What plan says about the lock (issue 28): one GET of it. A lock held means an apply is writing, so the
 * plan may show a half-applied server; the holder is printed only as parsed strictly (describeHolder),
 * never its raw text. A lock that is not forgeform's, or none, says nothing; a failed read says so.
 */
export async function lockNotice(client: GiteaClient, name = LOCK_ORG): Promise<string | undefined> {
  let found: Found;
  try {
    found = await readLock(client, name);
  } catch (e) {
    return `could not read the apply lock "${name}", so this plan cannot tell whether an apply is changing the server meanwhile: ${(e as Error).message}`;
  }
  if (found.state !== 'held') return undefined;
  return `${HELD_NOTICE} while this plan was made (the apply lock "${name}": ${describeHolder(found.holder, serverNow(client))}): the server may be half-applied, and this plan shows what is left; plan again once that apply has ended`;
}

/** What resolves a name another object holds: another name for the lock (the objects of other users are theirs to remove). */
function otherName(name: string): string {
  return `a site administrator renames or removes "${name}" (Site administration; it is not forgeform's to remove)`;
}

/**
 * Whether a lock found on the server is forgeform's: its organisation owned by the token's user
 * alone and holding no repository (GET /user, the members, one repository at most), its record
 * strict and not ahead of the server's clock. Three reads, only when the lock was found held by
 * another run (the floor, an apply that takes a free lock, sends none of them).
 */
async function judge(client: GiteaClient, name: string, found: Found): Promise<Found> {
  if (found.state === 'none') {
    const user = await client.get<{ login?: string }>(apiPath('users', name), { object: 'the apply lock' }).catch((e: unknown) => {
      if (isApiError(e, 404)) return undefined;
      throw e;
    });
    return user ? { state: 'foreign', what: `a user named "${name}" exists: the apply lock is an organisation of that name, and cannot be made`, fix: otherName(name) } : found;
  }
  const me = (await client.get<{ login?: string }>('user', { object: "the token's user", shape: { login: 'string' } })).login ?? '';
  // A 404 here: the lock was given back after it was read (its holder ended meanwhile): gone, not an error.
  const gone = (e: unknown): undefined => {
    if (isApiError(e, 404)) return undefined;
    throw e;
  };
  const listed = await client.list<{ login?: string }>(apiPath('orgs', name, 'members'), { object: 'the apply lock' }).catch(gone);
  const repos = listed && (await client.get<{ full_name?: string }[]>(apiPath('orgs', name, 'repos'), { object: 'the apply lock', query: { limit: 1 }, expect: 'list' }).catch(gone));
  if (!listed || !repos) return { state: 'none', vanished: true };
  const members = listed.map((m) => m.login ?? '?');
  const owners = members.length ? members.map((m) => `"${inert(m)}"`).join(', ') : 'no member the token can see';
  if (repos.length) return { state: 'foreign', what: `an organisation named "${name}" (members: ${owners}) owns repository "${inert(repos[0]?.full_name ?? '?')}": it is not forgeform's apply lock, and cannot be taken over or removed`, fix: otherName(name) };
  if (members.length !== 1 || members[0]?.toLowerCase() !== me.toLowerCase())
    return { state: 'foreign', what: `an organisation named "${name}" is owned by ${owners}, not by the token's user "${inert(me)}" alone: it is not forgeform's apply lock`, fix: otherName(name) };
  if (found.state === 'foreign') return { ...found, fix: `it is the token's user's own and empty: delete it (forgeform leaves it alone): curl -X DELETE -H "Authorization: token $FORGEFORM_TOKEN" ${client.baseUrl}/api/v1/orgs/${name}` };
  const now = serverNow(client);
  const ahead = [found.holder.since, found.holder.renewed].find((t) => Date.parse(t) > now + AHEAD_TOLERANCE_MS);
  if (ahead) return { state: 'foreign', what: `the apply lock's record says ${ahead}, ahead of the server's clock (${iso(now)}): a lock forgeform wrote never is, and it would never go stale`, fix: `if no apply is running, remove it with: ${unlockHint(found.holder.id, name)}`, removable: found.holder };
  return found;
}

/** Whether a holder is a process of this machine (same boot, same PID namespace) that is gone. */
function deadHere(h: Holder): boolean {
  const here = machine();
  if (!here.boot || !here.pidns || h.boot !== here.boot || h.pidns !== here.pidns || !h.pid || h.pid === process.pid) return false;
  try {
    process.kill(h.pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export interface HeldLock {
  holder: Holder;
  name: string;
  /** Gives the lock back (when it is still this run's); a failure (after the client's retries) is thrown, naming `forgeform unlock ID`. */
  release(): Promise<void>;
}

/** --lock-stale below twice the renewal interval would take a live lock between two renewals (issue 28). */
export function checkStale(staleMs: number, renewMs = DEFAULT_RENEW_MS): string | undefined {
  return staleMs < 2 * renewMs ? `--lock-stale must be at least ${ago(2 * renewMs)} (twice the lock's renewal interval of ${ago(renewMs)}): a shorter one takes over the lock of an apply that is still running` : undefined;
}

/**
 * Takes the lock, waiting up to `timeoutMs` for another run's to go. Fails with a LockError naming
 * the holder or the foreign object, or with the server's error when the lock cannot be made or read.
 */
export async function acquireLock(client: GiteaClient, o: LockOptions): Promise<HeldLock> {
  const name = o.name ?? LOCK_ORG;
  const tooShort = checkStale(o.staleMs, o.renewMs);
  if (tooShort) throw new LockError(tooShort);
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const env = o.env ?? process.env;
  const me = thisRun(serverNow(client), env);
  const deadline = Date.now() + o.timeoutMs;
  const trusted = new Set<number>();
  let told = false;
  let unseen = 0;
  for (;;) {
    if (await tryCreate(client, me, name, env)) return held(client, me, name, o);
    let found = await readLock(client, name);
    if (found.state === 'held' && found.holder.id === me.id) return held(client, me, name, o); // our own create, whose answer was lost
    if (found.state === 'foreign' || found.state === 'none' || !trusted.has(found.orgId)) found = await judge(client, name, found);
    if (found.state === 'foreign') throw new LockError(`${found.what}. Nothing was changed. To resolve it, ${found.fix}; or run apply with --no-lock`);
    if (found.state === 'none') {
      // Given back while it was judged: another try at once.
      if (found.vanished) continue;
      // Gone between our create and our read (or our create was refused for another reason): once more, then say so.
      if (++unseen > 3) throw new LockError(`cannot take the apply lock: POST /api/v1/orgs refused organisation "${name}", and the token cannot see it (is it another user's private organisation?)`);
      continue;
    }
    trusted.add(found.orgId);
    const now = serverNow(client);
    const stale = now - Date.parse(found.holder.renewed) > o.staleMs;
    if (stale || deadHere(found.holder)) {
      o.warn(`the apply lock ${describeHolder(found.holder, now)} is stale (${stale ? `not renewed for over ${ago(o.staleMs)} by the server's clock` : 'its process is gone'}): taking it over`);
      await removeIfStill(client, name, found.holder.id);
      continue;
    }
    if (Date.now() >= deadline)
      throw new LockError(
        `another apply holds the server: ${describeHolder(found.holder, now)}. Nothing was changed. Run apply again when it has ended, wait for it with --lock-timeout (e.g. 10m), or, if no apply is running, remove the lock with: ${unlockHint(found.holder.id, name)}`,
      );
    if (!told) o.waiting?.(found.holder);
    told = true;
    await sleep(Math.min(o.pollMs ?? DEFAULT_POLL_MS, Math.max(0, deadline - Date.now())) * (0.75 + Math.random() / 2));
  }
}

/** POST /orgs: true when it made the lock. A refusal or a lost answer is judged by reading the lock. */
async function tryCreate(client: GiteaClient, me: Holder, name: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  try {
    await client.request('POST', 'orgs', { body: { username: name, visibility: 'private', ...lockBody(me, env) }, object: 'the apply lock', restsOnNoList: true });
    return true;
  } catch (e) {
    if (isApiError(e, 403)) throw new LockError(`cannot take the apply lock: ${(e as Error).message} (creating organisation "${name}" needs a token that may create organisations; a site administrator's can, or run apply with --no-lock)`);
    if (isApiError(e) && (e.status === undefined || e.status === 422 || e.status === 409 || e.status >= 500)) return false;
    throw e;
  }
}

/** Deletes the lock if its holder is still `id` (so that a lock taken meanwhile by another run is never deleted). */
async function removeIfStill(client: GiteaClient, name: string, id: string): Promise<boolean> {
  const now = await readLock(client, name);
  if (now.state !== 'held' || now.holder.id !== id) return false;
  try {
    await client.request('DELETE', apiPath('orgs', name), { object: 'the apply lock', restsOnNoList: true });
  } catch (e) {
    if (!isApiError(e, 404)) throw e;
  }
  return true;
}

function held(client: GiteaClient, me: Holder, name: string, o: LockOptions): HeldLock {
  let lost = false;
  const renew = async () => {
    try {
      const found = await readLock(client, name);
      if (found.state !== 'held' || found.holder.id !== me.id) {
        if (!lost) o.warn(`the apply lock is no longer this run's (${found.state === 'none' ? 'it was removed' : found.state === 'foreign' ? 'replaced by another organisation' : describeHolder(found.holder, serverNow(client))}): another apply may now run at the same time`);
        lost = true;
        return;
      }
      await client.request('PATCH', apiPath('orgs', name), { body: lockBody({ ...me, renewed: iso(serverNow(client)) }, o.env ?? process.env), object: 'the apply lock', restsOnNoList: true });
    } catch (e) {
      o.warn(`could not renew the apply lock: ${(e as Error).message}`);
    }
  };
  const timer = setInterval(() => void renew(), o.renewMs ?? DEFAULT_RENEW_MS);
  timer.unref();
  return {
    holder: me,
    name,
    async release() {
      clearInterval(timer);
      try {
        if (!(await removeIfStill(client, name, me.id)) && !lost) o.warn('the apply lock was already gone when this apply ended');
      } catch (e) {
        throw new LockError(`could not give the apply lock back: ${(e as Error).message}. Other applies are refused until it is removed (or for ${ago(o.staleMs)}): remove it with: ${unlockHint(me.id, name)}`);
      }
    },
  };
}

/** forgeform unlock: the lock's holder, and whether it was removed (only with its id, as Terraform's force-unlock asks, and only a lock forgeform can hold). */
export async function unlock(client: GiteaClient, id: string | undefined, name = LOCK_ORG): Promise<{ found: Found; removed: boolean }> {
  const found = await judge(client, name, await readLock(client, name));
  // A lock whose record is ahead of the server's clock is forgeform's in all else: removed with its (checked) id.
  const holder = found.state === 'held' ? found.holder : found.state === 'foreign' ? found.removable : undefined;
  if (!holder || id === undefined || holder.id !== id) return { found, removed: false };
  return { found, removed: await removeIfStill(client, name, id) };
}

/** A duration as Terraform writes it ("0", "30s", "5m", "1h", "1m30s"); a bare number is seconds. */
export function parseDuration(value: string, option: string): number {
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v) * 1000;
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  const rest = v.replace(/(\d+(?:\.\d+)?)(ms|s|m|h)/g, (_, n: string, u: string) => {
    total += Number(n) * units[u]!;
    return '';
  });
  if (!v || rest !== '') throw new Error(`${option} must be a duration such as 0, 30s, 5m or 1h, got "${value}"`);
  return total;
}
