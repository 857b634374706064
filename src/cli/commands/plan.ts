import { writeFileSync } from 'node:fs';
import { kinds } from '../../kinds/index.js';
import { buildPlan, type PlanError } from '../../plan/planner.js';
import type { Plan } from '../../plan/types.js';
import { renderPlanMarkdown } from '../../render/markdown.js';
import { renderPlanText } from '../../render/text.js';
import { serializePlan } from '../../plan/planfile.js';
import type { LoadedConfig } from '../../config/types.js';
import type { GiteaClient } from '../../gitea/client.js';
import { load, makeClient, type ServerOptions } from '../context.js';
import { EXIT, UserError, type Output } from '../output.js';
import { parseTargets } from '../targets.js';

export interface PlanCommandOptions extends ServerOptions {
  config?: string[];
  out?: string;
  format?: 'text' | 'markdown' | 'json';
  detailedExitcode?: boolean;
  target?: string[];
  syncWriteOnly?: boolean;
  rotateSecrets?: boolean;
}

export function formatPlanErrors(errors: PlanError[]): string {
  return errors
    .map((e) => (e.location ? `${e.location.file}:${e.location.line}:${e.location.col}: ${e.message}` : `error: ${e.message}`))
    .join('\n');
}

/** Reads the server and computes the plan; configuration and server problems end here with exit 1. */
export async function computePlan(opts: PlanCommandOptions, out: Output): Promise<{ plan: Plan; client: GiteaClient; loaded: LoadedConfig }> {
  const loaded = await load(opts.config, out);
  const client = makeClient(opts, out, loaded.config.server?.url);
  const targets = parseTargets(opts.target);
  const { plan, errors } = await buildPlan({
    client,
    loaded,
    kinds,
    options: { syncWriteOnly: Boolean(opts.syncWriteOnly), rotateSecrets: Boolean(opts.rotateSecrets), ...(targets ? { target: targets.object } : {}) },
    ...(targets ? { targets: targets.scope } : {}),
    onProgress: out.progress('Reading the server'),
  });
  if (errors.length) throw new UserError(`${formatPlanErrors(errors)}\nPlanning failed: nothing was changed.`);
  return { plan, client, loaded };
}

export function printPlan(plan: Plan, format: PlanCommandOptions['format'], out: Output): void {
  if (format === 'json') out.stdout(JSON.stringify(plan, null, 2));
  else if (format === 'markdown') out.stdout(renderPlanMarkdown(plan));
  else out.stdout(renderPlanText(plan, out.out));
}

export async function planCommand(opts: PlanCommandOptions, out: Output): Promise<number> {
  const { plan, client, loaded } = await computePlan(opts, out);
  printPlan(plan, opts.format, out);
  if (opts.out) {
    writeFileSync(opts.out, serializePlan(plan, loaded.secrets), { mode: 0o600 });
    out.stderr(`Plan saved to ${opts.out}. Apply it exactly with: forgeform apply ${opts.out}`);
  }
  out.stderr(`${client.requestCount} requests${client.retryCount ? ` (${client.retryCount} retried)` : ''}.`);
  if (plan.unsafe.length) {
    out.stderr(out.err.red(`This plan is unsafe: ${plan.unsafe.join('; ')}. apply will refuse it without --force.`));
    return EXIT.unsafe;
  }
  return opts.detailedExitcode && plan.changes.length ? EXIT.changes : EXIT.ok;
}
