// plan --rehearse (issue 30): the plan applied to a copy of the objects it read, on a sandbox of the same fork and
// release, then planned again there. The copy comes from the answers of the plan's own reads (src/sandbox/copy.ts):
// no request reaches the server beyond them. It runs in this process and takes no lock: apply's lock guards the
// server, and nothing here writes to it (a lock held while the plan read is said in the limits). The copy's ids are its own, so the plan is first made again against it
// (the same configuration, selection and release): each change it has that the server's plan has too (same object,
// action and values) is run by the executor as apply runs it (same ordering, same requests, the copy's ids); a change
// of the server's plan the copy's lacks, or shows otherwise, is named as not rehearsed (the copy does not hold its
// object as the server does). Then the plan again, against the copy: what it still has would not converge.
import { isDeepStrictEqual } from 'node:util';
import { execute, type ChangeResult } from '../apply/executor.js';
import { GiteaClient, type ReadAnswer } from '../gitea/client.js';
import type { DirectExchange } from '../gitea/transport.js';
import { describeServer, parseVersion, type ApplyingKind, type Change, type Plan, type ReadingKind, type Scope, type ServerInfo } from '../model/index.js';
import { FlavourError, parseFlavour, SeedError, type Flavour, type Sandbox } from '../sandbox/index.js';
import { startCopy, type ServerCopy } from '../sandbox/copy.js';
import { notPlayed } from '../sandbox/flavours/not-played.js';
import type { Rehearsal, RehearsalProblem } from '../model/index.js';

export type { Rehearsal, RehearsalProblem };

export interface RehearseOptions {
  plan: Plan;
  /** The answers of the plan's reads (ClientOptions.onAnswer). */
  answers: ReadAnswer[];
  kinds: (ApplyingKind & ReadingKind)[];
  server: ServerInfo;
  /** apply's lock (policy.apply_lock): the copy holds none, and the rehearsal takes none (it writes to the copy only). */
  lock: string;
  /** The plan's notice that an apply held the lock while it read the server (src/lock/lock.ts lockNotice). */
  lockHeld?: boolean;
  /** The same plan again, made against `client` (the copy): the plan, its scopes, and its errors; `after` the rehearsal, without --sync-write-only and --rotate-secrets. */
  replan: (client: GiteaClient, after: boolean) => Promise<Replanned>;
}

export interface Replanned {
  plan: Plan;
  scopes: Map<string, Scope>;
  errors: string[];
}

/** The sandbox's name of the release the server runs (`gitea@1.25`, `forgejo@11`). */
function flavourName(server: ServerInfo): string {
  const v = parseVersion(server.version) ?? [0, 0, 0];
  return server.flavour === 'gitea' ? `gitea@${v[0]}.${v[1]}` : `forgejo@${v[0]}`;
}

/** Rehearses the plan; never throws for what the copy answers (that is the rehearsal's finding). */
export async function rehearse(o: RehearseOptions): Promise<Rehearsal> {
  let flavour: Flavour;
  try {
    flavour = parseFlavour(flavourName(o.server));
  } catch (e) {
    if (!(e instanceof FlavourError)) throw e;
    return { release: describeServer(o.server), rehearsed: false, reason: `the sandbox does not play ${describeServer(o.server)} (${e.message.replace(/^unknown flavour "[^"]*": /, '')})`, applied: 0, problems: [], limits: [] };
  }
  const release = `${flavour.fork} ${flavour.version.split('+')[0]}`;
  const played = { release, ...(o.server.version !== flavour.version.split('+')[0] ? { server: describeServer(o.server) } : {}) };
  let copy: ServerCopy;
  try {
    copy = await startCopy(o.answers, flavour.name, o.lock);
  } catch (e) {
    // What the plan read that the copy's seed refuses is no rehearsal: said, as a copy the plan cannot be made against.
    if (!(e instanceof SeedError)) throw e;
    return { ...played, rehearsed: false, reason: `the copy could not be made: ${e.message}`, applied: 0, problems: [], limits: [] };
  }
  // An apply held the server while the plan read it: the copy is of a server being changed. The rehearsal does not wait
  // for that apply, nor take the lock (it writes to the copy only): it shows this plan on what was read, said here.
  const said = [...writeOnlyLimit(o.plan), ...(o.lockHeld ? [`an apply held the server (the apply lock "${o.lock}") while the plan read it: the copy is of a server being changed, as the plan is; the rehearsal neither waited for that apply nor took the lock (it writes to the copy only)`] : [])];
  try {
    const client = copyClient(copy.sandbox);
    const before = await o.replan(client, false);
    // A copy the plan cannot be made against is no rehearsal: said, with what the copy lacks.
    if (before.errors.length) return { ...played, rehearsed: false, reason: `the plan against the copy failed: ${firstOf(before.errors)}`, applied: 0, problems: [], limits: [...said, ...copy.notCopied] };
    const { runs, problems } = matchPlans(o.plan, before);
    const results = runs.length ? await execute(runs, { client, kinds: o.kinds, policy: o.plan.policy, server: o.server, scopes: before.scopes }) : [];
    problems.push(...results.flatMap(problemOf));
    const after = await o.replan(client, true);
    const named = new Set(problems.map((p) => p.change));
    for (const e of after.errors) problems.push({ what: 'plan-failed', change: '', message: e });
    // A change that failed or was not rehearsed is still in the plan after it: named once, as what it was.
    for (const c of after.plan.changes) if (!named.has(c.id)) problems.push({ what: 'not-converged', change: c.id, message: 'the plan after it still has this change' });
    for (const d of after.plan.drift ?? []) problems.push({ what: 'not-converged', change: '', message: d });
    const limits = [...said, ...notPlayed(flavour), ...copy.notCopied];
    return { ...played, rehearsed: true, applied: results.filter((r) => r.outcome === 'done').length, problems, limits };
  } finally {
    await copy.sandbox.close();
  }
}

