import { kinds } from '../../kinds/index.js';
import { describeDiagnostic, formatDiagnostic, kindTitles, lockNameOf, placeOf, planRequest, targetTypes, type Diagnostic, type Scope, type ServerInfo } from '../../model/index.js';
import { releaseProblems } from '../../plan/field-rules.js';
import { buildPlan, makeKindContext } from '../../plan/planner.js';
import type { Plan } from '../../plan/types.js';
import { renderPlan } from '../../render/render.js';
import type { PlanFormat } from '../../render/formats.js';
import { serializePlanChunks } from '../../plan/planfile.js';
import type { ConfigPath, LoadedConfig, SourceLocation } from '../../config/types.js';
import type { GiteaClient } from '../../gitea/client.js';
import { connect, DEFAULT_CONFIG, LARGE_CONFIG_BYTES, load, type ServerOptions } from '../context.js';
import { checkWritable, writeOutputFile } from '../files.js';
import { EXIT, UserError, type Output } from '../output.js';
import { narrowConfig } from '../../scopes/sections.js';
import { parseShard, shardConfig } from '../shard.js';
import { parseTargets, type Unmatched } from '../targets.js';
import { inert } from '../../render/inert.js';
import { rehearsalFailed, rehearsalHeadline } from '../../render/rehearsal.js';
import type { ReadAnswer } from '../../gitea/client.js';
import type { Replanned } from '../../rehearse/rehearse.js';
import { HELD_NOTICE, lockNotice } from '../../lock/lock.js';

export interface PlanCommandOptions extends ServerOptions {
  config?: string[];
  out?: string;
  format?: PlanFormat;
  detailedExitcode?: boolean;
  target?: string[];
  shard?: string;
  /** --changed-only REF: only what the configuration changed since a git ref (src/cli/changed.ts). */
  changedOnly?: string;
  syncWriteOnly?: boolean;
  /** Each field of a change says where the configuration sets it. */
  explain?: boolean;
  rotateSecrets?: boolean;
  /** --rehearse: apply the plan to a copy of what it read, on a sandbox of the server's release, and plan again there. */
  rehearse?: boolean;
}

/**
 * The same fact found twice at one place is printed once, in its fuller wording: scope resolution and
 * the organisation kind both report a missing organisation, for instance.
 */
function distinct(errors: Diagnostic[]): Diagnostic[] {
  const at = (e: Diagnostic) => placeOf(e) ?? '';
  const said = errors.map(describeDiagnostic);
  return errors.filter(
    (e, i) =>
      errors.findIndex((o, j) => at(o) === at(e) && said[j] === said[i]) === i &&
      !errors.some((o, j) => at(o) === at(e) && said[j] !== said[i] && said[j]!.endsWith(said[i]!)),
  );
}

/**
 * One line per distinct diagnostic, in the order of the config's files and lines (they are found in the order the
 * server answers); one that is in no file says so with `error:`, after them.
 */
export function formatPlanErrors(errors: Diagnostic[]): string {
  return distinct(errors)
    .map((e, i) => ({ e, i }))
    .sort((a, b) => byPlace(a.e, b.e) || a.i - b.i)
    .map(({ e }) => e)
    .map((e) => (placeOf(e) === undefined ? `error: ${formatDiagnostic(e)}` : formatDiagnostic(e)))
    .join('\n');
}

/** File, then line, then column; a diagnostic in no file after every placed one. */
function byPlace(a: Diagnostic, b: Diagnostic): number {
  if (a.file === undefined || b.file === undefined) return (a.file === undefined ? 1 : 0) - (b.file === undefined ? 1 : 0);
  return a.file < b.file ? -1 : a.file > b.file ? 1 : (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0);
}

/**
 * Problems the server-wide kinds find in the config alone (a password written in clear, an SSH key or
 * a hook declared twice, create: on a glob), so that they end the run before any request. A kind
 * that reaches for the server while doing so is left to the planner: its verdict would need it.
 */
async function configOnlyProblems(loaded: LoadedConfig): Promise<Diagnostic[]> {
  const server = { touched: false };
  const offline = new Proxy({} as GiteaClient, {
    get() {
      server.touched = true;
      throw new Error('no server in the config-only check');
    },
  });
  const ctx = makeKindContext(offline, loaded, {}, { kinds });
  const scope = { type: 'server' as const, name: '' };
  const problems: Diagnostic[] = [];
  for (const kind of kinds.filter((k) => k.scopeType === 'server')) {
    server.touched = false;
    let found;
    try {
      found = await kind.desired({ ...planRequest(kind, scope, ctx), entry: loaded.config });
    } catch {
      continue;
    }
    if (server.touched || !found) continue;
    for (const p of found.problems) problems.push({ ...p, ...(p.path ? locateNearest(loaded, p.path) : {}) });
  }
  return problems;
}

