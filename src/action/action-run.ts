import * as core from '@actions/core';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Plan } from '../plan/types.js';
import { kinds } from '../kinds/index.js';
import { kindTitles } from '../model/index.js';
import { colors } from '../render/color.js';
import { mdCode, mdCodeBlock, mdText } from '../render/inert.js';
import { renderPlan } from '../render/render.js';
import { summaryLine } from '../render/text.js';
import { CLI_EXIT, runCli, type CliRun } from './cli.js';
import { runUrl, workspacePath, type RunnerContext } from './context.js';
import { Forge } from './forge.js';
import { InputError, type Inputs } from './inputs.js';
import { FOLD_LINES, foldIfLong } from './markdown.js';
import type { Secrets } from './secrets.js';

/** `file:line:col: message`, as the CLI reports every configuration error. */
const LOCATED = /^(.+?):(\d+):(\d+): (.+)$/;

/** An expected failure, told in the user's words (details already in annotations or the summary). */
export class ActionFailure extends Error {}

/** The CLI could not plan: its errors, as they are listed in the summary and the comment. */
export class PlanFailure extends ActionFailure {
  constructor(
    message: string,
    readonly errors: string[],
  ) {
    super(message);
  }
}

export interface PlanRun {
  code: number;
  /** The plan as the CLI printed it (`--format json`): secrets already shown as (sensitive). */
  plan: Plan;
  /** The saved plan file: secrets as references, comparable with another plan file. */
  file: string;
}

export class ActionRun {
  private readonly tmp: string;
  private forgeClient: Forge | undefined;
  private authors: Promise<string[]> | undefined;
  private link: Promise<string | undefined> | undefined;

  constructor(
    readonly inputs: Inputs,
    readonly ctx: RunnerContext,
    readonly cwd: string,
    readonly secrets: Secrets,
    /** The managed server, fixed by the workflow (trust.ts). */
    readonly url: string,
  ) {
    const base = ctx.tempDir || tmpdir();
    mkdirSync(base, { recursive: true });
    this.tmp = mkdtempSync(join(base, 'forgeform-'));
  }

  /** Removes the token files (the plan files stay: the plan-file output names them). */
  cleanUp(): void {
    for (const name of ['read-token', 'write-token']) rmSync(join(this.tmp, name), { force: true });
  }

  /**
   * The token for the managed server, handed to the CLI in a file (mode 0600) with --token-file,
   * never in a variable: a configuration reads variables (`${NAME}`), not files. Planning uses
   * `plan-token` when given (a read-only token); writing uses `token`.
   */
  private tokenFile(write: boolean): string {
    const token = (write ? '' : this.inputs.planToken) || this.inputs.token || process.env.FORGEFORM_TOKEN || '';
    if (!token) throw new InputError(write ? 'the input token (or FORGEFORM_TOKEN) is required to apply' : 'the input plan-token or token (or FORGEFORM_TOKEN) is required');
    const file = join(this.tmp, write ? 'write-token' : 'read-token');
    writeFileSync(file, token, { mode: 0o600 });
    return file;
  }

  cli(args: string[], write: boolean): Promise<CliRun> {
    return runCli([...args, '--token-file', this.tokenFile(write)], { cwd: this.cwd });
  }

  /** --url and --concurrency: every command. */
  serverArgs(): string[] {
    const { concurrency } = this.inputs;
    return ['--url', this.url, ...(concurrency ? ['--concurrency', concurrency] : [])];
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
    await this.summary(`### forgeform ${what} failed\n\n${mdCodeBlock(errors.length ? errors : ['see the log of this step'], 'text').join('\n')}\n`);
    this.outputs({ 'exit-code': String(run.code), 'has-changes': 'false', unsafe: 'false', summary: errors.at(-1) ?? `forgeform ${what} failed` });
    throw new PlanFailure(`forgeform ${what} failed (exit ${run.code}): ${errors.length} error(s), listed in the annotations and the step summary`, errors);
  }

  /** `forgeform plan --format json --out FILE --detailed-exitcode`: exit 0, 2 or 3 gives a plan. */
  async plan(file: string, opts: { changedOnly?: string } = {}): Promise<PlanRun> {
    const { target, rotateSecrets, shard, config } = this.inputs;
    mkdirSync(dirname(file), { recursive: true });
    const args = [
      'plan',
      ...config.flatMap((c) => ['-c', c]),
      ...this.serverArgs(),
      ...['--format', 'json', '--out', file, '--detailed-exitcode'],
      ...target.flatMap((t) => ['--target', t]),
      ...(shard ? ['--shard', shard] : []),
      ...(opts.changedOnly ? ['--changed-only', opts.changedOnly] : []),
      ...(rotateSecrets ? ['--rotate-secrets'] : []),
    ];
    const run = await this.cli(args, false);
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
    const text = renderPlan(plan, this.inputs.format, { colors: colors(false), kindTitle: kindTitles(kinds) });
    if (text.split('\n').length > FOLD_LINES) {
      core.startGroup(`forgeform plan: ${oneLine(plan)} (expand for the changes)`);
      this.info(text);
      core.endGroup();
    } else {
      this.info(text);
    }
  }

