import * as core from '@actions/core';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Plan } from '../plan/types.js';
import { kinds } from '../kinds/index.js';
import { kindTitles } from '../model/index.js';
import { colors } from '../render/color.js';
import { renderPlanMarkdown } from '../render/markdown.js';
import { renderPlanText, summaryLine } from '../render/text.js';
import { CLI_EXIT, runCli, type CliRun } from './cli.js';
import { upsertStickyComment } from './comment.js';
import { runnerContext, workspacePath, type RunnerContext } from './context.js';
import { reportDrift } from './drift.js';
import { Forge, ForgeError } from './forge.js';
import { InputError, readInputs, type Command, type Inputs } from './inputs.js';
import { FOLD_LINES, foldIfLong } from './markdown.js';
import { referencedVariables, Secrets } from './secrets.js';
import { staleReasons } from './stale.js';

/** `file:line:col: message`, as the CLI reports every configuration error. */
const LOCATED = /^(.+?):(\d+):(\d+): (.+)$/;

/** An expected failure, told in the user's words (details already in annotations or the summary). */
class ActionFailure extends Error {}

interface PlanRun {
  code: number;
  /** The plan as the CLI printed it (`--format json`): secrets already shown as (sensitive). */
  plan: Plan;
  /** The saved plan file: secrets as references, comparable with another plan file. */
  file: string;
}

class ActionRun {
  private readonly tmp: string;

  constructor(
    readonly inputs: Inputs,
    readonly ctx: RunnerContext,
    readonly cwd: string,
    readonly secrets: Secrets,
  ) {
    const base = ctx.tempDir || tmpdir();
    mkdirSync(base, { recursive: true });
    this.tmp = mkdtempSync(join(base, 'forgeform-'));
  }

  cli(args: string[]): Promise<CliRun> {
    return runCli(args, { cwd: this.cwd, extraEnv: this.inputs.token ? { FORGEFORM_TOKEN: this.inputs.token } : {} });
  }

  serverArgs(): string[] {
    const { config, url, concurrency } = this.inputs;
    return [...config.flatMap((c) => ['-c', c]), ...(url ? ['--url', url] : []), ...(concurrency ? ['--concurrency', concurrency] : [])];
  }

  info(text: string): void {
    for (const line of this.secrets.redact(text).replace(/\n$/, '').split('\n')) core.info(line);
  }

  /**
   * The CLI's stderr: located errors become annotations (file relative to the workspace, so the
   * forge can show them on the file); the rest is printed. Returns the error lines for the summary.
   */
  relayStderr(stderr: string, failed: boolean): string[] {
    const errors: string[] = [];
    for (const raw of this.secrets.redact(stderr).split('\n')) {
      const line = raw.trimEnd();
      if (!line) continue;
      const m = failed ? LOCATED.exec(line) : null;
      if (m) {
        const file = workspacePath(m[1]!, this.cwd, this.ctx.workspace);
        core.error(m[4]!, { title: 'forgeform configuration', file, startLine: Number(m[2]), startColumn: Number(m[3]) });
        errors.push(`${file}:${m[2]}:${m[3]}: ${m[4]}`);
      } else {
        core.info(line);
        if (failed && !/^Reading the server|^\d+ requests?\.|requests \(\d+ in all\)\.$/.test(line)) errors.push(line);
      }
    }
    return errors;
  }

  /** Exit 1 of the CLI: annotations, a summary listing every error, and a failed step. */
  private async failWith(what: string, run: CliRun): Promise<never> {
    const errors = this.relayStderr(run.stderr, true);
    await this.summary(`### forgeform ${what} failed\n\n\`\`\`text\n${errors.join('\n') || 'see the log of this step'}\n\`\`\`\n`);
    this.outputs({ 'exit-code': String(run.code), 'has-changes': 'false', unsafe: 'false', summary: errors.at(-1) ?? `forgeform ${what} failed` });
    throw new ActionFailure(`forgeform ${what} failed (exit ${run.code}): ${errors.length} error(s), listed in the annotations and the step summary`);
  }