function locateNearest(loaded: LoadedConfig, path: ConfigPath): SourceLocation | undefined {
  for (let n = path.length; n > 0; n--) {
    const at = loaded.locate(path.slice(0, n), n === path.length);
    if (at) return at;
  }
  return undefined;
}

/** Reads the server and computes the plan; configuration and server problems end here with exit 1. */
export async function computePlan(
  opts: PlanCommandOptions,
  out: Output,
  /** Called once the server answered, before the first read of its state (apply takes its lock there). */
  connected?: (client: GiteaClient, server: ServerInfo, loaded: LoadedConfig) => Promise<void>,
): Promise<{ plan: Plan; client: GiteaClient; loaded: LoadedConfig; server: ServerInfo; scopes: Map<string, Scope>; rehearsal?: Rehearsing }> {
  // Everything that needs no server is checked before the first request.
  const loaded = await load(opts.config, out);
  const targetSelectors = parseTargets(opts.target, targetTypes(kinds));
  const shard = parseShard(opts.shard, new Set(kinds.flatMap((k) => (k.createsScope && k.target ? [k.target.type] : []))));
  // --target and --shard both narrow the plan: an object is planned when both select it (--target
  // asked first, so that each selector still learns whether it matched anything).
  const selectObject =
    targetSelectors || shard ? (type: string, name: string) => (targetSelectors ? targetSelectors.object(type, name) : true) && (shard ? shard.object(type, name) : true) : undefined;
  if (opts.out) checkWritable(opts.out, '--out');
  const early = await configOnlyProblems(loaded);
  if (early.length) throw new UserError(`${formatPlanErrors(early)}\nPlanning failed: nothing was changed.`);
  const changed = opts.changedOnly === undefined ? undefined : await (await import('../changed.js')).changedSince(opts.changedOnly, opts.config?.length ? opts.config : [DEFAULT_CONFIG], out.env);
  if (changed) out.stderr(changed.summary(loaded.config));
  const selectScope =
    targetSelectors || shard || changed
      ? (scope: Scope) => (targetSelectors ? targetSelectors.scope(scope) : true) && (shard ? shard.scope(scope) : true) && (changed ? changed.scope(scope) : true)
      : undefined;
  // --rehearse keeps the answers of the plan's reads: the copy it rehearses on is made of them (no second pass over the server).
  const answers: ReadAnswer[] | undefined = opts.rehearse ? [] : undefined;
  const { client, server } = await connect(opts, out, loaded.config.server?.url, answers ? (a) => answers.push(a) : undefined);
  await connected?.(client, server, loaded);
  // What the release lacks or its binding rules refuse is known from the config and the preflight: refused before any state is read.
  // FORGEFORM_INTERNAL_SKIP_RELEASE_CHECK: for the rehearsal's own test only (test/e2e/rehearse.test.ts), which shows that
  // a rehearsal reports what this check would have refused. Documented as such in docs/cli.md; never set it otherwise.
  const unavailable = out.env.FORGEFORM_INTERNAL_SKIP_RELEASE_CHECK === '1' ? [] : releaseProblems(kinds, loaded, server);
  if (unavailable.length) throw new UserError(`${formatPlanErrors(unavailable)}\nPlanning failed: nothing was changed.`);
  // A shard (and --changed-only) plans its part of the configuration only, so that it reads nothing it does not plan.
  let config = shard ? shardConfig(loaded.config, shard) : loaded.config;
  if (changed?.narrowing) config = narrowConfig(config, changed.narrowing);
  const planned = config === loaded.config ? loaded : { ...loaded, config };
  const options = { syncWriteOnly: Boolean(opts.syncWriteOnly), rotateSecrets: Boolean(opts.rotateSecrets), ...(opts.explain ? { explain: true } : {}), ...(selectObject ? { selectsObject: selectObject } : {}) };
  const { plan, errors, forbidden, scopes } = await buildPlan({
    client,
    loaded: planned,
    kinds,
    server,
    options,
    ...(selectScope ? { selectsScope: selectScope } : {}),
    onProgress: out.progress('Reading the server', () => `${client.requestCount} requests`),
    ...(large(loaded) ? { onPlanning: out.progress('Planning the declared objects') } : {}),
  });
  // Objects left out for their own problem are named too: fixing the errors alone would not plan them.
  if (errors.length) throw new UserError(`${formatPlanErrors(errors)}${(plan.withheld ?? []).map((w) => `\n${inert(w)}`).join('')}\nPlanning failed: nothing was changed.`);
  // A guard's refusal is a plan that must never run, as apply refuses a saved one (exit 3): no flag lifts it.
  if (forbidden.length) throw new UserError(`${forbidden.map((f) => `Refused: ${inert(f)}`).join('\n')}\nThe plan is refused: nothing was changed. No flag lifts this: change the configuration.`, EXIT.unsafe);
  // A --target that selects nothing is a typo or a stale name: "No changes" for it would be untrue, so the run fails.
  const unmatched = targetSelectors?.unmatched() ?? [];
  if (unmatched.length)
    throw new UserError(`${unmatched.map(describeUnmatched).join('\n')}\nPlanning failed: nothing was changed.`);
  // The plan against the copy, before the rehearsal and after it: the same configuration, selection and server (after it, write-only values are not sent again).
  const replan = async (copy: GiteaClient, after: boolean) => {
    const again = await buildPlan({ client: copy, loaded: planned, kinds, server, options: after ? { ...options, syncWriteOnly: false, rotateSecrets: false } : options, ...(selectScope ? { selectsScope: selectScope } : {}) });
    return { plan: again.plan, scopes: again.scopes, errors: [...again.errors.map(formatDiagnostic), ...again.forbidden] };
  };
  return { plan, client, loaded, server, scopes, ...(answers ? { rehearsal: { answers, replan } } : {}) };
}