  /** The heading every comment, summary and issue of this configuration starts with: what and which part. */
  heading(what: string): string {
    const { config, shard, workingDirectory } = this.inputs;
    const where = `${workingDirectory !== '.' ? `${workingDirectory}/` : ''}${config.join(', ') || 'forgeform.yaml'}`;
    return `### forgeform ${what} · ${mdCode(where)}${shard ? ` · shard ${mdText(shard)}` : ''}`;
  }

  /** The link to this workflow run, as the forge running it addresses runs. */
  runLink(): Promise<string | undefined> {
    this.link ??= (async () => {
      const version = this.ctx.forge !== 'github' && this.ctx.apiUrl && this.inputs.githubToken ? await this.forge('').version() : undefined;
      return runUrl(this.ctx, version);
    })();
    return this.link;
  }

  /**
   * The plan for people: the deletions first (a cut of a long comment never hides one), unsafe
   * reasons, the plan, then which commit, when and which run.
   */
  async planMarkdown(plan: Plan, what = 'plan'): Promise<string> {
    const banner = plan.unsafe.length
      ? `> [!CAUTION]\n> **This plan is unsafe: apply will refuse it without \`force: true\`.**\n${plan.unsafe.map((u) => `> - ${mdText(u)}`).join('\n')}\n\n`
      : '';
    const sha = this.ctx.sha ? `commit \`${this.ctx.sha.slice(0, 12)}\`` : 'the working tree';
    const link = await this.runLink();
    const when = new Date().toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
    const body = foldIfLong(renderPlan(plan, 'markdown', { colors: colors(false), kindTitle: kindTitles(kinds) })).replace(/^### forgeform plan\n/, '');
    return `${this.heading(what)}\n\n${banner}${deletions(plan)}${body}\n<sub>Planned ${sha} at ${when}${link ? ` · [workflow run](${link})` : ''}.</sub>\n`;
  }

  async summary(markdown: string): Promise<void> {
    if (!process.env.GITHUB_STEP_SUMMARY) return;
    await core.summary.addRaw(this.secrets.redact(markdown), true).write();
  }

  outputs(values: Record<string, string>): void {
    for (const [k, v] of Object.entries(values)) core.setOutput(k, this.secrets.redact(v));
  }

  planOutputs(p: PlanRun, exitCode: number): void {
    this.outputs({ 'has-changes': String(differs(p.plan)), unsafe: String(p.plan.unsafe.length > 0), summary: oneLine(p.plan), 'plan-file': p.file, 'exit-code': String(exitCode) });
  }

  forge(purpose: string): Forge {
    const { apiUrl, repository } = this.ctx;
    const token = this.inputs.githubToken;
    if (!apiUrl || !repository || !token)
      throw new InputError(`${purpose} needs the forge that runs the workflow: GITHUB_API_URL and GITHUB_REPOSITORY (set by the runner) and the github-token input`);
    this.forgeClient ??= new Forge(apiUrl, token, repository.owner, repository.repo);
    return this.forgeClient;
  }

  /** The workflow's own user on the forge: the only author whose comments and issues are adopted. */
  me(): Promise<string[]> {
    this.authors ??= this.forge('finding the workflow user').me();
    return this.authors;
  }

  /** Identifies this configuration's comment, so that two configs (or shards) planned in one PR keep one comment each. */
  marker(): string {
    return `forgeform:plan dir=${this.inputs.workingDirectory} config=${this.inputs.config.join(',') || 'forgeform.yaml'}${this.inputs.shard ? ` shard=${this.inputs.shard}` : ''}`;
  }

  tempFile(name: string): string {
    return join(this.tmp, name);
  }
}

export function oneLine(plan: Plan): string {
  return plan.changes.length ? summaryLine(plan) : 'No changes.';
}

/** Changes to make, or a difference no change can fix alone (duplicates of a declared label): both are drift. */
export function differs(plan: Plan): boolean {
  return plan.changes.length > 0 || (plan.drift?.length ?? 0) > 0;
}

/** Deletions listed before everything else, capped so that the list itself always fits. */
export function deletions(plan: Plan): string {
  const gone = plan.changes.filter((c) => c.action === 'delete' || c.action === 'replace');
  if (!gone.length) return '';
  // Names are the server's: a key in a code span it cannot close, the scope escaped (src/render/inert.ts).
  const lines = gone.map((c) => `- **${c.action}** ${c.kind} ${mdCode(c.key)} in ${mdText(c.scope)}`);
  let shown = lines;
  while (shown.join('\n').length > 20_000) shown = shown.slice(0, Math.floor(shown.length * 0.8));
  const more = lines.length - shown.length;
  return `**Deletes ${gone.length}:**\n${shown.join('\n')}${more ? `\n- … and ${more} more (in the step summary)` : ''}\n\n`;
}

/** Environment variables a saved plan refers to (`{"$env": "…${NAME}…"}`): their values are secrets. */
function referencedInPlan(plan: unknown): string[] {
  // Every variable the config read (Plan.reads: a field that is not secret too), and every secret's reference.
  const reads = (plan as { reads?: unknown }).reads;
  const names = new Set<string>(Array.isArray(reads) ? reads.filter((n): n is string => typeof n === 'string') : []);
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
