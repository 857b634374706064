/**
 * API objects of the other admin and public endpoints, filled as `services/convert` does:
 * ActionRunner, ActionWorkflowRun, ActionWorkflowJob, Package, NotificationThread.
 */
import { orgAsUser, renderUser, repoApiUrl, repoHtmlUrl, toRepo, toUser, type ConvertContext } from '../../convert.js';
import { goPathEscape } from '../../http/respond.js';
import { repoAccessMode } from '../../core/permissions.js';
import { AccessMode, type UserRecord } from '../../core/state.js';
import { type ActionJobRecord, type ActionRunRecord, type ActionStatus, type NotificationRecord, type PackageRecord, type RunnerRecord } from './records.js';

const EPOCH = '1970-01-01T00:00:00Z';

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

/** `convert.ToActionRunner`: status online/offline, busy = active, label ids are positions. */
export function toActionRunner(r: RunnerRecord): Record<string, unknown> {
  const status = runnerStatus(r);
  return {
    id: r.id,
    name: r.name,
    status: status === 'offline' ? 'offline' : 'online',
    busy: status === 'active',
    disabled: r.disabled,
    ephemeral: r.ephemeral,
    labels: r.labels.map((name, i) => ({ id: i, name, type: 'custom' })),
  };
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

/** `convert.ToPackage`: owner and creator as users, the linked repository when the caller may read it. */
export function toPackage(cx: ConvertContext, p: PackageRecord, doer: UserRecord | null): Record<string, unknown> {
  const owner = cx.state.ownerById(p.ownerId);
  const creator = cx.state.userById(p.creatorId);
  const repo = p.repoId ? cx.state.repoById(p.repoId) : undefined;
  const mode = repo ? repoAccessMode(cx.state, repo, doer) : AccessMode.None;
  const ownerName = owner?.name ?? '';
  return {
    id: p.id,
    owner: owner ? (owner.kind === 'user' ? toUser(cx, owner.user, doer) : orgAsUser(cx, owner.org, doer !== null)) : null,
    repository: repo && mode >= AccessMode.Read ? toRepo(cx, repo, mode) : null,
    creator: creator ? toUser(cx, creator, doer) : null,
    type: p.type,
    name: p.name,
    version: p.version,
    html_url: `${cx.root}${goPathEscape(ownerName)}/-/packages/${p.type}/${goPathEscape(p.name.toLowerCase())}/${goPathEscape(p.version.toLowerCase())}`,
    created_at: p.createdAt,
  };
}

const SUBJECT_TYPE = { issue: 'Issue', pull: 'Pull', commit: 'Commit', repository: 'Repository' } as const;

/** `convert.ToNotificationThread`. */
export function toNotificationThread(cx: ConvertContext, n: NotificationRecord): Record<string, unknown> {
  const repo = cx.state.repoById(n.repoId);
  let subject: Record<string, unknown> | null = null;
  if (repo) {
    const base = { title: '', url: '', latest_comment_url: '', html_url: '', latest_comment_html_url: '', type: SUBJECT_TYPE[n.source], state: '' };
    if (n.source === 'issue' || n.source === 'pull') {
      const issue = cx.state.data.issues.find((i) => i.id === n.issueId);
      subject = issue
        ? {
            ...base,
            title: issue.title,
            url: `${repoApiUrl(cx, repo)}/issues/${issue.index}`,
            html_url: `${repoHtmlUrl(cx, repo)}/${n.source === 'pull' ? 'pulls' : 'issues'}/${issue.index}`,
            state: issue.state,
          }
        : base;
    } else if (n.source === 'commit') {
      const url = `${repoHtmlUrl(cx, repo)}/commit/${goPathEscape(n.commitId)}`;
      subject = { ...base, title: n.commitId, url, html_url: url };
    } else {
      const owner = cx.state.repoOwner(repo);
      subject = { ...base, title: `${owner.name}/${repo.name}`, url: `/${goPathEscape(owner.name)}/${goPathEscape(repo.name)}`, html_url: repoHtmlUrl(cx, repo) };
    }
  }
  return {
    id: n.id,
    repository: repo ? toRepo(cx, repo, AccessMode.Read) : null,
    subject,
    unread: n.status === 'unread',
    pinned: n.status === 'pinned',
    updated_at: n.updatedAt,
    url: `${cx.root}api/v1/notifications/threads/${n.id}`,
  };
}
