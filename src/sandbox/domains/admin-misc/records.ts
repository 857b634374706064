/**
 * Records of the other admin endpoints (`routers/api/v1/admin/{cron,adopt,packages}.go`): cron
 * tasks, packages and unadopted repository directories. Saved in the state file with everything
 * else (`StateData` extends {@link AdminMiscData}).
 */

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

export interface AdminMiscData {
  /** Empty until first used: the vanilla task table is filled in then (see cron.ts). */
  cronTasks: CronTaskRecord[];
  packages: PackageRecord[];
  unadopted: UnadoptedRecord[];
}

export function emptyAdminMiscData(): AdminMiscData {
  return { cronTasks: [], packages: [], unadopted: [] };
}
