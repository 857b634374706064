/**
 * Records of the other admin endpoints (`routers/api/v1/admin/{cron,adopt,packages}.go`): cron
 * tasks, packages and unadopted repository directories. Saved in the state file with everything
 * else (part of `StateData`).
 */
import type { StateData } from '../../core/state.js';

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

declare module '../../core/state.js' {
  /** The admin-misc domain's tables: part of the state, saved in the state file (the domain's `data`). */
  interface StateData {
    /** Empty until first used: the vanilla task table is filled in then (see cron.ts). */
    cronTasks: CronTaskRecord[];
    packages: PackageRecord[];
    unadopted: UnadoptedRecord[];
  }
}

export type AdminMiscData = Pick<StateData, 'cronTasks' | 'packages' | 'unadopted'>;

export function emptyAdminMiscData(): AdminMiscData {
  return { cronTasks: [], packages: [], unadopted: [] };
}
