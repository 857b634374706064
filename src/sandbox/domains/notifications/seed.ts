/** Seed key `notifications`: notification threads of seeded users, repositories and issues (README.md). */
import type { SeedContext } from '../../core/domain.js';
import { integer, list, obj, oneOf, requireRepo, requireUser, SeedError, str, time } from '../../core/seed-shape.js';
import { nowIso, type SandboxState } from '../../core/state.js';
import type { NotificationSource } from './records.js';
import { issueByIndex } from '../issues/records.js';

export interface SeedNotification {
  user: string;
  /** `owner/name`. */
  repo: string;
  /** issue (default) | pull | commit | repository. */
  type?: string;
  /** The issue number, for issue and pull subjects. */
  issue?: number;
  /** The commit id, for commit subjects. */
  commit?: string;
  /** unread (default) | read | pinned. */
  status?: string;
  updated_at?: string;
}

const nonNegative = (v: unknown, path: string) => integer(v, path, 0);

function seedNotifications(state: SandboxState, raw: unknown): void {
  list(raw, 'notifications').forEach((n, i) => {
    const p = `notifications[${i}]`;
    const o = obj(n, p, ['user', 'repo', 'type', 'issue', 'commit', 'status', 'updated_at']);
    const user = requireUser(state, str(o.user, `${p}.user`, true)!, `${p}.user`);
    const repo = requireRepo(state, str(o.repo, `${p}.repo`, true)!, `${p}.repo`);
    const source: NotificationSource = oneOf(o.type, `${p}.type`, ['issue', 'pull', 'commit', 'repository'] as const) ?? 'issue';
    let issueId = 0;
    if (source === 'issue' || source === 'pull') {
      const index = nonNegative(o.issue, `${p}.issue`);
      if (index === undefined) throw new SeedError(`${p}.issue: required for ${source} notifications`);
      const issue = issueByIndex(state, repo.id, index);
      if (!issue) throw new SeedError(`${p}.issue: no issue #${index} in ${state.repoFullName(repo)}`);
      issueId = issue.id;
    }
    const commit = str(o.commit, `${p}.commit`) ?? '';
    if (source === 'commit' && !commit) throw new SeedError(`${p}.commit: required for commit notifications`);
    const updated = time(o.updated_at, `${p}.updated_at`) ?? nowIso();
    state.data.notifications.push({
      id: state.nextId('notification'),
      userId: user.id,
      repoId: repo.id,
      source,
      issueId,
      commitId: source === 'commit' ? commit : '',
      status: oneOf(o.status, `${p}.status`, ['unread', 'read', 'pinned'] as const) ?? 'unread',
      createdAt: updated,
      updatedAt: updated,
    });
  });
}

export function loadNotificationsSeed(cx: SeedContext): void {
  seedNotifications(cx.state, cx.top.notifications);
}
