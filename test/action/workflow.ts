/**
 * Runs a committed workflow file as a runner runs it (GitHub Actions, or act_runner for Gitea and
 * Forgejo): the trigger is matched against the event, each job's `if:`, `strategy.matrix`,
 * `environment` and steps are evaluated from `github`, `vars`, `secrets`, `matrix`, `env` and
 * `steps`, and the steps run in order with the runner's status rules. A step is one of:
 *
 * - `actions/checkout@…`: a clone of the test's git repository at `with.ref` (default: the event's
 *   commit), as the workspace;
 * - the forgeform action (`…/forgeform@…`): action.yml run from the bundle by runner.ts;
 * - `actions/upload-artifact@…`: recorded; a second upload of one name fails (HTTP 409) unless
 *   `overwrite: true`, as actions/upload-artifact@v4 does;
 * - `run:`: bash.
 *
 * Any other `uses:` (a cache among them) is an error: the examples must not need what the test
 * cannot run faithfully.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { condition, interpolate, toText, type Scope } from './expressions.js';
import { runAction, type StepResult } from './runner.js';

export interface WorkflowStep {
  id?: string;
  name?: string;
  if?: unknown;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
  'continue-on-error'?: boolean;
}
export interface WorkflowJob {
  if?: unknown;
  'runs-on'?: unknown;
  environment?: unknown;
  env?: Record<string, unknown>;
  strategy?: { 'fail-fast'?: boolean; matrix?: Record<string, unknown> };
  steps: WorkflowStep[];
}
export interface Workflow {
  name?: string;
  on: unknown;
  env?: Record<string, unknown>;
  permissions?: unknown;
  concurrency?: { group: string; 'cancel-in-progress'?: boolean };
  jobs: Record<string, WorkflowJob>;
}

export function readWorkflow(file: string): Workflow {
  return parse(readFileSync(file, 'utf8')) as Workflow;
}

export interface Event {
  name: 'pull_request' | 'push' | 'schedule' | 'workflow_dispatch';
  payload: Record<string, unknown>;
  /** GITHUB_SHA and GITHUB_REF of the event. */
  sha: string;
  ref: string;
}

/** The world around the runner: the forge running the workflow, the repository, the action. */
export interface Runner {
  kind: 'github' | 'gitea';
  /** The repository's git directory (what actions/checkout clones). */
  origin: string;
  /** The forge running the workflow: `http://host:port` (its API is `/api/v1` on Gitea). */
  forgeUrl: string;
  repository: string;
  /** The job token (github.token) and the user it writes as. */
  jobToken: string;
  vars: Record<string, string>;
  secrets: Record<string, string>;
  actionDir: string;
  /** Artifacts uploaded so far in this run of the workflow, by name. */
  artifacts?: Map<string, string>;
  /** Increasing per run. */
  runId: number;
}

export interface StepRun {
  name: string;
  outcome: 'success' | 'failure' | 'skipped';
  outputs: Record<string, string>;
  log: string;
  result?: StepResult;
}
export interface JobRun {
  name: string;
  matrix: Record<string, unknown>;
  environment?: unknown;
  runsOn?: unknown;
  result: 'success' | 'failure' | 'skipped';
  steps: StepRun[];
  /** The forgeform step's result (the one step the examples run it in). */
  forgeform?: StepResult;
}

const asList = (v: unknown): string[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v.map(String) : [String(v)]);

