import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { describeDuplicates, findConcurrentDuplicates } from '../../apply/concurrent.js';
import { execute } from '../../apply/executor.js';
import { checkPreconditions } from '../../apply/preconditions.js';
import { kinds } from '../../kinds/index.js';
import { resolvePlanSecrets } from '../../plan/planfile.js';
import type { Plan } from '../../plan/types.js';
import { renderApplySummary, renderResultLine } from '../../render/text.js';
import { load, makeClient } from '../context.js';
import { interruptedSummary, NOT_STARTED, SIGNAL_EXIT, stopOnSignals } from '../interrupt.js';
import { EXIT, UserError, type Output } from '../output.js';
import { computePlan, printPlan, type PlanCommandOptions } from './plan.js';

export interface ApplyCommandOptions extends PlanCommandOptions {
  yes?: boolean;
  force?: boolean;
}

function readPlanFile(path: string, out: Output): Plan {
  let plan: Plan;
  try {
    plan = JSON.parse(readFileSync(path, 'utf8')) as Plan;
  } catch (e) {
    throw new UserError(`cannot read plan file ${path}: ${(e as Error).message}`);
  }
  if (plan?.format_version !== 1 || !Array.isArray(plan.changes)) throw new UserError(`${path} is not a forgeform plan file (format_version 1)`);
  const resolved = resolvePlanSecrets(plan, process.env);
  if (resolved.missing.length)
    throw new UserError(`the plan needs these environment variables, as when it was made: ${resolved.missing.join(', ')}`);
  out.addSecrets(resolved.values);
  return resolved.plan;
}

async function confirm(out: Output): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const answer = await rl.question(out.err.bold("Apply these changes? Only 'yes' will be accepted: "));
  rl.close();
  return answer.trim() === 'yes';
}

export async function applyCommand(planFile: string | undefined, opts: ApplyCommandOptions, out: Output): Promise<number> {
  let plan: Plan;
  let refused = new Map<string, string>();
  let client;
  if (planFile) {
    plan = readPlanFile(planFile, out);
    const configUrl = opts.config?.length ? (await load(opts.config, out)).config.server?.url : undefined;
    client = makeClient({ ...opts, url: opts.url ?? process.env.FORGEFORM_URL ?? configUrl ?? plan.server }, out);
    if (client.baseUrl !== plan.server.replace(/\/+$/, ''))
      throw new UserError(`the plan was made for ${plan.server}, not ${client.baseUrl}: refusing to apply it elsewhere`);
    printPlan(plan, opts.format, out);
    refused = await checkPreconditions(plan, client, kinds);
  } else {
    ({ plan, client } = await computePlan(opts, out));
    printPlan(plan, opts.format, out);
  }
  if (plan.changes.length === 0) return EXIT.ok;
  if (plan.unsafe.length && !opts.force) {
    out.stderr(out.err.red(`Refusing an unsafe plan: ${plan.unsafe.join('; ')}. Pass --force to apply it anyway.`));
    return EXIT.unsafe;
  }
  if (!opts.yes && !planFile) {
    if (!process.stdin.isTTY) throw new UserError('apply asks for confirmation, but this is not a terminal: pass --yes, or apply a saved plan file');
    if (!(await confirm(out))) {
      out.stderr('Apply cancelled: nothing was changed.');
      return EXIT.error;
    }
  }
  const before = client.requestCount;
  const stop = stopOnSignals(out);
  let results;
  try {
    results = await execute(plan.changes, {
      client,
      kinds,
      refused,
      onResult: (r) => out.stdout(renderResultLine(r, out.out)),
      shouldStop: () => stop.signal !== undefined,
      notStarted: NOT_STARTED,
    });
  } finally {
    stop.dispose();
  }
  const writes = client.requestCount - before;
  out.stdout(renderApplySummary(results, out.out));
  if (stop.signal) out.stdout(interruptedSummary(stop.signal, results));
  out.stderr(`${writes} write requests (${client.requestCount} in all${client.retryCount ? `, ${client.retryCount} retried` : ''}).`);
  // Another apply at the same time may have created the same names: read again where we created.
  const beforeCheck = client.requestCount;
  const concurrent = await findConcurrentDuplicates(results, client, kinds);
  for (const line of describeDuplicates(concurrent, kinds)) out.stdout(`${out.out.red('✗')} ${line}`);
  for (const u of concurrent.unchecked) out.stderr(out.err.yellow(`warning: could not read the ${u.kind}s of ${u.scope} again to look for objects another run created at the same time: ${u.error}`));
  if (client.requestCount > beforeCheck) out.stderr(`${client.requestCount - beforeCheck} requests to read again where objects were created, for duplicates made by another run at the same time.`);
  if (stop.signal) return SIGNAL_EXIT[stop.signal];
  return results.every((r) => r.outcome === 'done') && concurrent.duplicates.length === 0 ? EXIT.ok : EXIT.error;
}