/** What plan --rehearse needs from the plan's run: the answers of its reads, and the same plan again against another server. */
interface Rehearsing {
  answers: ReadAnswer[];
  replan: (client: GiteaClient, after: boolean) => Promise<Replanned>;
}

/** Rehearses the plan (src/rehearse/rehearse.ts): the plan with its rehearsal, to render. */
async function rehearsed(plan: Plan, server: ServerInfo, r: Rehearsing, out: Output, lock: { name: string; held: boolean }): Promise<Plan> {
  out.stderr('Rehearsing the plan on a copy of what it read…');
  const { rehearse } = await import('../../rehearse/rehearse.js');
  return { ...plan, rehearsal: await rehearse({ plan, answers: r.answers, kinds, server, replan: r.replan, lock: lock.name, lockHeld: lock.held }) };
}

function describeUnmatched(u: Unmatched): string {
  const near = u.nearest.map((n) => `"${n}"`);
  const hint = !near.length ? '' : u.close ? ` (did you mean ${near.join(' or ')}?)` : ` (the nearest it declares: ${near.join(', ')})`;
  return `error: --target ${inert(JSON.stringify(u.selector))} matches nothing the configuration declares${hint}`;
}

/** A config large enough that its long steps say how far they are. */
function large(loaded: LoadedConfig): boolean {
  return (loaded.bytes ?? 0) >= LARGE_CONFIG_BYTES;
}

export function printPlan(plan: Plan, format: PlanFormat = 'text', out: Output): void {
  out.stdout(renderPlan(plan, format, { colors: out.out, kindTitle: kindTitles(kinds) }));
}

export async function planCommand(opts: PlanCommandOptions, out: Output): Promise<number> {
  // One read of the apply lock, beside the plan's own: a plan made while an apply writes says so, in every format.
  let notice: Promise<string | undefined> = Promise.resolve(undefined);
  const { plan: made, client, loaded, server, rehearsal } = await computePlan(opts, out, async (c, _server, config) => {
    // Never rejects (a failed read is its own notice): nothing waits unhandled while the plan is read.
    notice = lockNotice(c, lockNameOf(config.config.policy));
  });
  const held = await notice;
  if (held) made.warnings.push(held);
  const plan = rehearsal ? await rehearsed(made, server, rehearsal, out, { name: lockNameOf(loaded.config.policy), held: held?.startsWith(HELD_NOTICE) === true }) : made;
  printPlan(plan, opts.format, out);
  if (opts.out) {
    if (large(loaded)) out.stderr(`Writing the plan to ${opts.out}…`);
    // The rehearsal is said, never saved: apply of the file runs against the server, not the copy.
    writeOutputFile(opts.out, serializePlanChunks(made), '--out', 0o600);
    out.stderr(`Plan saved to ${opts.out}. Apply it exactly with: forgeform apply ${opts.out}`);
  }
  out.stderr(`${client.requestCount} requests${client.retryCount ? ` (${client.retryCount} retried)` : ''}.`);
  if (plan.rehearsal && rehearsalFailed(plan.rehearsal)) {
    out.stderr(out.err.red(`The rehearsal failed: ${inert(rehearsalHeadline(plan.rehearsal))}. apply would do the same on the server.`));
    if (!plan.unsafe.length) return EXIT.rehearsalFailed;
  }
  if (plan.unsafe.length) {
    out.stderr(out.err.red(`This plan is unsafe: ${inert(plan.unsafe.join('; '))}. apply will refuse it without --force.`));
    return EXIT.unsafe;
  }
  if (plan.withheld?.length) {
    out.stderr(out.err.red(`${withheldLine(plan.withheld.length)}; everything else is planned, and apply makes it.`));
    return EXIT.error;
  }
  // Drift (duplicates named, not changed) is a difference too: a check of the server must not pass.
  return opts.detailedExitcode && (plan.changes.length || plan.drift?.length) ? EXIT.changes : EXIT.ok;
}

/** How the commands say that declared objects were left out of the plan (Plan.withheld). */
export function withheldLine(n: number): string {
  return `${n} declared object${n === 1 ? '' : 's'} could not be planned (Not planned, above)`;
}
