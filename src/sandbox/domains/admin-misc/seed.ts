/**
 * Seed keys `cron` (task overrides, like `[cron.<task>]` in app.ini), `packages` and `unadopted`
 * (repository directories without a database row). Loaded once users, organisations and
 * repositories exist; documented in README.md.
 */
import { cronTasks, isSupportedSchedule } from './cron.js';
import { PACKAGE_TYPES } from './routes.js';
import type { SeedContext } from '../../core/domain.js';
import { bool, integer, list, obj, oneOf, requireRepo, requireUser, SeedError, str, strings, time } from '../../core/seed-shape.js';
import { nowIso, type SandboxState, type UserRecord } from '../../core/state.js';

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

export interface SeedAdminMiscKeys {
  /** Task name → overrides, or `false` for a task that is not registered (its feature disabled). */
  cron?: Record<string, SeedCronTask | false>;
  packages?: SeedPackage[];
  /** `owner/name` or `{name, branches}`. */
  unadopted?: (string | SeedUnadopted)[];
}

const nonNegative = (v: unknown, path: string) => integer(v, path, 0);

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

export function loadAdminMiscSeed(cx: SeedContext): void {
  seedCron(cx.state, cx.top.cron);
  seedPackages(cx.state, cx.top.packages, cx.admin());
  seedUnadopted(cx.state, cx.top.unadopted);
}