/** Write-only values (passwords, secrets, hook secrets) are never answered: the changes that send one are rehearsed on what they send, said. */
function writeOnlyLimit(plan: Plan): string[] {
  const n = plan.changes.filter((c) => c.fields.some((f) => f.writeOnly)).length;
  return n ? [`write-only values (passwords, secrets, hook secrets) are never read from the server: the copy holds none of its values, so ${n} change${n === 1 ? '' : 's'} that send${n === 1 ? 's' : ''} one ${n === 1 ? 'is' : 'are'} rehearsed on what ${n === 1 ? 'it sends' : 'they send'}, not on what the server holds`] : [];
}

/**
 * The client of the copy. The copy answers in this process: its exchanges are handed to its app directly, not sent
 * through a loopback connection (the same routes, middleware and answers, without two HTTP stacks in one process).
 */
function copyClient(sandbox: Sandbox): GiteaClient {
  const exchange: DirectExchange = async ({ method, target, headers, body }) => {
    const res = await sandbox.fetch(new Request(`${sandbox.url}${target}`, { method, headers, ...(body === undefined ? {} : { body }) }));
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  return new GiteaClient({ url: sandbox.url, credentials: { token: sandbox.token }, retries: 0, exchange });
}

/** What a change shows, without what depends on the ids of the server it was planned on (its requests, its digest). */
const shown = (c: Change) => ({ kind: c.kind, scope: c.scope, key: c.key, action: c.action, from: c.from, fields: c.fields });

/**
 * The copy's plan against the server's: the copy's changes that the server's plan has as they are (run), and the
 * server's changes the copy does not plan so (not rehearsed: the copy does not hold their object as the server does).
 */
function matchPlans(plan: Plan, before: Replanned): { runs: Change[]; problems: RehearsalProblem[] } {
  const problems: RehearsalProblem[] = [];
  const copied = new Map(before.plan.changes.map((c) => [c.id, c]));
  const runs: Change[] = [];
  for (const c of plan.changes) {
    const there = copied.get(c.id);
    if (there && isDeepStrictEqual(shown(there), shown(c))) runs.push(there);
    else problems.push({ what: 'not-rehearsed', change: c.id, message: there ? 'the copy does not hold its object as the server does (the plan against the copy shows this change otherwise)' : 'the copy does not hold its object as the server does (the plan against the copy has no such change)' });
  }
  const planned = new Set(plan.changes.map((c) => c.id));
  for (const c of before.plan.changes) if (!planned.has(c.id)) problems.push({ what: 'not-rehearsed', change: c.id, message: 'the plan against the copy has this change, the server\'s does not: the copy differs from the server here' });
  return { runs, problems };
}

/** What a change's result says about the plan: nothing when it was done as planned. */
function problemOf(r: ChangeResult): RehearsalProblem[] {
  const requests = r.change.ops.map((op) => `${op.method} /api/v1/${op.path}`);
  if (r.outcome === 'failed') return [{ what: 'failed', change: r.change.id, message: r.error ?? 'failed', requests }];
  if (r.outcome === 'skipped') return [{ what: r.error?.includes('which failed') ? 'failed' : 'not-rehearsed', change: r.change.id, message: r.error ?? 'skipped' }];
  if (r.notTaken?.length) return [{ what: 'not-converged', change: r.change.id, message: `the copy kept other values than sent for ${r.notTaken.join(', ')}`, requests }];
  return [];
}


/** The first problems of a list and how many more: one reason line stays readable when a copy lacks hundreds of objects. */
function firstOf(errors: string[], shown = 3): string {
  const more = errors.length - shown;
  return `${errors.slice(0, shown).join('; ')}${more > 0 ? ` (and ${more} more like them)` : ''}`;
}
