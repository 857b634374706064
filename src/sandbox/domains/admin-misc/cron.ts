/**
 * The cron task table of a vanilla Gitea (`services/cron/tasks_basic.go`, `tasks_extended.go`,
 * `tasks_actions.go`), in registration order — the order `GET /admin/cron` lists them — and the
 * schedule arithmetic of `gogs/cron` (`@every D`, `@midnight` …, in UTC) that fills `next`, `prev`
 * and `exec_times`: a task the scheduler would have run since the sandbox started counts as run.
 */
import type { SandboxState } from '../../core/state.js';
import type { CronTaskRecord } from './records.js';

interface TaskDefault {
  name: string;
  schedule: string;
  enabled: boolean;
  runAtStart: boolean;
}

const t = (name: string, schedule: string, enabled: boolean, runAtStart: boolean): TaskDefault => ({ name, schedule, enabled, runAtStart });

/**
 * Vanilla configuration: mirrors, migrations, packages, Actions and the LFS server enabled (the
 * installer's default), so all 29 tasks are registered.
 */
export const DEFAULT_CRON_TASKS: readonly TaskDefault[] = [
  // initBasicTasks
  t('update_mirrors', '@every 10m', true, false),
  t('repo_health_check', '@midnight', true, false),
  t('check_repo_stats', '@midnight', true, true),
  t('archive_cleanup', '@midnight', true, true),
  t('sync_external_users', '@midnight', true, false),
  t('deleted_branches_cleanup', '@midnight', true, true),
  t('update_migration_poster_id', '@midnight', true, true),
  t('cleanup_hook_task_table', '@midnight', true, false),
  t('cleanup_packages', '@midnight', true, true),
  t('sync_repo_licenses', '@annually', false, false),
  // initExtendedTasks
  t('delete_inactive_accounts', '@annually', false, false),
  t('delete_repo_archives', '@annually', false, false),
  t('git_gc_repos', '@every 72h', false, false),
  t('resync_all_sshkeys', '@every 72h', false, false),
  t('resync_all_sshprincipals', '@every 72h', false, false),
  t('resync_all_hooks', '@every 72h', false, false),
  t('reinit_missing_repos', '@every 72h', false, false),
  t('delete_missing_repos', '@every 72h', false, false),
  t('delete_generated_repository_avatars', '@every 72h', false, false),
  t('delete_old_actions', '@every 168h', false, false),
  t('update_checker', '@every 168h', true, false),
  t('delete_old_system_notices', '@every 168h', false, false),
  t('gc_lfs', '@every 24h', false, false),
  t('rebuild_issue_indexer', '@annually', false, false),
  // initActionsTasks
  t('stop_zombie_tasks', '@every 5m', true, true),
  t('stop_endless_tasks', '@every 30m', true, true),
  t('cancel_abandoned_jobs', '@every 6h', true, true),
  t('start_schedule_tasks', '@every 1m', true, false),
  t('cleanup_actions', '@midnight', true, false),
];

export const ZERO_TIME = '0001-01-01T00:00:00Z';

const DURATION = /^(?:(\d+(?:\.\d+)?)(h|m|s|ms))+$/;

/** Go's `time.ParseDuration` for the forms cron schedules use (`72h`, `10m`, `1h30m`), in ms. */
export function parseGoDuration(s: string): number | undefined {
  if (!DURATION.test(s)) return undefined;
  let total = 0;
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(h|m|s|ms)/g)) {
    const n = Number(m[1]);
    total += m[2] === 'h' ? n * 3_600_000 : m[2] === 'm' ? n * 60_000 : m[2] === 's' ? n * 1000 : n;
  }
  return total;
}

/** Whether the sandbox can compute a schedule (descriptors and `@every`). */
export function isSupportedSchedule(schedule: string): boolean {
  if (schedule.startsWith('@every ')) return (parseGoDuration(schedule.slice(7).trim()) ?? 0) > 0;
  return ['@midnight', '@daily', '@hourly', '@weekly', '@monthly', '@yearly', '@annually'].includes(schedule);
}

