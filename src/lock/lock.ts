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
 * Who holds it, and since when, is in its description (host, process, user, start time, the CI run),
 * renewed every minute: a lock not renewed for `staleMs` belongs to a run that died, and is taken
 * over with a warning; a holder on this host whose process is gone is too. `forgeform unlock ID`
 * removes any other.
 *
 * Its requests rest on no list the plan read: the server's unique name judges the create, a read of the
 * lock itself the renewal and the removal. They say so to the client (`restsOnNoList`): `PATCH` and
 * `DELETE orgs/forgeform-lock` are writes under the API's root, and would otherwise first read the page
 * after every list that ended on X-Total-Count's word (issue 21: 4 such reads in the large benchmark).
 */
import { hostname, userInfo } from 'node:os';
import { randomBytes } from 'node:crypto';
import { isApiError, type GiteaClient } from '../gitea/client.js';
import { apiPath } from '../gitea/path.js';
import { LOCK_ORG } from '../model/index.js';

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
  /** The CI run ($GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID), when there is one. */
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
  warn: (message: string) => void;
  /** Told once when apply starts to wait (so that a silent wait is never mistaken for a hang). */
  waiting?: (holder: Holder) => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_STALE_MS = 10 * 60_000;
const DEFAULT_RENEW_MS = 60_000;
const DEFAULT_POLL_MS = 2_000;
const FULL_NAME = 'forgeform apply lock';
const LOCK_PATH = apiPath('orgs', LOCK_ORG);

/** The lock could not be taken: another apply holds the server (or the token cannot make the lock). */
export class LockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LockError';
  }
}

export function describeHolder(h: Holder, now = Date.now()): string {
  return `held by ${h.user} on host "${h.host}" (pid ${h.pid}) since ${h.since} (${ago(now - Date.parse(h.since))} ago, last renewed ${ago(now - Date.parse(h.renewed))} ago)${h.run ? `, run ${h.run}` : ''}; lock id ${h.id}`;
}

function ago(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '0 s';
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}

/** The description recorded on the server (at most 255 characters, as CreateOrgOption allows). */
export function encodeHolder(h: Holder): string {
  const text = `Held by forgeform apply: user=${h.user} host=${h.host} pid=${h.pid} since=${h.since} renewed=${h.renewed} id=${h.id}`;
  return text.slice(0, 255);
}

export function decodeHolder(description: unknown, website: unknown): Holder | undefined {
  if (typeof description !== 'string') return undefined;
  const field = (name: string) => new RegExp(`(?:^|\\s)${name}=(\\S+)`).exec(description)?.[1];
  const [id, user, host, pid, since, renewed] = ['id', 'user', 'host', 'pid', 'since', 'renewed'].map(field);
  if (!id || !since || !renewed || Number.isNaN(Date.parse(since)) || Number.isNaN(Date.parse(renewed))) return undefined;
  return { id, user: user ?? '?', host: host ?? '?', pid: Number(pid ?? 0), since, renewed, ...(typeof website === 'string' && website ? { run: website } : {}) };
}

/** This run, as a holder. Names are made safe for the one-line record (no spaces). */
export function thisRun(now = new Date()): Holder {
  const safe = (s: string) => s.replace(/\s+/g, '_').slice(0, 60) || '?';
  let user = process.env.GITHUB_ACTOR ?? '';
  if (!user) {
    try {
      user = userInfo().username;
    } catch {
      user = '?';
    }
  }
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: runId } = process.env;
  const run = server && runId ? `${server.replace(/\/+$/, '')}/${repo ? `${repo}/` : ''}actions/runs/${runId}` : undefined;
  const at = now.toISOString().replace(/\.\d+Z$/, 'Z');
  return { id: randomBytes(6).toString('hex'), user: safe(user), host: safe(hostname()), pid: process.pid, since: at, renewed: at, ...(run && /^https?:\/\/\S+$/.test(run) && run.length <= 255 ? { run } : {}) };
}

/** The organisation's body: full name, description, website and location all sent (releases before 1.26 clear what an edit omits). */
function lockBody(h: Holder): Record<string, unknown> {
  return { full_name: FULL_NAME, description: encodeHolder(h), website: h.run ?? '', location: '' };
}

/** The lock as the server has it: its holder, 'foreign' for an organisation of that name forgeform did not make, undefined when there is none. */
export async function readLock(client: GiteaClient): Promise<Holder | 'foreign' | undefined> {
  try {
    const org = await client.get<Record<string, unknown>>(LOCK_PATH, { object: 'the apply lock', shape: { description: 'string?', website: 'string?' } });
    return decodeHolder(org.description, org.website) ?? 'foreign';
  } catch (e) {
    if (isApiError(e, 404)) return undefined;
    throw e;
  }
}

