import { createInterface } from 'node:readline/promises';
import { describeDuplicates, findConcurrentDuplicates } from '../../apply/concurrent.js';
import { execute, type ChangeResult } from '../../apply/executor.js';
import { acquireLock, DEFAULT_STALE_MS, describeHolder, LockError, parseDuration } from '../../lock/lock.js';
import { guardLock, type LockState } from '../lock-guard.js';
import type { GiteaClient } from '../../gitea/client.js';
import { readSavedPlan } from '../saved-plan.js';
import { verifySavedPlan } from '../../apply/verify.js';
import { kinds } from '../../kinds/index.js';
import { describeDiagnostic, describeServer, formatDiagnostic, kindTitles, lockNameOf, type Diagnostic, type PlanServer, type Scope, type ServerInfo } from '../../model/index.js';
import { readValues, resolvePlanSecrets } from '../../plan/planfile.js';
import type { Change, Plan } from '../../plan/types.js';
import { inconsistentResults, renderApplySummary, renderResultLine } from '../../render/text.js';
import { checkServer, makeClient } from '../context.js';
import { interruptedSummary, NOT_STARTED, SIGNAL_EXIT, stopOnSignals, stoppedSummary } from '../interrupt.js';
import { EXIT, UserError, type Output } from '../output.js';
import { computePlan, printPlan, withheldLine, type PlanCommandOptions } from './plan.js';
import { inert } from '../../render/inert.js';

export interface ApplyCommandOptions extends PlanCommandOptions {
  yes?: boolean;
  force?: boolean;
  /** false with --no-lock: apply takes no lock on the server. */
  lock?: boolean;
  /** How long to wait for another apply's lock (a duration: 0, 30s, 5m). */
  lockTimeout?: string;
  /** How long a lock not renewed is taken for its run's (a duration). */
  lockStale?: string;
}

/**
 * Takes the server's apply lock (src/lock/lock.ts) unless --no-lock: before anything is read, so
 * that what is planned and written rests on a server no other apply changes meanwhile.
 */
async function takeLock(client: GiteaClient, opts: ApplyCommandOptions, out: Output, locked: LockState, name: string): Promise<void> {
  if (opts.lock === false) return;
  const duration = (v: string | undefined, fallback: number, name: string) => {
    try {
      return v === undefined ? fallback : parseDuration(v, name);
    } catch (e) {
      throw new UserError((e as Error).message);
    }
  };
  const options = {
    timeoutMs: duration(opts.lockTimeout, 0, '--lock-timeout'),
    staleMs: duration(opts.lockStale, DEFAULT_STALE_MS, '--lock-stale'),
    name,
    env: out.env,
    warn: (m: string) => out.stderr(out.err.yellow(`warning: ${inert(m)}`)),
    waiting: (h: Parameters<typeof describeHolder>[0]) => out.stderr(`Waiting for the apply lock (--lock-timeout ${opts.lockTimeout}): ${describeHolder(h)}`),
  };
  try {
    // Kept while it is being taken: a signal meanwhile waits for it, then gives it back (src/cli/lock-guard.ts).
    locked.taking = acquireLock(client, options);
    locked.lock = await locked.taking;
  } catch (e) {
    if (e instanceof LockError) throw new UserError(e.message);
    throw e;
  }
}

function readPlanFile(path: string, out: Output): Plan {
  const resolved = resolvePlanSecrets(readSavedPlan(path), out.env);
  // Every variable the config read, secret field or not: its value is masked in every output, as plan masked it (issue 28).
  const read = readValues(resolved.plan, out.env);
  const missing = [...new Set([...resolved.missing, ...read.missing])].sort();
  if (missing.length)
    throw new UserError(
      `the plan needs these environment variables, as when it was made: ${missing.join(', ')} (a secret's value is read again, and every value the config read is masked in the output)`,
    );
  out.addSecrets([...resolved.values, ...read.values]);
  return resolved.plan;
}

/** Why a saved plan was made for another release than the server runs now (an upgrade in between), if it was. */
function releaseMismatch(planned: PlanServer, now: ServerInfo): string | undefined {
  if (!planned.flavour || !planned.version) return 'the plan file does not say which release it was made for';
  const then = describeServer({ flavour: planned.flavour, version: planned.version });
  if (planned.flavour === now.flavour && planned.version === now.version) return undefined;
  return `the plan was made for ${then}, but the server runs ${describeServer(now)}${now.assumed ? ' (--server-version)' : ''}`;
}

/**
 * Result lines go out together, at most every 100 ms: written one by one, each cost a system call
 * (on a pipe, as in CI, ~0.2 ms of CPU: a sixth of a large apply's CPU).
 */
function batchedLines(write: (text: string) => void): { add(line: string): void; flush(): void } {
  let pending: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!pending.length) return;
    const text = pending.join('');
    pending = [];
    write(text);
  };
  return {
    add(line) {
      pending.push(line.endsWith('\n') ? line : `${line}\n`);
      timer ??= setTimeout(flush, 100);
    },
    flush,
  };
}

