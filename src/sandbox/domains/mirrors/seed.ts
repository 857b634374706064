/**
 * Seed keys: `mirror:` (the server's `[mirror]` settings: enabled, disable_new_pull, disable_new_push,
 * min_interval) and `repos[].push_mirrors` (each made as `POST …/push_mirrors` makes it: the same checks).
 */
import type { NestedSeed, SeedContext } from '../../core/domain.js';
import { bool, list, obj, SeedError, str, strings } from '../../core/seed-shape.js';
import type { RepoRecord } from '../../core/state.js';
import { parseGoDuration } from '../../../go-duration.js';
import { createPushMirror, sanitizeUrl } from './service.js';
import { DEFAULT_MIGRATION_SETTINGS, DEFAULT_MIRROR_SETTINGS } from './records.js';

export function loadMirrorSettings(cx: SeedContext): void {
  loadMigrationSettings(cx);
  if (cx.top.mirror === undefined) return;
  const m = obj(cx.top.mirror, 'mirror', ['enabled', 'disable_new_pull', 'disable_new_push', 'min_interval']);
  const s = (cx.state.data.mirrorSettings ??= { ...DEFAULT_MIRROR_SETTINGS });
  s.enabled = bool(m.enabled, 'mirror.enabled') ?? s.enabled;
  // `loadMirrorFrom`: a disabled feature disables new pull and push mirrors too.
  s.disableNewPull = !s.enabled || (bool(m.disable_new_pull, 'mirror.disable_new_pull') ?? false);
  s.disableNewPush = !s.enabled || (bool(m.disable_new_push, 'mirror.disable_new_push') ?? false);
  const min = str(m.min_interval, 'mirror.min_interval');
  if (min !== undefined) {
    const ns = parseGoDuration(min);
    if (ns === undefined) throw new SeedError(`mirror.min_interval: ${JSON.stringify(min)} is not a duration (e.g. 10m)`);
    // Below a minute Gitea logs a warning and takes a minute.
    s.minInterval = String(ns < 60_000_000_000n ? 60_000_000_000n : ns);
  }
}

/** `migrations: { disabled, allowed_domains, blocked_domains, allow_local_networks }`. */
function loadMigrationSettings(cx: SeedContext): void {
  if (cx.top.migrations === undefined) return;
  const m = obj(cx.top.migrations, 'migrations', ['disabled', 'allowed_domains', 'blocked_domains', 'allow_local_networks']);
  const s = (cx.state.data.migrationSettings ??= { ...DEFAULT_MIGRATION_SETTINGS });
  s.disabled = bool(m.disabled, 'migrations.disabled') ?? s.disabled;
  s.allowedDomains = m.allowed_domains === undefined ? s.allowedDomains : strings(m.allowed_domains, 'migrations.allowed_domains');
  s.blockedDomains = m.blocked_domains === undefined ? s.blockedDomains : strings(m.blocked_domains, 'migrations.blocked_domains');
  s.allowLocalNetworks = bool(m.allow_local_networks, 'migrations.allow_local_networks') ?? s.allowLocalNetworks;
}

/** `repos[].mirror: { from, interval }`: the repository is a pull mirror of `from` (as `POST /repos/migrate` with mirror: true leaves it). */
function loadPullMirror(cx: SeedContext, repo: RepoRecord, raw: unknown, at: string): void {
  const m = obj(raw, at, ['from', 'interval']);
  const from = str(m.from, `${at}.from`, true)!;
  const interval = str(m.interval, `${at}.interval`) ?? '8h';
  const ns = parseGoDuration(interval);
  if (ns === undefined) throw new SeedError(`${at}.interval: ${JSON.stringify(interval)} is not a duration (e.g. 8h)`);
  repo.originalUrl = from;
  cx.state.data.pullMirrors.push({ repoId: repo.id, interval: String(ns), remoteAddress: sanitizeUrl(from), enablePrune: true });
}

export const repoPushMirrorsSeed: NestedSeed<RepoRecord> = {
  keys: ['push_mirrors', 'mirror'],
  load(cx, repo, entry, p) {
    if (entry.mirror !== undefined) loadPullMirror(cx, repo, entry.mirror, `${p}.mirror`);
    list(entry.push_mirrors, `${p}.push_mirrors`).forEach((raw, i) => {
      const at = `${p}.push_mirrors[${i}]`;
      const m = obj(raw, at, ['remote_address', 'interval', 'sync_on_commit', 'branch_filter']);
      const address = str(m.remote_address, `${at}.remote_address`, true)!;
      const interval = str(m.interval, `${at}.interval`) ?? '8h';
      if (parseGoDuration(interval) === undefined) throw new SeedError(`${at}.interval: ${JSON.stringify(interval)} is not a duration (e.g. 8h)`);
      createPushMirror(cx.state, repo, { remote_address: address, interval, sync_on_commit: bool(m.sync_on_commit, `${at}.sync_on_commit`) ?? false, branch_filter: str(m.branch_filter, `${at}.branch_filter`) ?? '' });
    });
  },
};

/** The seed file's keys of this domain (src/sandbox/seed.ts SeedFile). */
export interface SeedMirrorSettings {
  mirror?: { enabled?: boolean; disable_new_pull?: boolean; disable_new_push?: boolean; min_interval?: string };
  migrations?: { disabled?: boolean; allowed_domains?: string[]; blocked_domains?: string[]; allow_local_networks?: boolean };
}
export interface SeedPullMirror {
  from: string;
  interval?: string;
}
export interface SeedPushMirror {
  remote_address: string;
  interval?: string;
  sync_on_commit?: boolean;
  branch_filter?: string;
}
