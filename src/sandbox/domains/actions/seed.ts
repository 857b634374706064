/**
 * Seed key `actions`: the runner registration token, runners, and workflow runs with their jobs.
 * Loaded once users, organisations and repositories exist; documented in README.md.
 */
import { createRunner, newRunnerToken } from './service.js';
import type { SeedContext } from '../../core/domain.js';
import { bool, list, obj, oneOf, requireRepo, requireUser, SeedError, str, strings, time } from '../../core/seed-shape.js';
import { nowIso, type SandboxState, type UserRecord } from '../../core/state.js';
import { ACTION_STATUSES, isDone, type ActionRunRecord } from './records.js';

export interface SeedRunner {
  name: string;
  /** `idle` (default) and `active` simulate a connected runner; `offline` one that never connected. */
  status?: 'idle' | 'active' | 'offline';
  labels?: string[];
  disabled?: boolean;
  ephemeral?: boolean;
  /** An organisation or user runner (name). */
  owner?: string;
  /** A repository runner (`owner/name`). */
  repo?: string;
  version?: string;
  uuid?: string;
  description?: string;
  /** Explicit timestamps instead of `status` (Gitea computes the status from them). */
  last_online?: string;
  last_active?: string;
}

export interface SeedJob {
  name: string;
  /** Default: the run's status. */
  status?: string;
  /** `runs-on` labels. */
  labels?: string[];
  /** Name of the runner that picked the job up. */
  runner?: string;
}

export interface SeedRun {
  /** `owner/name`. */
  repo: string;
  /** Workflow file name; default `ci.yml`. */
  workflow?: string;
  title?: string;
  /** Default `push`. */
  event?: string;
  /** Default: the repository's default branch. */
  branch?: string;
  /** Default: a made-up 40-hex commit id. */
  sha?: string;
  /** success | failure | cancelled | skipped | waiting | running | blocked; default success. */
  status?: string;
  /** The user who triggered the run; default the first site admin. */
  actor?: string;
  created_at?: string;
  jobs?: SeedJob[];
}

export interface SeedActions {
  /** The current global runner registration token. */
  registration_token?: string;
  runners?: SeedRunner[];
  runs?: SeedRun[];
}

function fakeSha(seed: string): string {
  let h = 0x811c9dc5;
  let out = '';
  for (let i = 0; out.length < 40; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i % Math.max(1, seed.length)) ^ i, 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, 40);
}

function seedActions(state: SandboxState, raw: unknown, admin: UserRecord): void {
  if (raw === undefined || raw === null) return;
  const a = obj(raw, 'actions', ['registration_token', 'runners', 'runs']);
  const token = str(a.registration_token, 'actions.registration_token');
  if (token !== undefined) newRunnerToken(state, 0, 0, token);
  list(a.runners, 'actions.runners').forEach((r, i) => seedRunner(state, r, `actions.runners[${i}]`));
  // Runs are numbered per repository, in seed order.
  const runNumbers = new Map<number, number>();
  list(a.runs, 'actions.runs').forEach((r, i) => seedRun(state, r, `actions.runs[${i}]`, admin, runNumbers));
}

function seedRunner(state: SandboxState, r: unknown, p: string): void {
  const o = obj(r, p, ['name', 'status', 'labels', 'disabled', 'ephemeral', 'owner', 'repo', 'version', 'uuid', 'description', 'last_online', 'last_active']);
  const name = str(o.name, `${p}.name`, true)!;
  const status = oneOf(o.status, `${p}.status`, ['idle', 'active', 'offline'] as const);
  const lastOnline = time(o.last_online, `${p}.last_online`);
  const lastActive = time(o.last_active, `${p}.last_active`);
  const explicit = lastOnline !== undefined || lastActive !== undefined;
  if (explicit && status !== undefined) throw new SeedError(`${p}: give either status or last_online/last_active`);
  const ownerName = str(o.owner, `${p}.owner`);
  const repoName = str(o.repo, `${p}.repo`);
  if (ownerName && repoName) throw new SeedError(`${p}: a runner belongs to an owner or a repository, not both`);
  const owner = ownerName ? state.ownerByName(ownerName) : undefined;
  if (ownerName && !owner) throw new SeedError(`${p}.owner: no user or organisation ${JSON.stringify(ownerName)} in the seed`);
  createRunner(state, {
    name,
    uuid: str(o.uuid, `${p}.uuid`),
    version: str(o.version, `${p}.version`),
    description: str(o.description, `${p}.description`),
    ownerId: owner?.id ?? 0,
    repoId: repoName ? requireRepo(state, repoName, `${p}.repo`).id : 0,
    labels: strings(o.labels, `${p}.labels`),
    disabled: bool(o.disabled, `${p}.disabled`),
    ephemeral: bool(o.ephemeral, `${p}.ephemeral`),
    heartbeat: explicit ? null : status === 'offline' ? null : (status ?? 'idle'),
    lastOnline: lastOnline ?? null,
    lastActive: lastActive ?? null,
  });
}