/** Whether a holder is a process of this host that is gone. */
function deadHere(h: Holder): boolean {
  if (h.host !== thisRun().host || !h.pid || h.pid === process.pid) return false;
  try {
    process.kill(h.pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export interface HeldLock {
  holder: Holder;
  /** Gives the lock back (when it is still this run's). */
  release(): Promise<void>;
}

/**
 * Takes the lock, waiting up to `timeoutMs` for another run's to go. Fails with a LockError naming
 * the holder, or with the server's error when the lock cannot be made or read.
 */
export async function acquireLock(client: GiteaClient, o: LockOptions): Promise<HeldLock> {
  const now = o.now ?? Date.now;
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const me = thisRun(new Date(now()));
  const deadline = now() + o.timeoutMs;
  let told = false;
  let unseen = 0;
  for (;;) {
    if (await tryCreate(client, me)) return held(client, me, o);
    const found = await readLock(client);
    if (found === undefined) {
      // Gone between our create and our read (or our create was refused for another reason): once more, then say so.
      if (++unseen > 3) throw new LockError(`cannot take the apply lock: POST /api/v1/orgs refused organisation "${LOCK_ORG}", and the token cannot see it (is it another user's private organisation?)`);
      continue;
    }
    if (found === 'foreign')
      throw new LockError(`an organisation named "${LOCK_ORG}" exists that is not forgeform's apply lock (its description is not one): rename or delete it, or run apply with --no-lock`);
    if (found.id === me.id) return held(client, me, o); // our own create, whose answer was lost
    const staleFor = now() - Date.parse(found.renewed);
    if (staleFor > o.staleMs || deadHere(found)) {
      o.warn(`the apply lock ${describeHolder(found, now())} is stale (${deadHere(found) ? 'its process is gone' : `not renewed for over ${ago(o.staleMs)}`}): taking it over`);
      await removeIfStill(client, found.id);
      continue;
    }
    if (now() >= deadline)
      throw new LockError(
        `another apply holds the server: ${describeHolder(found, now())}. Nothing was changed. Run apply again when it has ended, wait for it with --lock-timeout (e.g. 10m), or, if no apply is running, remove the lock with: forgeform unlock ${found.id}`,
      );
    if (!told) o.waiting?.(found);
    told = true;
    await sleep(Math.min(o.pollMs ?? DEFAULT_POLL_MS, Math.max(0, deadline - now())) * (0.75 + Math.random() / 2));
  }
}

/** POST /orgs: true when it made the lock. A refusal or a lost answer is judged by reading the lock. */
async function tryCreate(client: GiteaClient, me: Holder): Promise<boolean> {
  try {
    await client.request('POST', 'orgs', { body: { username: LOCK_ORG, visibility: 'private', ...lockBody(me) }, object: 'the apply lock', restsOnNoList: true });
    return true;
  } catch (e) {
    if (isApiError(e, 403)) throw new LockError(`cannot take the apply lock: ${(e as Error).message} (creating organisation "${LOCK_ORG}" needs a token that may create organisations; a site administrator's can, or run apply with --no-lock)`);
    if (isApiError(e) && (e.status === undefined || e.status === 422 || e.status === 409 || e.status >= 500)) return false;
    throw e;
  }
}

/** Deletes the lock if its holder is still `id` (so that a lock taken meanwhile by another run is never deleted). */
async function removeIfStill(client: GiteaClient, id: string): Promise<boolean> {
  const now = await readLock(client);
  if (now === undefined || now === 'foreign' || now.id !== id) return false;
  try {
    await client.request('DELETE', LOCK_PATH, { object: 'the apply lock', restsOnNoList: true });
  } catch (e) {
    if (!isApiError(e, 404)) throw e;
  }
  return true;
}

function held(client: GiteaClient, me: Holder, o: LockOptions): HeldLock {
  const now = o.now ?? Date.now;
  let lost = false;
  const renew = async () => {
    try {
      const found = await readLock(client);
      if (found === undefined || found === 'foreign' || found.id !== me.id) {
        if (!lost) o.warn(`the apply lock is no longer this run's (${found === undefined ? 'it was removed' : found === 'foreign' ? 'replaced by another organisation' : describeHolder(found)}): another apply may now run at the same time`);
        lost = true;
        return;
      }
      await client.request('PATCH', LOCK_PATH, { body: lockBody({ ...me, renewed: new Date(now()).toISOString().replace(/\.\d+Z$/, 'Z') }), object: 'the apply lock', restsOnNoList: true });
    } catch (e) {
      o.warn(`could not renew the apply lock: ${(e as Error).message}`);
    }
  };
  const timer = setInterval(() => void renew(), o.renewMs ?? DEFAULT_RENEW_MS);
  timer.unref();
  return {
    holder: me,
    async release() {
      clearInterval(timer);
      try {
        if (!(await removeIfStill(client, me.id)) && !lost) o.warn('the apply lock was already gone when this apply ended');
      } catch (e) {
        o.warn(`could not remove the apply lock: ${(e as Error).message}. Remove it with: forgeform unlock ${me.id}`);
      }
    },
  };
}

/** forgeform unlock: the lock's holder, and whether it was removed (only with its id, as Terraform's force-unlock asks). */
export async function unlock(client: GiteaClient, id: string | undefined): Promise<{ holder: Holder | 'foreign' | undefined; removed: boolean }> {
  const holder = await readLock(client);
  if (holder === undefined || holder === 'foreign' || id === undefined || holder.id !== id) return { holder, removed: false };
  return { holder, removed: await removeIfStill(client, id) };
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