  /** `forgeform plan --format json --out FILE --detailed-exitcode`: exit 0, 2 or 3 gives a plan. */
  async plan(file: string): Promise<PlanRun> {
    const { target, rotateSecrets, shard } = this.inputs;
    mkdirSync(dirname(file), { recursive: true });
    const args = ['plan', ...this.serverArgs(), '--format', 'json', '--out', file, '--detailed-exitcode', ...target.flatMap((t) => ['--target', t]), ...(shard ? ['--shard', shard] : []), ...(rotateSecrets ? ['--rotate-secrets'] : [])];
    const run = await this.cli(args);
    if (run.code !== CLI_EXIT.ok && run.code !== CLI_EXIT.changes && run.code !== CLI_EXIT.unsafe) return this.failWith('plan', run);
    this.relayStderr(run.stderr, false);
    let plan: Plan;
    try {
      plan = JSON.parse(run.stdout) as Plan;
    } catch {
      throw new Error(`forgeform plan printed no JSON plan (exit ${run.code})`);
    }
    for (const name of referencedInPlan(plan)) this.secrets.add(process.env[name]);
    return { code: run.code, plan, file };
  }

  /** The plan in the log, in the chosen format; long plans in a collapsed group. */
  logPlan(plan: Plan): void {
    const text = this.inputs.format === 'json' ? JSON.stringify(plan, null, 2) : this.inputs.format === 'markdown' ? renderPlanMarkdown(plan, kindTitles(kinds)) : renderPlanText(plan, colors(false), kindTitles(kinds));
    const headline = oneLine(plan);
    if (text.split('\n').length > FOLD_LINES) {
      core.startGroup(`forgeform plan: ${headline} (expand for the changes)`);
      this.info(text);
      core.endGroup();
    } else {
      this.info(text);
    }
  }

  /** The plan for people: unsafe reasons first, then the plan, then which commit and when. */
  planMarkdown(plan: Plan): string {
    const banner = plan.unsafe.length
      ? `> [!CAUTION]\n> **This plan is unsafe: apply will refuse it without \`force: true\`.**\n${plan.unsafe.map((u) => `> - ${u}`).join('\n')}\n\n`
      : '';
    const sha = this.ctx.sha ? `commit \`${this.ctx.sha.slice(0, 12)}\`` : 'the working tree';
    const run = this.ctx.runUrl ? ` · [workflow run](${this.ctx.runUrl})` : '';
    const when = new Date().toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
    return `${banner}${foldIfLong(renderPlanMarkdown(plan, kindTitles(kinds)))}\n<sub>Planned ${sha} at ${when}${run}.</sub>\n`;
  }

  async summary(markdown: string): Promise<void> {
    if (!process.env.GITHUB_STEP_SUMMARY) return;
    await core.summary.addRaw(this.secrets.redact(markdown), true).write();
  }

  outputs(values: Record<string, string>): void {
    for (const [k, v] of Object.entries(values)) core.setOutput(k, this.secrets.redact(v));
  }

  planOutputs(p: PlanRun, exitCode: number): void {
    this.outputs({
      'has-changes': String(differs(p.plan)),
      unsafe: String(p.plan.unsafe.length > 0),
      summary: oneLine(p.plan),
      'plan-file': p.file,
      'exit-code': String(exitCode),
    });
  }

  forge(purpose: string): Forge {
    const { apiUrl, repository } = this.ctx;
    const token = this.inputs.githubToken;
    if (!apiUrl || !repository || !token)
      throw new InputError(`${purpose} needs the forge that runs the workflow: GITHUB_API_URL and GITHUB_REPOSITORY (set by the runner) and the github-token input`);
    return new Forge(apiUrl, token, repository.owner, repository.repo);
  }

  /** Identifies this configuration's comment, so that two configs planned in one PR keep one comment each. */
  marker(): string {
    return `forgeform:plan dir=${this.inputs.workingDirectory} config=${this.inputs.config.join(',') || 'forgeform.yaml'}${this.inputs.shard ? ` shard=${this.inputs.shard}` : ''}`;
  }

