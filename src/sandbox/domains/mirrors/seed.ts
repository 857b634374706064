/**
 * Seed keys: `mirror:` (the server's `[mirror]` settings: enabled, disable_new_pull, disable_new_push,
 * min_interval) and `repos[].push_mirrors` (each made as `POST …/push_mirrors` makes it: the same checks).
 */
import type { NestedSeed, SeedContext } from '../../core/domain.js';
import { bool, list, obj, SeedError, str } from '../../core/seed-shape.js';
import type { RepoRecord } from '../../core/state.js';
import { parseGoDuration } from './duration.js';
import { createPushMirror } from './service.js';

export function loadMirrorSettings(cx: SeedContext): void {
  if (cx.top.mirror === undefined) return;
  const m = obj(cx.top.mirror, 'mirror', ['enabled', 'disable_new_pull', 'disable_new_push', 'min_interval']);
  const s = cx.state.data.mirrorSettings;
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

export const repoPushMirrorsSeed: NestedSeed<RepoRecord> = {
  keys: ['push_mirrors'],
  load(cx, repo, entry, p) {
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
}
export interface SeedPushMirror {
  remote_address: string;
  interval?: string;
  sync_on_commit?: boolean;
  branch_filter?: string;
}
