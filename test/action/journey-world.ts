/**
 * A configuration repository as a team runs it: a git repository holding a copy of
 * examples/gitops, a forge (a sandbox) that hosts it and runs its workflows, and the managed server
 * (another sandbox). Pull requests are opened, pushed to and merged as on the forge's web UI, and
 * each event runs the workflows of the commit it is for (read from git, as a runner reads them),
 * through workflow.ts.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { startSandbox, type Sandbox, type SeedFile } from '../../src/sandbox/index.js';
import { mergePull, openPull, pushToPull } from '../../src/sandbox/domains/issues/pulls.js';
import { apiCall } from '../support/api.js';
import { ROOT } from './runner.js';
import { runWorkflow, type Event, type JobRun, type Workflow } from './workflow.js';

export const ADMIN_TOKEN = 'managed-admin-token-4c1d';
export const PLAN_TOKEN = 'managed-read-only-token-9e3b';
export const BOT_TOKEN = 'forge-job-token-7f2a';
export const FORGE_ADMIN = 'forge-admin-token-1b6c';
export const MALLORY_TOKEN = 'forge-mallory-token-0d4e';
export const BOT_PASSWORD = 'ci-bot-real-password-6a';
export const HOOK_SECRET = 'ci-hook-real-secret-2f';
export const REPO = 'forge-bot/config';

/** The managed server before the first pull request: the people and the repository the config names exist. */
export const MANAGED_SEED: SeedFile = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com', full_name: 'Alice Liddell' },
  ],
  orgs: [{ name: 'acme', owners: ['alice'] }],
  repos: [{ name: 'acme/widgets' }],
};

/** The forge: the bot is the user of the workflows' job token; alice opens pull requests; mallory comments. */
const FORGE_SEED: SeedFile = {
  users: [
    { username: 'root', admin: true },
    { username: 'forge-bot', token: BOT_TOKEN },
    { username: 'alice' },
    { username: 'mallory', token: MALLORY_TOKEN },
  ],
  repos: [{ name: REPO }],
};

export interface Pull {
  number: number;
  branch: string;
  head: string;
  base: string;
}

export interface Journey {
  managed: Sandbox;
  forge: Sandbox;
  kind: 'github' | 'gitea';
  /** The repository's git directory (the forge's copy). */
  origin: string;
  main(): string;
  /** Opens a pull request from `base` (default: main now) with the files written by `change`. */
  open(title: string, change: Record<string, string | null>, base?: string, beforePlan?: (pull: Pull) => Promise<void>): Promise<{ pull: Pull; runs: Record<string, JobRun[]> }>;
  /** A new commit on the pull request's branch. */
  push(pull: Pull, change: Record<string, string | null>): Promise<Record<string, JobRun[]>>;
  /** Merges on the forge (a merge commit on main), then runs what the merge triggers. */
  merge(pull: Pull): Promise<{ sha: string; runs: Record<string, JobRun[]> }>;
  /** The nightly schedule on main. */
  nightly(): Promise<Record<string, JobRun[]>>;
  comments(pr: number): Promise<{ id: number; body: string; user: { login: string } }[]>;
  issues(): Promise<{ number: number; title: string; body: string; state: string; user: { login: string } }[]>;
  api<T = unknown>(server: Sandbox, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'alice', GIT_AUTHOR_EMAIL: 'alice@example.com', GIT_COMMITTER_NAME: 'forge', GIT_COMMITTER_EMAIL: 'forge@example.com' } });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

