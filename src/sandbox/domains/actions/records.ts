/**
 * Records of the Actions admin endpoints (`models/actions/{runner,runner_token}.go`): runners, the
 * runner registration token, workflow runs and jobs. Saved in the state file with everything else
 * (part of `StateData`).
 */
import type { StateData } from '../../core/state.js';

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

declare module '../../core/state.js' {
  /** The actions domain's tables: part of the state, saved in the state file (the domain's `data`). */
  interface StateData {
    runners: RunnerRecord[];
    runnerTokens: RunnerTokenRecord[];
    actionRuns: ActionRunRecord[];
    actionJobs: ActionJobRecord[];
  }
}

export type ActionsData = Pick<StateData, 'runners' | 'runnerTokens' | 'actionRuns' | 'actionJobs'>;

export function emptyActionsData(): ActionsData {
  return { runners: [], runnerTokens: [], actionRuns: [], actionJobs: [] };
}