/** The first activation strictly after `after` (ms, UTC). */
function nextAfter(schedule: string, startMs: number, after: number): number {
  if (schedule.startsWith('@every ')) {
    // ConstantDelaySchedule: every D from the scheduler start, whole seconds.
    const d = Math.max(1000, Math.floor((parseGoDuration(schedule.slice(7).trim()) ?? 1000) / 1000) * 1000);
    const start = Math.floor(startMs / 1000) * 1000;
    if (after < start) return start + d;
    return start + (Math.floor((after - start) / d) + 1) * d;
  }
  const a = new Date(after);
  const y = a.getUTCFullYear();
  const mo = a.getUTCMonth();
  const day = a.getUTCDate();
  let c: number;
  switch (schedule) {
    case '@hourly':
      c = Date.UTC(y, mo, day, a.getUTCHours() + 1);
      break;
    case '@weekly':
      c = Date.UTC(y, mo, day - a.getUTCDay() + 7);
      break;
    case '@monthly':
      c = Date.UTC(y, mo + 1, 1);
      break;
    case '@yearly':
    case '@annually':
      c = Date.UTC(y + 1, 0, 1);
      break;
    default: // @midnight, @daily
      c = Date.UTC(y, mo, day + 1);
  }
  return c;
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function newCronTask(d: TaskDefault, startedAt: string): CronTaskRecord {
  return {
    name: d.name,
    schedule: d.schedule,
    enabled: d.enabled,
    runAtStart: d.runAtStart,
    // NewContext runs enabled run-at-start tasks once; that does not set the cron entry's Prev.
    execTimes: d.enabled && d.runAtStart ? 1 : 0,
    prev: null,
    startedAt,
  };
}

/** The task table, filled with the vanilla tasks on first use (or after loading an older state file). */
export function cronTasks(state: SandboxState): CronTaskRecord[] {
  if (state.data.cronTasks.length === 0) {
    const now = iso(Date.now());
    state.data.cronTasks = DEFAULT_CRON_TASKS.map((d) => newCronTask(d, now));
  }
  return state.data.cronTasks;
}

/** Counts the scheduled runs due since the last look (the real scheduler would have run them). */
export function catchUp(task: CronTaskRecord, nowMs = Date.now()): void {
  if (!task.enabled || !isSupportedSchedule(task.schedule)) return;
  const start = Date.parse(task.startedAt);
  if (task.schedule.startsWith('@every ')) {
    const d = Math.max(1000, Math.floor((parseGoDuration(task.schedule.slice(7).trim()) ?? 1000) / 1000) * 1000);
    const base = Math.floor(start / 1000) * 1000;
    const due = Math.max(0, Math.floor((nowMs - base) / d));
    const counted = task.prev ? Math.round((Date.parse(task.prev) - base) / d) : 0;
    if (due > counted) {
      task.execTimes += due - counted;
      task.prev = iso(base + due * d);
    }
    return;
  }
  let from = task.prev ? Date.parse(task.prev) : start;
  for (let i = 0; i < 100_000; i++) {
    const next = nextAfter(task.schedule, start, from);
    if (next > nowMs) break;
    task.prev = iso(next);
    task.execTimes++;
    from = next;
  }
}

/** `structs.Cron`: disabled tasks have no cron entry (`-`, zero times). */
export function toCron(task: CronTaskRecord, nowMs = Date.now()): Record<string, unknown> {
  if (!task.enabled) return { name: task.name, schedule: '-', next: ZERO_TIME, prev: ZERO_TIME, exec_times: task.execTimes };
  catchUp(task, nowMs);
  const start = Date.parse(task.startedAt);
  return {
    name: task.name,
    schedule: task.schedule,
    next: iso(nextAfter(task.schedule, start, Math.max(nowMs, task.prev ? Date.parse(task.prev) : start))),
    prev: task.prev ?? ZERO_TIME,
    exec_times: task.execTimes,
  };
}