  tempFile(name: string): string {
    return join(this.tmp, name);
  }
}

function oneLine(plan: Plan): string {
  return plan.changes.length ? summaryLine(plan) : 'No changes.';
}

/** Environment variables a saved plan refers to (`{"$env": "…${NAME}…"}`): their values are secrets. */
function referencedInPlan(plan: unknown): string[] {
  const names = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const e = (v as { $env?: unknown }).$env;
      if (typeof e === 'string') for (const m of e.matchAll(/\$\{([^}]+)\}/g)) names.add(m[1]!);
      else Object.values(v).forEach(walk);
    }
  };
  walk(plan);
  return [...names];
}

// ---- the three commands --------------------------------------------------------------------------

async function planCommand(a: ActionRun): Promise<void> {
  const file = a.inputs.planFile ? resolve(a.cwd, a.inputs.planFile) : a.tempFile('forgeform-plan.json');
  const p = await a.plan(file);
  a.logPlan(p.plan);
  const md = a.planMarkdown(p.plan);
  await a.summary(md);
  a.planOutputs(p, p.code);
  if (a.inputs.comment) {
    if (a.ctx.pullRequest === undefined) {
      core.warning('comment: true, but this run is not for a pull request (no pull_request in the event): no comment was written');
    } else {
      const res = await upsertStickyComment(a.forge('comment: true'), a.ctx.pullRequest, a.marker(), a.secrets.redact(md));
      core.info(`${res.created ? 'Created' : 'Updated'} the plan comment ${res.id} on pull request #${a.ctx.pullRequest}.`);
    }
  }
  if (p.code === CLI_EXIT.unsafe) throw new ActionFailure(`The plan is unsafe: ${p.plan.unsafe.join('; ')}. apply will refuse it without force: true.`);
}

/** The reviewed plan file, or why there is none to apply. */
function readReviewed(path: string): { plan?: Plan; problem?: string } {
  if (!existsSync(path)) return { problem: `there is no reviewed plan at ${path}: was the pull request planned, and its plan file saved?` };
  try {
    const plan = JSON.parse(readFileSync(path, 'utf8')) as Plan;
    if (plan?.format_version !== 1 || !Array.isArray(plan.changes)) return { problem: `${path} is not a forgeform plan file` };
    return { plan };
  } catch (e) {
    return { problem: `${path} cannot be read: ${(e as Error).message}` };
  }
}

async function applyCommand(a: ActionRun): Promise<void> {
  const reviewedPath = a.inputs.planFile ? resolve(a.cwd, a.inputs.planFile) : undefined;
  const reviewed = reviewedPath ? readReviewed(reviewedPath) : undefined;
  // Plan now, in any case: it is what a stale plan is compared with, and what is applied without a reviewed plan.
  const now = await a.plan(a.tempFile('forgeform-plan-now.json'));
  a.logPlan(now.plan);

  const reasons = reviewed ? (reviewed.problem ? [reviewed.problem] : staleReasons(reviewed.plan!, JSON.parse(readFileSync(now.file, 'utf8')) as Plan)) : [];
  if (reasons.length) {
    await a.summary(
      `### forgeform apply refused: the reviewed plan is stale\n\nNothing was applied, because:\n${reasons.map((r) => `- ${r}`).join('\n')}\n\n` +
        `Planned again now — review this plan (re-run the pull request's plan, or open a new pull request), then merge again:\n\n${a.planMarkdown(now.plan)}`,
    );
    a.outputs({ 'has-changes': String(differs(now.plan)), unsafe: String(now.plan.unsafe.length > 0), summary: `Refused a stale plan: ${reasons[0]}`, 'plan-file': now.file, 'exit-code': String(CLI_EXIT.error) });
    throw new ActionFailure(`The reviewed plan is stale, nothing was applied: ${reasons.join('; ')}. Planned again: see the step summary.`);
  }

  const file = reviewedPath ?? now.file;
  const { force, rotateSecrets } = a.inputs;
  const run = await a.cli(['apply', file, ...a.serverArgs(), '--format', 'text', ...(force ? ['--force'] : []), ...(rotateSecrets ? ['--rotate-secrets'] : [])]);
  a.relayStderr(run.stderr, false);
  core.startGroup(`forgeform apply: exit ${run.code}`);
  a.info(run.stdout);
  core.endGroup();
  const last = run.stdout.trimEnd().split('\n').at(-1) ?? '';
  await a.summary(`### forgeform apply\n\n${a.planMarkdown(now.plan)}\n<details open><summary>${last || `exit ${run.code}`}</summary>\n\n\`\`\`text\n${run.stdout.trimEnd()}\n\`\`\`\n\n</details>\n`);
  a.outputs({ 'has-changes': String(differs(now.plan)), unsafe: String(now.plan.unsafe.length > 0), summary: now.plan.changes.length ? last : 'No changes.', 'plan-file': file, 'exit-code': String(run.code) });
  if (run.code === CLI_EXIT.unsafe) throw new ActionFailure(`Refused an unsafe plan: ${now.plan.unsafe.join('; ')}. Set force: true to apply it anyway.`);
  if (run.code !== CLI_EXIT.ok) throw new ActionFailure(`forgeform apply failed (exit ${run.code}): ${last}`);
}