/** A branch filter (`branches: [main]`, glob `*` within a segment, `**` across). */
function branchMatches(filters: unknown, branch: string): boolean {
  const list = asList(filters);
  if (!list) return true;
  const glob = (f: string) =>
    f
      .split('**')
      .map((part) => part.replace(/[.+^$|()[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
      .join('.*');
  return list.some((f) => new RegExp(`^${glob(f)}$`).test(branch));
}

/** Whether the workflow's `on:` runs for this event. */
export function triggers(w: Workflow, e: Event): boolean {
  const on = typeof w.on === 'string' ? { [w.on]: {} } : Array.isArray(w.on) ? Object.fromEntries(w.on.map((k: string) => [k, {}])) : (w.on as Record<string, Record<string, unknown> | null>);
  if (!(e.name in on)) return false;
  const f = on[e.name] ?? {};
  if (e.name === 'pull_request') {
    const types = asList(f.types) ?? ['opened', 'synchronize', 'reopened'];
    const pr = e.payload.pull_request as { base: { ref: string } };
    return types.includes(String(e.payload.action)) && branchMatches(f.branches, pr.base.ref);
  }
  if (e.name === 'push') return branchMatches(f.branches, e.ref.replace(/^refs\/heads\//, ''));
  return true;
}

function git(cwd: string, args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** Cartesian product of the matrix's lists (`include`/`exclude` are not used by the examples). */
function matrixOf(job: WorkflowJob, scope: Scope): Record<string, unknown>[] {
  const m = job.strategy?.matrix;
  if (!m) return [{}];
  let rows: Record<string, unknown>[] = [{}];
  for (const [key, raw] of Object.entries(m)) {
    if (key === 'include' || key === 'exclude') throw new Error('the test runner does not expand matrix include/exclude');
    const values = interpolate(raw, scope);
    if (!Array.isArray(values)) throw new Error(`matrix.${key} is not a list`);
    rows = rows.flatMap((r) => values.map((v) => ({ ...r, [key]: v })));
  }
  return rows;
}

const evalMap = (m: Record<string, unknown> | undefined, scope: Scope): Record<string, string> =>
  Object.fromEntries(Object.entries(m ?? {}).map(([k, v]) => [k, toText(interpolate(v, scope))]));

function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((res, rej) => {
    const child = spawn('bash', ['-e', '-c', script], { cwd, env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', rej);
    child.on('close', (code) => res({ code, out }));
  });
}

/** Runs every job of the workflow for the event (jobs of a matrix one after the other). Undefined: not triggered. */
export async function runWorkflow(w: Workflow, e: Event, r: Runner): Promise<JobRun[] | undefined> {
  if (!triggers(w, e)) return undefined;
  const runs: JobRun[] = [];
  r.artifacts ??= new Map();
  const apiUrl = r.kind === 'github' ? r.forgeUrl + '/api/v1' : `${r.forgeUrl}/api/v1`;
  const github = {
    event: e.payload,
    event_name: e.name,
    sha: e.sha,
    ref: e.ref,
    repository: r.repository,
    repository_owner: r.repository.split('/')[0],
    run_id: String(r.runId),
    run_number: String(r.runId % 1000),
    run_attempt: '1',
    token: r.jobToken,
    server_url: r.forgeUrl,
    api_url: apiUrl,
  };
  for (const [name, job] of Object.entries(w.jobs)) {
    const base: Scope = { github, vars: r.vars, secrets: r.secrets, env: evalMap(w.env, { github, vars: r.vars, secrets: r.secrets }), inputs: {} };
    for (const matrix of matrixOf(job, base)) {
      const scope: Scope = { ...base, matrix, steps: {}, job: { status: 'success' }, runner: { os: 'Linux', temp: '' } };
      const run: JobRun = { name, matrix, result: 'success', steps: [] };
      runs.push(run);
      if (!condition(job.if, scope, { failed: false, cancelled: false })) {
        run.result = 'skipped';
        continue;
      }
      run.environment = interpolate(job.environment, scope);
      run.runsOn = job['runs-on'];
      const root = mkdtempSync(join(tmpdir(), 'forgeform-job-'));
      const workspace = join(root, 'workspace');
      mkdirSync(workspace);
      const jobEnv = { ...(scope.env as Record<string, string>), ...evalMap(job.env, scope) };
      const status = { failed: false, cancelled: false };
      for (const [i, step] of job.steps.entries()) {
        const stepScope: Scope = { ...scope, env: jobEnv };
        const label = step.id ?? step.name ?? step.uses ?? `step ${i + 1}`;
        if (!condition(step.if, stepScope, status)) {
          run.steps.push({ name: label, outcome: 'skipped', outputs: {}, log: '' });
          if (step.id) (scope.steps as Scope)[step.id] = { outputs: {}, outcome: 'skipped', conclusion: 'skipped' };
          continue;
        }
        const withs = evalMap(step.with, stepScope);
        const env = { ...jobEnv, ...evalMap(step.env, stepScope) };
        let outcome: StepRun['outcome'] = 'success';
        let outputs: Record<string, string> = {};
        let log = '';
        let result: StepResult | undefined;
        const uses = step.uses ?? '';
        if (/^actions\/checkout@/.test(uses)) {
          git(root, ['clone', '--quiet', r.origin, workspace]);
          git(workspace, ['checkout', '--quiet', '--detach', withs.ref || e.sha]);
        } else if (/(^|\/)forgeform@/.test(uses)) {
          result = await runAction(r.actionDir, withs, {
            workspace,
            apiUrl,
            repository: r.repository,
            githubToken: r.jobToken,
            event: e.payload,
            eventName: e.name,
            sha: e.sha,
            env: {
              ...env,
              GITHUB_SERVER_URL: r.forgeUrl,
              GITHUB_REF: e.ref,
              GITHUB_RUN_ID: String(r.runId),
              GITHUB_RUN_NUMBER: String(r.runId % 1000),
              ...(r.kind === 'gitea' ? { GITEA_ACTIONS: 'true' } : {}),
            },
          });
          outputs = result.outputs;
          log = result.stdout + result.stderr;
          run.forgeform = result;
          if (result.code !== 0) outcome = 'failure';
        } else if (/^actions\/upload-artifact@/.test(uses)) {
          const artifact = withs.name || 'artifact';
          if (r.artifacts.has(artifact) && withs.overwrite !== 'true') {
            outcome = 'failure';
            log = `Failed to CreateArtifact: an artifact with this name already exists on the workflow run (409)`;
          } else {
            const path = withs.path!.startsWith('/') ? withs.path! : join(workspace, withs.path!);
            if (!existsSync(path)) log = `No files were found with the provided path: ${withs.path}. No artifacts will be uploaded.`;
            else r.artifacts.set(artifact, readFileSync(path, 'utf8'));
          }
        } else if (step.run !== undefined) {
          const script = toText(interpolate(step.run, stepScope));
          const b = await bash(script, workspace, { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', GITHUB_WORKSPACE: workspace, ...env });
          log = b.out;
          if (b.code !== 0) outcome = 'failure';
        } else {
          throw new Error(`the test runner cannot run "uses: ${uses}": a step the examples must not need`);
        }
        run.steps.push({ name: label, outcome, outputs, log, ...(result ? { result } : {}) });
        if (step.id) (scope.steps as Scope)[step.id] = { outputs, outcome, conclusion: outcome };
        if (outcome === 'failure' && !step['continue-on-error']) status.failed = true;
      }
      run.result = status.failed ? 'failure' : 'success';
    }
  }
  return runs;
}
