/**
 * Seed keys of the other admin and public endpoints: `actions` (registration token, runners,
 * runs with their jobs), `cron` (task overrides, like `[cron.<task>]` in app.ini), `packages`,
 * `unadopted` (repository directories without a database row) and `notifications`. Called by
 * `buildState` once users, organisations and repositories exist; documented in README.md.
 */
import { cronTasks, isSupportedSchedule } from './cron.js';
import { createRunner, newRunnerToken } from '../actions/routes.js';
import { PACKAGE_TYPES } from './routes.js';
import { bool, integer, list, obj, oneOf, requireUser, SeedError, str, strings } from '../../core/seed-shape.js';
import { nowIso, type RepoRecord, type SandboxState, type UserRecord } from '../../core/state.js';
import { ACTION_STATUSES, isDone, type NotificationSource } from './records.js';

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

export interface SeedCronTask {
  schedule?: string;
  enabled?: boolean;
  run_at_start?: boolean;
  exec_times?: number;
}

export interface SeedPackage {
  owner: string;
  type: string;
  name: string;
  version: string;
  /** Default: the owner when a user, else the first site admin. */
  creator?: string;
  /** Linked repository (`owner/name`). */
  repo?: string;
  internal?: boolean;
  created_at?: string;
}

export interface SeedUnadopted {
  /** `owner/name`. */
  name: string;
  branches?: string[];
}

export interface SeedNotification {
  user: string;
  /** `owner/name`. */
  repo: string;
  /** issue (default) | pull | commit | repository. */
  type?: string;
  /** The issue number, for issue and pull subjects. */
  issue?: number;
  /** The commit id, for commit subjects. */
  commit?: string;
  /** unread (default) | read | pinned. */
  status?: string;
  updated_at?: string;
}

export interface SeedAdminKeys {
  actions?: SeedActions;
  /** Task name → overrides, or `false` for a task that is not registered (its feature disabled). */
  cron?: Record<string, SeedCronTask | false>;
  packages?: SeedPackage[];
  /** `owner/name` or `{name, branches}`. */
  unadopted?: (string | SeedUnadopted)[];
  notifications?: SeedNotification[];
}

export const SEED_ADMIN_KEYS = ['actions', 'cron', 'packages', 'unadopted', 'notifications'] as const;

const nonNegative = (v: unknown, path: string) => integer(v, path, 0);

// ---- shape checks beyond seed-shape.ts ---------------------------------------------------------