async function confirm(out: Output): Promise<boolean> {
  const rl = createInterface({ input: out.stdin, output: out.promptStream() });
  const answer = await rl.question(out.err.bold("Apply these changes? Only 'yes' will be accepted: "));
  rl.close();
  return answer.trim() === 'yes';
}

export async function applyCommand(planFile: string | undefined, opts: ApplyCommandOptions, out: Output): Promise<number> {
  // From here to the lock's release, a signal in any phase gives the lock back before the process ends.
  const locked: LockState = { changing: false };
  const guard = guardLock(locked, out);
  let code: number;
  try {
    code = await applyLocked(planFile, opts, out, locked);
  } catch (e) {
    await guard.release();
    if (locked.tally) out.stderr(locked.tally());
    throw e;
  }
  const failed = await guard.release();
  // The request count said last: every request counted, the lock's release included.
  if (locked.tally) out.stderr(locked.tally());
  return failed ?? code;
}

/** What apply works from: the plan (made now, or read from a file and checked against the server) and what it runs against. */
interface Prepared {
  plan: Plan;
  client: GiteaClient;
  server: ServerInfo;
  /** The plan's scopes with their facts, as planned or checked now: the executor hands kinds these. */
  scopes: Map<string, Scope>;
  forbidden: string[];
}

async function applyLocked(planFile: string | undefined, opts: ApplyCommandOptions, out: Output, locked: LockState): Promise<number> {
  const prepared = planFile ? await prepareSavedPlan(planFile, opts, out, locked) : await prepareNewPlan(opts, out, locked);
  const { plan } = prepared;
  if (plan.changes.length === 0) return reportWithheld(plan, out) ? EXIT.error : EXIT.ok;
  if (prepared.forbidden.length) {
    out.stderr(out.err.red(`Refusing the plan: ${inert(prepared.forbidden.join('; '))}. No flag lifts this: plan again.`));
    return EXIT.unsafe;
  }
  if (plan.unsafe.length && !opts.force) {
    out.stderr(out.err.red(`Refusing an unsafe plan: ${inert(plan.unsafe.join('; '))}. Pass --force to apply it anyway.`));
    return EXIT.unsafe;
  }
  if (!opts.yes && !planFile) {
    if (!out.stdin.isTTY) throw new UserError('apply asks for confirmation, but this is not a terminal: pass --yes, or apply a saved plan file');
    if (!(await confirm(out))) {
      out.stderr('Apply cancelled: nothing was changed.');
      return EXIT.error;
    }
  }
  return applyChanges(prepared, out, locked);
}

async function prepareNewPlan(opts: ApplyCommandOptions, out: Output, locked: LockState): Promise<Prepared> {
  const { plan, client, server, scopes } = await computePlan(opts, out, async (c, _server, loaded) => {
    await takeLock(c, opts, out, locked, lockNameOf(loaded.config.policy));
  });
  printPlan(plan, opts.format, out);
  return { plan, client, server, scopes, forbidden: [] };
}

/** A saved plan: applied only to the server given beside the credentials, on the release it was made for, and only if it still does what it shows. */
async function prepareSavedPlan(planFile: string, opts: ApplyCommandOptions, out: Output, locked: LockState): Promise<Prepared> {
  // The plan already fixes the configuration (and the policy it was made with): another one cannot apply.
  if (opts.config?.length) throw new UserError(`apply ${planFile} takes no -c/--config: the plan file already fixes the configuration. Plan again with -c to change it.`);
  if (opts.shard !== undefined) throw new UserError(`apply ${planFile} takes no --shard: the plan file already fixes what is applied. Plan again with --shard to change it.`);
  if (opts.changedOnly !== undefined) throw new UserError(`apply ${planFile} takes no --changed-only: the plan file already fixes what is applied. Plan again with --changed-only to change it.`);
  const saved = readPlanFile(planFile, out);
  // A credential goes only to a server given beside it (issue 16): never to one a (possibly hand-edited) file names.
  const url = opts.url ?? out.env.FORGEFORM_URL;
  if (!url)
    throw new UserError(
      `apply ${planFile}: say the server with --url or FORGEFORM_URL (the plan was made for ${saved.server.url}): forgeform sends credentials only to a server given beside them, never to one a file names`,
    );
  const client = await makeClient({ ...opts, url }, out);
  if (client.baseUrl !== saved.server.url.replace(/\/+$/, ''))
    throw new UserError(`the plan was made for ${saved.server.url}, not ${client.baseUrl}: refusing to apply it elsewhere`);
  const server = await checkServer(client, opts, out);
  // The lock the plan was made with (its policy, as the plan shows it).
  await takeLock(client, opts, out, locked, lockNameOf(saved.policy));
  const otherRelease = releaseMismatch(saved.server, server);
  if (otherRelease) throw new UserError(`${otherRelease}: refusing to apply it, as what its requests do depends on the release. Plan again.`);
  const verified = await verifySavedPlan(saved, client, kinds, server);
  printPlan(verified.plan, opts.format, out);
  if (verified.mismatches.length)
    throw new UserError(
      `Refusing the plan file: it does not do what it shows, so nothing was changed:\n${verified.mismatches.map((m) => `  ${formatDiagnostic(m)}`).join('\n')}\nMake the plan again with forgeform plan --out.`,
    );
  refuseStale(verified.plan.changes, verified.refused, out);
  const plan = { ...verified.plan, unsafe: verified.verdict.unsafe };
  return { plan, client, server, scopes: verified.scopes, forbidden: verified.verdict.forbidden };
}