function seedRun(state: SandboxState, r: unknown, p: string, admin: UserRecord, runNumbers: Map<number, number>): void {
  const o = obj(r, p, ['repo', 'workflow', 'title', 'event', 'branch', 'sha', 'status', 'actor', 'created_at', 'jobs']);
  const repo = requireRepo(state, str(o.repo, `${p}.repo`, true)!, `${p}.repo`);
  const status = oneOf(o.status, `${p}.status`, ACTION_STATUSES) ?? 'success';
  const actorName = str(o.actor, `${p}.actor`);
  const actor = actorName ? requireUser(state, actorName, `${p}.actor`) : admin;
  const created = time(o.created_at, `${p}.created_at`) ?? nowIso();
  const index = (runNumbers.get(repo.id) ?? 0) + 1;
  runNumbers.set(repo.id, index);
  const workflow = str(o.workflow, `${p}.workflow`) ?? 'ci.yml';
  const run: ActionRunRecord = {
    id: state.nextId('actionRun'),
    repoId: repo.id,
    index,
    title: str(o.title, `${p}.title`) ?? `${workflow} #${index}`,
    workflowId: workflow,
    ref: `refs/heads/${str(o.branch, `${p}.branch`) ?? repo.defaultBranch}`,
    commitSha: str(o.sha, `${p}.sha`) ?? fakeSha(`${repo.id}/${index}`),
    event: str(o.event, `${p}.event`) ?? 'push',
    triggerUserId: actor.id,
    status,
    attempt: 1,
    createdAt: created,
    updatedAt: created,
    started: status === 'waiting' || status === 'blocked' ? null : created,
    stopped: isDone(status) ? created : null,
  };
  state.data.actionRuns.push(run);
  const ownerId = state.repoOwner(repo).id;
  list(o.jobs, `${p}.jobs`).forEach((j, k) => seedJob(state, j, `${p}.jobs[${k}]`, run, ownerId));
}

/** A job of a seeded run: its status defaults to the run's, it runs on a seeded runner (by name). */
function seedJob(state: SandboxState, j: unknown, jp: string, run: ActionRunRecord, ownerId: number): void {
  const jo = obj(j, jp, ['name', 'status', 'labels', 'runner']);
  const jstatus = oneOf(jo.status, `${jp}.status`, ACTION_STATUSES) ?? run.status;
  const runnerName = str(jo.runner, `${jp}.runner`);
  const runner = runnerName ? state.data.runners.find((x) => x.name === runnerName) : undefined;
  if (runnerName && !runner) throw new SeedError(`${jp}.runner: no runner ${JSON.stringify(runnerName)} in actions.runners`);
  const created = run.createdAt;
  state.data.actionJobs.push({
    id: state.nextId('actionJob'),
    runId: run.id,
    repoId: run.repoId,
    ownerId,
    name: str(jo.name, `${jp}.name`, true)!,
    labels: jo.labels === undefined ? ['ubuntu-latest'] : strings(jo.labels, `${jp}.labels`),
    status: jstatus,
    attempt: 1,
    runnerId: runner?.id ?? 0,
    createdAt: created,
    started: jstatus === 'waiting' || jstatus === 'blocked' ? null : created,
    stopped: isDone(jstatus) ? created : null,
  });
}

export function loadActionsSeed(cx: SeedContext): void {
  seedActions(cx.state, cx.top.actions, cx.admin());
}