async function driftCommand(a: ActionRun): Promise<void> {
  const forge = a.forge('command: drift');
  const p = await a.plan(a.inputs.planFile ? resolve(a.cwd, a.inputs.planFile) : a.tempFile('forgeform-plan.json'));
  a.logPlan(p.plan);
  const drifted = differs(p.plan);
  const md = a.planMarkdown(p.plan);
  const body = drifted
    ? `### forgeform: the server drifted from the configuration\n\nThe nightly plan found changes that nobody reviewed. Bring the configuration in line (a pull request), or apply it to undo the drift. This issue is updated by every run while the drift lasts, and closed by the first run that finds none.\n\n${md}`
    : `No drift any more: the server matches the configuration.\n\n${md}`;
  await a.summary(md);
  a.planOutputs(p, p.code);
  const outcome = await reportDrift(forge, a.inputs.driftTitle, drifted, a.secrets.redact(body));
  if (outcome.action !== 'none') core.info(`Drift issue #${outcome.issue} ${outcome.action}.`);
}

/** Changes to make, or a difference no change can fix alone (duplicates of a declared label): both are drift. */
function differs(plan: Plan): boolean {
  return plan.changes.length > 0 || (plan.drift?.length ?? 0) > 0;
}

const COMMANDS: Record<Command, (a: ActionRun) => Promise<void>> = { plan: planCommand, apply: applyCommand, drift: driftCommand };

export async function runAction(): Promise<void> {
  const secrets = new Secrets();
  try {
    // Mask before anything can print: the tokens, then every value the config reads from the environment.
    for (const name of ['TOKEN', 'GITHUB_TOKEN']) secrets.add(process.env[`INPUT_${name}`]);
    for (const name of ['FORGEFORM_TOKEN', 'FORGEFORM_PASSWORD']) secrets.add(process.env[name]);
    const inputs = readInputs();
    const ctx = runnerContext();
    const cwd = resolve(ctx.workspace, inputs.workingDirectory);
    if (!existsSync(cwd)) throw new InputError(`working-directory ${inputs.workingDirectory} does not exist`);
    for (const name of referencedVariables(inputs.config.length ? inputs.config : ['forgeform.yaml'], cwd)) secrets.add(process.env[name]);
    await COMMANDS[inputs.command](new ActionRun(inputs, ctx, cwd, secrets));
  } catch (e) {
    // Every error the action expects says what went wrong in the user's words; a stack trace would help no one.
    if (!(e instanceof ActionFailure || e instanceof ForgeError || e instanceof InputError) && e instanceof Error && e.stack) core.debug(secrets.redact(e.stack));
    core.setFailed(secrets.redact(e instanceof Error ? e.message : String(e)));
  }
}
