/**
 * Records of the other admin and public endpoints (behavior.md §9): Actions runners, the runner
 * registration token, workflow runs and jobs, cron tasks, packages, unadopted repository
 * directories and notification threads. `StateData` (state.ts) extends {@link AdminStateData}, so
 * they are saved in the state file with everything else.
 */

/** Gitea's `actions_model.Status` values, by their internal names. */
export type ActionStatus = 'success' | 'failure' | 'cancelled' | 'skipped' | 'waiting' | 'running' | 'blocked';
export const ACTION_STATUSES: readonly ActionStatus[] = ['success', 'failure', 'cancelled', 'skipped', 'waiting', 'running', 'blocked'];
/** `Status.IsDone()`. */
export const isDone = (s: ActionStatus): boolean => s === 'success' || s === 'failure' || s === 'cancelled' || s === 'skipped';

export interface RunnerRecord {
  id: number;
  uuid: string;
  name: string;
  version: string;
  /** 0 for global and repository runners (`OwnerID`). */
  ownerId: number;
  /** 0 unless a repository runner. */
  repoId: number;
  description: string;
  /** `AgentLabels`. */
  labels: string[];
  disabled: boolean;
  ephemeral: boolean;
  /** `LastOnline` / `LastActive`; null = never. */
  lastOnline: string | null;
  lastActive: string | null;
  /**
   * A simulated connected `act_runner` (the sandbox has none): `active` keeps both timestamps at
   * "now" (status online, busy), `idle` keeps `lastOnline` at "now" (online, not busy). null: the
   * timestamps above decide, as `ActionRunner.Status()` does.
   */
  heartbeat: 'active' | 'idle' | null;
  createdAt: string;
}

export interface RunnerTokenRecord {
  id: number;
  token: string;
  ownerId: number;
  repoId: number;
  isActive: boolean;
  createdAt: string;
}

export interface ActionRunRecord {
  id: number;
  repoId: number;
  /** The run number within its repository (`Index`). */
  index: number;
  title: string;
  /** Workflow file name, e.g. `build.yml` (`WorkflowID`). */
  workflowId: string;
  /** Full ref, e.g. `refs/heads/main`. */
  ref: string;
  commitSha: string;
  /** `TriggerEvent`, e.g. `push`. */
  event: string;
  triggerUserId: number;
  status: ActionStatus;
  attempt: number;
  createdAt: string;
  updatedAt: string;
  started: string | null;
  stopped: string | null;
}

export interface ActionJobRecord {
  id: number;
  runId: number;
  repoId: number;
  ownerId: number;
  name: string;
  /** `RunsOn`. */
  labels: string[];
  status: ActionStatus;
  attempt: number;
  /** 0 = no task picked the job up yet. */
  runnerId: number;
  createdAt: string;
  started: string | null;
  stopped: string | null;
}

export interface CronTaskRecord {
  name: string;
  /** As configured: `@every 10m`, `@midnight` … */
  schedule: string;
  enabled: boolean;
  runAtStart: boolean;
  /** Runs counted so far (manual runs and runs at start included). */
  execTimes: number;
  /** The last scheduled run the sandbox has accounted for; null = none yet. */
  prev: string | null;
  /** When the scheduler started (scheduled runs are counted from here). */
  startedAt: string;
}

export interface PackageRecord {
  /** The package version id (what the API calls the package `id`). */
  id: number;
  ownerId: number;
  /** 0 = not linked to a repository. */
  repoId: number;
  creatorId: number;
  type: string;
  name: string;
  version: string;
  isInternal: boolean;
  createdAt: string;
}

/** A repository directory on disk without a database row (`<owner>/<name>.git`). */
export interface UnadoptedRecord {
  /** Directory names as on disk (Gitea creates them lower-cased). */
  owner: string;
  name: string;
  /** The git branches inside (decide the default branch on adoption). */
  branches: string[];
}

export type NotificationSource = 'issue' | 'pull' | 'commit' | 'repository';
export type NotificationStatus = 'unread' | 'read' | 'pinned';

export interface NotificationRecord {
  id: number;
  userId: number;
  repoId: number;
  source: NotificationSource;
  /** The issue (or pull request) record id; 0 for commits and repositories. */
  issueId: number;
  commitId: string;
  status: NotificationStatus;
  createdAt: string;
  updatedAt: string;
}

export interface AdminStateData {
  runners: RunnerRecord[];
  runnerTokens: RunnerTokenRecord[];
  actionRuns: ActionRunRecord[];
  actionJobs: ActionJobRecord[];
  /** Empty until first used: the vanilla task table is filled in then (see cron.ts). */
  cronTasks: CronTaskRecord[];
  packages: PackageRecord[];
  unadopted: UnadoptedRecord[];
  notifications: NotificationRecord[];
}

export function emptyAdminStateData(): AdminStateData {
  return { runners: [], runnerTokens: [], actionRuns: [], actionJobs: [], cronTasks: [], packages: [], unadopted: [], notifications: [] };
}
