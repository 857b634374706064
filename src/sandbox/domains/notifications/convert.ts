/** API `NotificationThread` objects. */
import { repoApiUrl, repoHtmlUrl, toRepo } from '../repos/convert.js';
import type { ConvertContext } from '../../core/convert.js';
import { goPathEscape } from '../../http/respond.js';
import { AccessMode } from '../../core/state.js';
import type { NotificationRecord } from './records.js';

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