function time(v: unknown, path: string): string | undefined {
  const s = str(v, path);
  if (s === undefined) return undefined;
  const ms = Date.parse(s);
  if (Number.isNaN(ms)) throw new SeedError(`${path}: not a date: ${JSON.stringify(s)}`);
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function requireRepo(state: SandboxState, full: string, path: string): RepoRecord {
  const m = /^([^/]+)\/([^/]+)$/.exec(full);
  const owner = m ? state.ownerByName(m[1]!) : undefined;
  const repo = owner && m ? state.repoByName(owner.id, m[2]!) : undefined;
  if (!repo) throw new SeedError(`${path}: no repository ${JSON.stringify(full)} in the seed`);
  return repo;
}

// ---- building -------------------------------------------------------------------------------------

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
  list(a.runners, 'actions.runners').forEach((r, i) => {
    const p = `actions.runners[${i}]`;
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
  });
  const runNumbers = new Map<number, number>();
  list(a.runs, 'actions.runs').forEach((r, i) => {
    const p = `actions.runs[${i}]`;
    const o = obj(r, p, ['repo', 'workflow', 'title', 'event', 'branch', 'sha', 'status', 'actor', 'created_at', 'jobs']);
    const repo = requireRepo(state, str(o.repo, `${p}.repo`, true)!, `${p}.repo`);
    const status = oneOf(o.status, `${p}.status`, ACTION_STATUSES) ?? 'success';
    const actorName = str(o.actor, `${p}.actor`);
    const actor = actorName ? requireUser(state, actorName, `${p}.actor`) : admin;
    const created = time(o.created_at, `${p}.created_at`) ?? nowIso();
    const index = (runNumbers.get(repo.id) ?? 0) + 1;
    runNumbers.set(repo.id, index);
    const workflow = str(o.workflow, `${p}.workflow`) ?? 'ci.yml';
    const run = {
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
    const owner = state.repoOwner(repo);
    list(o.jobs, `${p}.jobs`).forEach((j, k) => {
      const jp = `${p}.jobs[${k}]`;
      const jo = obj(j, jp, ['name', 'status', 'labels', 'runner']);
      const jstatus = oneOf(jo.status, `${jp}.status`, ACTION_STATUSES) ?? status;
      const runnerName = str(jo.runner, `${jp}.runner`);
      const runner = runnerName ? state.data.runners.find((x) => x.name === runnerName) : undefined;
      if (runnerName && !runner) throw new SeedError(`${jp}.runner: no runner ${JSON.stringify(runnerName)} in actions.runners`);
      state.data.actionJobs.push({
        id: state.nextId('actionJob'),
        runId: run.id,
        repoId: repo.id,
        ownerId: owner.id,
        name: str(jo.name, `${jp}.name`, true)!,
        labels: jo.labels === undefined ? ['ubuntu-latest'] : strings(jo.labels, `${jp}.labels`),
        status: jstatus,
        attempt: 1,
        runnerId: runner?.id ?? 0,
        createdAt: created,
        started: jstatus === 'waiting' || jstatus === 'blocked' ? null : created,
        stopped: isDone(jstatus) ? created : null,
      });
    });
  });
}

function seedCron(state: SandboxState, raw: unknown): void {
  // The scheduler starts with the server: the vanilla task table, counted from now.
  const tasks = cronTasks(state);
  if (raw === undefined || raw === null) return;
  const o = obj(raw, 'cron', tasks.map((t) => t.name));
  for (const [name, v] of Object.entries(o)) {
    const p = `cron.${name}`;
    if (v === false) {
      state.data.cronTasks = state.data.cronTasks.filter((t) => t.name !== name);
      continue;
    }
    const to = obj(v, p, ['schedule', 'enabled', 'run_at_start', 'exec_times']);
    const task = state.data.cronTasks.find((t) => t.name === name)!;
    const schedule = str(to.schedule, `${p}.schedule`);
    if (schedule !== undefined) {
      if (!isSupportedSchedule(schedule)) throw new SeedError(`${p}.schedule: the sandbox computes @every <duration> and @midnight/@hourly/@daily/@weekly/@monthly/@yearly only, got ${JSON.stringify(schedule)}`);
      task.schedule = schedule;
    }
    task.enabled = bool(to.enabled, `${p}.enabled`) ?? task.enabled;
    task.runAtStart = bool(to.run_at_start, `${p}.run_at_start`) ?? task.runAtStart;
    task.execTimes = nonNegative(to.exec_times, `${p}.exec_times`) ?? (task.enabled && task.runAtStart ? 1 : 0);
  }
}

function seedPackages(state: SandboxState, raw: unknown, admin: UserRecord): void {
  list(raw, 'packages').forEach((pk, i) => {
    const p = `packages[${i}]`;
    const o = obj(pk, p, ['owner', 'type', 'name', 'version', 'creator', 'repo', 'internal', 'created_at']);
    const ownerName = str(o.owner, `${p}.owner`, true)!;
    const owner = state.ownerByName(ownerName);
    if (!owner) throw new SeedError(`${p}.owner: no user or organisation ${JSON.stringify(ownerName)} in the seed`);
    const creatorName = str(o.creator, `${p}.creator`);
    const creator = creatorName ? requireUser(state, creatorName, `${p}.creator`) : owner.kind === 'user' ? owner.user : admin;
    const repoName = str(o.repo, `${p}.repo`);
    state.data.packages.push({
      id: state.nextId('packageVersion'),
      ownerId: owner.id,
      repoId: repoName ? requireRepo(state, repoName, `${p}.repo`).id : 0,
      creatorId: creator.id,
      type: oneOf(str(o.type, `${p}.type`, true), `${p}.type`, PACKAGE_TYPES)!,
      name: str(o.name, `${p}.name`, true)!,
      version: str(o.version, `${p}.version`, true)!,
      isInternal: bool(o.internal, `${p}.internal`) ?? false,
      createdAt: time(o.created_at, `${p}.created_at`) ?? nowIso(),
    });
  });
}

function seedUnadopted(state: SandboxState, raw: unknown): void {
  list(raw, 'unadopted').forEach((u, i) => {
    const p = `unadopted[${i}]`;
    const o = typeof u === 'string' ? { name: u } : obj(u, p, ['name', 'branches']);
    const full = str(o.name, `${p}${typeof u === 'string' ? '' : '.name'}`, true)!;
    const m = /^([^/]+)\/([^/]+)$/.exec(full);
    if (!m) throw new SeedError(`${p}: expected owner/name, got ${JSON.stringify(full)}`);
    const owner = m[1]!;
    const name = m[2]!.replace(/\.git$/, '');
    const existing = state.ownerByName(owner);
    if (existing && state.repoByName(existing.id, name)) throw new SeedError(`${p}: ${full} is a repository of the seed, not an unadopted directory`);
    if (state.data.unadopted.some((x) => x.owner === owner && x.name === name)) throw new SeedError(`${p}: ${full} is listed twice`);
    state.data.unadopted.push({ owner, name, branches: 'branches' in o ? strings(o.branches, `${p}.branches`) : ['main'] });
  });
}

function seedNotifications(state: SandboxState, raw: unknown): void {
  list(raw, 'notifications').forEach((n, i) => {
    const p = `notifications[${i}]`;
    const o = obj(n, p, ['user', 'repo', 'type', 'issue', 'commit', 'status', 'updated_at']);
    const user = requireUser(state, str(o.user, `${p}.user`, true)!, `${p}.user`);
    const repo = requireRepo(state, str(o.repo, `${p}.repo`, true)!, `${p}.repo`);
    const source: NotificationSource = oneOf(o.type, `${p}.type`, ['issue', 'pull', 'commit', 'repository'] as const) ?? 'issue';
    let issueId = 0;
    if (source === 'issue' || source === 'pull') {
      const index = nonNegative(o.issue, `${p}.issue`);
      if (index === undefined) throw new SeedError(`${p}.issue: required for ${source} notifications`);
      const issue = state.issueByIndex(repo.id, index);
      if (!issue) throw new SeedError(`${p}.issue: no issue #${index} in ${state.repoFullName(repo)}`);
      issueId = issue.id;
    }
    const commit = str(o.commit, `${p}.commit`) ?? '';
    if (source === 'commit' && !commit) throw new SeedError(`${p}.commit: required for commit notifications`);
    const updated = time(o.updated_at, `${p}.updated_at`) ?? nowIso();
    state.data.notifications.push({
      id: state.nextId('notification'),
      userId: user.id,
      repoId: repo.id,
      source,
      issueId,
      commitId: source === 'commit' ? commit : '',
      status: oneOf(o.status, `${p}.status`, ['unread', 'read', 'pinned'] as const) ?? 'unread',
      createdAt: updated,
      updatedAt: updated,
    });
  });
}

/** Applies the keys of {@link SeedAdminKeys} found in the seed's top-level mapping. */
export function seedAdminKeys(state: SandboxState, top: Record<string, unknown>, admin: UserRecord): void {
  seedActions(state, top.actions, admin);
  seedCron(state, top.cron);
  seedPackages(state, top.packages, admin);
  seedUnadopted(state, top.unadopted);
  seedNotifications(state, top.notifications);
}