function write(dir: string, files: Record<string, string | null>): void {
  for (const [path, text] of Object.entries(files)) {
    if (text === null) rmSync(join(dir, path), { force: true });
    else {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  }
}

/**
 * The example repository as a team copies it: examples/gitops without its config/ (the first pull
 * request adds it) and with only the workflow folder of the forge; `workflows` replaces workflow
 * files (the sharded ones of docs/ci.md).
 */
export async function journey(kind: 'github' | 'gitea', actionDir: string, opts: { workflows?: Record<string, string>; managedSeed?: SeedFile } = {}): Promise<Journey> {
  const managed = await startSandbox({ port: 0, token: ADMIN_TOKEN, seed: opts.managedSeed ?? MANAGED_SEED });
  const root = managed.state.userByName('root')!;
  managed.state.addToken(root.id, PLAN_TOKEN, ['read:admin', 'read:organization', 'read:repository', 'read:issue', 'read:user'], 'forgeform-plan');
  const forge = await startSandbox({ port: 0, token: FORGE_ADMIN, seed: FORGE_SEED });
  const dir = mkdtempSync(join(tmpdir(), 'forgeform-journey-'));
  const origin = join(dir, 'origin');
  mkdirSync(origin);
  git(origin, 'init', '--quiet', '-b', 'main');
  const wfDir = kind === 'github' ? '.github/workflows' : '.gitea/workflows';
  cpSync(join(ROOT, 'examples/gitops', wfDir), join(origin, wfDir), { recursive: true });
  cpSync(join(ROOT, 'examples/gitops/README.md'), join(origin, 'README.md'));
  write(origin, opts.workflows ?? {});
  git(origin, 'add', '-A');
  git(origin, 'commit', '--quiet', '-m', 'The workflows');
  let runId = 1000;

  const runner = () => ({
    kind,
    origin,
    forgeUrl: forge.url,
    repository: REPO,
    jobToken: BOT_TOKEN,
    vars: { FORGEFORM_URL: managed.url },
    secrets: { FORGEFORM_TOKEN: ADMIN_TOKEN, FORGEFORM_PLAN_TOKEN: PLAN_TOKEN, CI_BOT_PASSWORD: BOT_PASSWORD, CI_HOOK_SECRET: HOOK_SECRET },
    actionDir,
    runId: ++runId,
  });

  /** Every workflow of the commit (as the runner reads them), run for the event. */
  async function fire(e: Event): Promise<Record<string, JobRun[]>> {
    const files = git(origin, 'ls-tree', '--name-only', e.sha, `${wfDir}/`).split('\n').filter(Boolean);
    const out: Record<string, JobRun[]> = {};
    const r = runner();
    for (const f of files) {
      const w = parse(git(origin, 'show', `${e.sha}:${f}`)) as Workflow;
      const runs = await runWorkflow(w, e, r);
      if (runs) out[f.slice(wfDir.length + 1)] = runs;
    }
    return out;
  }

  const prEvent = (action: string, pull: Pull, extra: Record<string, unknown> = {}): Event => ({
    name: 'pull_request',
    sha: pull.head,
    ref: `refs/pull/${pull.number}/merge`,
    payload: { action, number: pull.number, pull_request: { number: pull.number, head: { sha: pull.head, ref: pull.branch }, base: { ref: 'main', sha: pull.base }, merged: false, ...extra } },
  });

  function commit(branch: string, base: string, change: Record<string, string | null>, message: string): string {
    git(origin, 'checkout', '--quiet', '-B', branch, base);
    write(origin, change);
    git(origin, 'add', '-A');
    git(origin, 'commit', '--quiet', '--allow-empty', '-m', message);
    const sha = git(origin, 'rev-parse', 'HEAD');
    git(origin, 'checkout', '--quiet', 'main');
    return sha;
  }

  const world: Journey = {
    managed,
    forge,
    kind,
    origin,
    main: () => git(origin, 'rev-parse', 'main'),
    async open(title, change, base, beforePlan) {
      const from = base ?? git(origin, 'rev-parse', 'main');
      const branch = `change-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
      const head = commit(branch, from, change, title);
      const number = openPull(forge.state, REPO, { title, author: 'alice', headRef: branch, headSha: head });
      const pull = { number, branch, head, base: from };
      await beforePlan?.(pull);
      return { pull, runs: await fire(prEvent('opened', pull)) };
    },
    async push(pull, change) {
      pull.head = commit(pull.branch, pull.head, change, 'More');
      pushToPull(forge.state, REPO, pull.number, pull.head);
      return fire(prEvent('synchronize', pull));
    },
    async merge(pull) {
      git(origin, 'checkout', '--quiet', 'main');
      const before = git(origin, 'rev-parse', 'HEAD');
      git(origin, 'merge', '--quiet', '--no-ff', '-m', `Merge pull request #${pull.number}`, pull.branch);
      const sha = git(origin, 'rev-parse', 'HEAD');
      mergePull(forge.state, REPO, pull.number, sha);
      // The forge sends both events: the pull request closed (merged), and the push to main.
      const closed = await fire({ ...prEvent('closed', pull, { merged: true, merge_commit_sha: sha }), sha, ref: 'refs/heads/main' });
      const pushed = await fire({ name: 'push', sha, ref: 'refs/heads/main', payload: { ref: 'refs/heads/main', before, after: sha } });
      return { sha, runs: { ...closed, ...pushed } };
    },
    nightly() {
      const sha = git(origin, 'rev-parse', 'main');
      return fire({ name: 'schedule', sha, ref: 'refs/heads/main', payload: { schedule: '17 3 * * *' } });
    },
    async comments(pr) {
      return (await world.api<{ id: number; body: string; user: { login: string } }[]>(forge, 'GET', `repos/${REPO}/issues/${pr}/comments`)).body;
    },
    async issues() {
      return (await world.api<{ number: number; title: string; body: string; state: string; user: { login: string } }[]>(forge, 'GET', `repos/${REPO}/issues?state=all&type=issues&limit=50`)).body;
    },
    async api<T>(server: Sandbox, method: string, path: string, body?: unknown, token?: string) {
      const res = await apiCall<T>(server.url, method, path, { token: token ?? (server === managed ? ADMIN_TOKEN : FORGE_ADMIN), ...(body !== undefined ? { body } : {}) });
      return { status: res.status, body: res.json };
    },
    async close() {
      await managed.close();
      await forge.close();
    },
  };
  return world;
}

/** The example's configuration files, as committed (the first pull request adds them). */
export function exampleConfig(): Record<string, string> {
  const dir = join(ROOT, 'examples/gitops/config');
  return Object.fromEntries(readdirSync(dir).map((f) => [`config/${f}`, readFileSync(join(dir, f), 'utf8')]));
}

/** The jobs of every workflow that ran, "file/job[matrix]: result". */
export function results(runs: Record<string, JobRun[]>): string[] {
  return Object.entries(runs).flatMap(([f, jobs]) => jobs.map((j) => `${f}/${j.name}${Object.keys(j.matrix).length ? `[${Object.values(j.matrix).join(',')}]` : ''}: ${j.result}`));
}