/**
 * A saved plan runs whole or not at all (Terraform refuses a stale saved plan before any write): every
 * change was checked against the server before this point, and one that no longer holds refuses them all,
 * each named, before the first write (the lock aside).
 */
function refuseStale(changes: Change[], refused: Map<string, Diagnostic>, out: Output): void {
  if (!refused.size) return;
  const stale = changes.flatMap((change) => {
    const why = refused.get(change.id);
    return why ? [{ change, outcome: 'failed' as const, error: describeDiagnostic(why) }] : [];
  });
  for (const r of stale) out.stdout(renderResultLine(r, out.out, kindTitles(kinds)));
  const n = `${stale.length} of ${changes.length} change${changes.length === 1 ? '' : 's'}`;
  throw new UserError(`Refusing the plan file: ${n} no longer ${stale.length === 1 ? 'holds' : 'hold'} on the server as it is now (✗ above), so nothing was changed. Plan again (forgeform plan --out) and apply the new plan.`);
}

/** Objects the plan left out for a problem of their own: everything else is applied, and the run fails. */
function reportWithheld(plan: Plan, out: Output): boolean {
  for (const w of plan.withheld ?? []) out.stdout(`${out.out.red('✗')} Not applied: ${inert(w)}`);
  if (plan.withheld?.length) out.stderr(out.err.red(`${withheldLine(plan.withheld.length)}: not applied.`));
  return Boolean(plan.withheld?.length);
}

/** Runs the changes, prints each result and the summary, then looks for duplicates another run made meanwhile. */
async function applyChanges({ plan, client, server, scopes }: Prepared, out: Output, locked: LockState): Promise<number> {
  const before = client.requestCount;
  // While changes run, a signal stops new ones (src/cli/interrupt.ts); the lock is given back at the end as usual.
  locked.changing = true;
  const resultLines = batchedLines((text) => out.stdout(text));
  const finished: ChangeResult[] = [];
  // A second signal: what was done is printed, the lock given back, then the process ends.
  const stop = stopOnSignals(out, async (first) => {
    resultLines.flush();
    out.stdout(stoppedSummary(first, finished, plan.changes.length));
    return (await locked.release?.()) ?? SIGNAL_EXIT[first];
  });
  let results;
  try {
    results = await execute(plan.changes, {
      client,
      kinds,
      policy: plan.policy,
      server,
      scopes,
      onResult: (r) => {
        finished.push(r);
        resultLines.add(renderResultLine(r, out.out, kindTitles(kinds)));
      },
      shouldStop: () => stop.signal !== undefined,
      notStarted: NOT_STARTED,
    });
  } finally {
    resultLines.flush();
    stop.dispose();
    locked.changing = false;
  }
  const writes = client.requestCount - before;
  out.stdout(renderApplySummary(results, out.out));
  if (stop.signal) out.stdout(interruptedSummary(stop.signal, results));
  // Said last (applyCommand), once the duplicate check and the lock's release are sent too: "in all" is every request of the run.
  locked.tally = () => `${writes} write requests (${client.requestCount} in all${client.retryCount ? `, ${client.retryCount} retried` : ''}).`;
  // Another apply at the same time may have created the same names: read again where we created.
  const beforeCheck = client.requestCount;
  const concurrent = await findConcurrentDuplicates(results, { client, kinds, policy: plan.policy, server, scopes });
  for (const line of describeDuplicates(concurrent, kinds)) out.stdout(`${out.out.red('✗')} ${inert(line)}`);
  for (const u of concurrent.unchecked) out.stderr(out.err.yellow(`warning: could not read the ${u.kind}s of ${u.scope} again to look for objects another run created at the same time: ${inert(u.error)}`));
  if (client.requestCount > beforeCheck) out.stderr(`${client.requestCount - beforeCheck} requests to read again where objects were created, for duplicates made by another run at the same time.`);
  const inconsistent = inconsistentResults(results).length;
  if (inconsistent)
    out.stderr(
      out.err.red(
        `error: inconsistent result after apply: the server kept other values than sent for ${inconsistent} change${inconsistent === 1 ? '' : 's'} (✗ above), so the next plan shows ${inconsistent === 1 ? 'it' : 'them'} again. The plan should have refused what this release does not take: please report it, with the release.`,
      ),
    );
  if (stop.signal) return SIGNAL_EXIT[stop.signal];
  if (reportWithheld(plan, out)) return EXIT.error;
  return results.every((r) => r.outcome === 'done') && !inconsistent && concurrent.duplicates.length === 0 ? EXIT.ok : EXIT.error;
}
