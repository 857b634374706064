/** API objects of the Actions admin endpoints: ActionRunner, ActionWorkflowRun, ActionWorkflowJob. */
import { orgAsUser } from '../orgs/convert.js';
import { renderUser } from '../users/convert.js';
import { repoApiUrl, repoHtmlUrl, toRepo } from '../repos/convert.js';
import { EPOCH, type ConvertContext } from '../../core/convert.js';
import { AccessMode } from '../../core/state.js';
import type { ActionJobRecord, ActionRunRecord, ActionStatus, RunnerRecord } from './records.js';
import type { Flavour } from '../../flavours/flavour.js';
import { hasQuirk, shapeAnswer } from '../../flavours/releases.js';

/** `RunnerOfflineTime` and `RunnerIdleTime` (models/actions/runner.go). */
export const RUNNER_OFFLINE_MS = 60_000;
export const RUNNER_IDLE_MS = 10_000;

/** `ActionRunner.Status()`: offline, idle or active from `LastOnline` / `LastActive`. */
export function runnerStatus(r: RunnerRecord, nowMs = Date.now()): 'offline' | 'idle' | 'active' {
  if (r.heartbeat === 'active') return 'active';
  if (r.heartbeat === 'idle') return 'idle';
  const online = r.lastOnline ? Date.parse(r.lastOnline) : 0;
  if (nowMs - online > RUNNER_OFFLINE_MS) return 'offline';
  const active = r.lastActive ? Date.parse(r.lastActive) : 0;
  if (nowMs - active > RUNNER_IDLE_MS) return 'idle';
  return 'active';
}

/** The `last_online` ordering key (`FindRunnerOptions.ToOrders` default: `last_online DESC`). */
export function runnerLastOnlineMs(r: RunnerRecord, nowMs = Date.now()): number {
  if (r.heartbeat) return nowMs;
  return r.lastOnline ? Date.parse(r.lastOnline) : 0;
}

/**
 * `convert.ToActionRunner`. Gitea: status online/offline, busy = active, label ids are positions,
 * `disabled` from 1.26. Forgejo 15: its own struct — the runner's identity and scope, its version,
 * labels as names, status offline/idle/active, no busy.
 */
export function toActionRunner(r: RunnerRecord, flavour?: Flavour): Record<string, unknown> {
  const status = runnerStatus(r);
  if (flavour && hasQuirk(flavour, 'runnerForgejoAnswer')) {
    return { id: r.id, uuid: r.uuid, owner_id: r.ownerId, repo_id: r.repoId, name: r.name, status, version: r.version, labels: [...r.labels], description: r.description, ephemeral: r.ephemeral };
  }
  return shapeAnswer(flavour, 'ActionRunner', {
    id: r.id,
    name: r.name,
    status: status === 'offline' ? 'offline' : 'online',
    busy: status === 'active',
    disabled: r.disabled,
    ephemeral: r.ephemeral,
    labels: r.labels.map((name, i) => ({ id: i, name, type: 'custom' })),
  });
}

/** `convert.ToActionsStatus` (newest): the API status and conclusion of a run, job or step. */
export function toActionsStatus(s: ActionStatus): { status: string; conclusion: string } {
  switch (s) {
    case 'waiting':
      return { status: 'queued', conclusion: '' };
    case 'blocked':
      return { status: 'pending', conclusion: '' };
    case 'running':
      return { status: 'in_progress', conclusion: '' };
    default:
      return { status: 'completed', conclusion: s };
  }
}

/** `git.RefName(ref).BranchName()`. */
function branchName(ref: string): string {
  return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : '';
}

function userOrNull(cx: ConvertContext, id: number): Record<string, unknown> | null {
  const u = cx.state.userById(id);
  if (u) return renderUser(cx, u, false, false);
  const o = cx.state.orgById(id);
  return o ? orgAsUser(cx, o, false) : null;
}

/** `convert.ToActionWorkflowRun` (newest generation). */
export function toWorkflowRun(cx: ConvertContext, run: ActionRunRecord): Record<string, unknown> {
  const repo = cx.state.repoById(run.repoId);
  if (!repo) throw new Error(`run ${run.id} has no repository`);
  const { status, conclusion } = toActionsStatus(run.status);
  const url = `${repoApiUrl(cx, repo)}/actions/runs/${run.id}`;
  const user = userOrNull(cx, run.triggerUserId);
  const branch = branchName(run.ref);
  return {
    id: run.id,
    url,
    previous_attempt_url: null,
    html_url: `${repoHtmlUrl(cx, repo)}/actions/runs/${run.index}`,
    jobs_url: `${url}/jobs`,
    logs_url: `${url}/logs`,
    artifacts_url: `${url}/artifacts`,
    cancel_url: `${url}/cancel`,
    rerun_url: `${url}/rerun`,
    display_title: run.title,
    path: `${run.workflowId}@${run.ref}`,
    event: run.event,
    run_attempt: run.attempt,
    run_number: run.index,
    head_sha: run.commitSha,
    ...(branch ? { head_branch: branch } : {}),
    status,
    actor: user,
    trigger_actor: user,
    repository: toRepo(cx, repo, AccessMode.None),
    ...(conclusion ? { conclusion } : {}),
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    started_at: run.started ?? EPOCH,
    completed_at: run.stopped ?? EPOCH,
    pull_requests: [],
  };
}

/** `convert.ToActionWorkflowJob`: runner and steps come from the job's task (none before one is picked). */
export function toWorkflowJob(cx: ConvertContext, job: ActionJobRecord): Record<string, unknown> {
  const repo = cx.state.repoById(job.repoId);
  const run = cx.state.data.actionRuns.find((r) => r.id === job.runId);
  if (!repo || !run) throw new Error(`job ${job.id} is missing its run or repository`);
  const { status, conclusion } = toActionsStatus(job.status);
  const runner = job.runnerId ? cx.state.data.runners.find((r) => r.id === job.runnerId) : undefined;
  const branch = branchName(run.ref);
  return {
    id: job.id,
    url: `${repoApiUrl(cx, repo)}/actions/jobs/${job.id}`,
    html_url: `${repoHtmlUrl(cx, repo)}/actions/runs/${run.index}/jobs/${job.id}`,
    run_id: job.runId,
    run_url: `${repoApiUrl(cx, repo)}/actions/runs/${job.runId}`,
    name: job.name,
    labels: job.labels,
    run_attempt: job.attempt,
    head_sha: run.commitSha,
    ...(branch ? { head_branch: branch } : {}),
    status,
    ...(conclusion ? { conclusion } : {}),
    ...(job.runnerId ? { runner_id: job.runnerId } : {}),
    ...(runner ? { runner_name: runner.name } : {}),
    steps: [],
    created_at: job.createdAt,
    started_at: job.started ?? EPOCH,
    completed_at: job.stopped ?? EPOCH,
  };
}

/** Whether a status string given to a filter maps to these statuses (`shared.convertToInternal`). */
export function statusFilter(value: string): ActionStatus[] | undefined {
  switch (value) {
    case 'pending':
    case 'waiting':
    case 'requested':
    case 'action_required':
      return ['blocked'];
    case 'queued':
      return ['waiting'];
    case 'in_progress':
      return ['running'];
    case 'completed':
      return ['success', 'failure', 'skipped', 'cancelled'];
    case 'failure':
      return ['failure'];
    case 'success':
      return ['success'];
    case 'skipped':
    case 'neutral':
      return ['skipped'];
    case 'cancelled':
    case 'timed_out':
      return ['cancelled'];
    default:
      return undefined;
  }
}
