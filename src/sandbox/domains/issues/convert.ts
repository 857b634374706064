/** API `Issue` and `Project` objects. */
import { goPathEscape } from '../../http/respond.js';
import type { ConvertContext } from '../../core/convert.js';
import { shapeAnswer } from '../../flavours/releases.js';
import { formatInZone } from '../../core/timezone.js';
import { type IssueRecord, projectById, type ProjectRecord } from './records.js';
import { labelById, type LabelRecord } from '../labels/records.js';
import type { UserRecord } from '../../core/state.js';
import { toLabel } from '../labels/convert.js';
import { toMilestone } from '../milestones/convert.js';
import { repoApiUrl, repoHtmlUrl } from '../repos/convert.js';
import { toUser } from '../users/convert.js';
import { milestoneById } from '../milestones/records.js';

/** Labels of an issue as the API lists them: sorted by name. */
export function issueLabels(cx: ConvertContext, issue: IssueRecord): LabelRecord[] {
  return issue.labelIds
    .map((id) => labelById(cx.state, id))
    .filter((l): l is LabelRecord => l !== undefined)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
}

/** `convert.ToAPIIssue`. */
export function toIssue(cx: ConvertContext, issue: IssueRecord, doer: UserRecord | null): Record<string, unknown> {
  const repo = cx.state.repoById(issue.repoId);
  if (!repo) throw new Error(`issue ${issue.id} has no repository`);
  const owner = cx.state.repoOwner(repo);
  const author = cx.state.userById(issue.authorId);
  const assignees = issue.assigneeIds.map((id) => cx.state.userById(id)).filter((u): u is UserRecord => u !== undefined);
  const milestone = issue.milestoneId ? milestoneById(cx.state, issue.milestoneId) : undefined;
  return shapeAnswer(cx.flavour, 'Issue', {
    id: issue.id,
    url: `${repoApiUrl(cx, repo)}/issues/${issue.index}`,
    html_url: `${repoHtmlUrl(cx, repo)}/issues/${issue.index}`,
    number: issue.index,
    user: author ? toUser(cx, author, doer) : null,
    original_author: '',
    original_author_id: 0,
    title: issue.title,
    body: issue.body,
    ref: issue.ref,
    assets: [],
    labels: issueLabels(cx, issue).map((l) => toLabel(cx, l)),
    milestone: milestone ? toMilestone(cx, milestone) : null,
    // Go keeps a nil slice: no assignees is `null`, not `[]`.
    assignee: assignees[0] ? toUser(cx, assignees[0], null) : null,
    assignees: assignees.length ? assignees.map((a) => toUser(cx, a, null)) : null,
    state: issue.state,
    is_locked: issue.isLocked,
    comments: issue.numComments,
    // Every time of an issue is read back through `AsTime()` (services/convert/issue.go): in the server's zone.
    created_at: zoned(cx, issue.createdAt),
    updated_at: zoned(cx, issue.updatedAt),
    closed_at: zoned(cx, issue.closedAt),
    due_date: zoned(cx, issue.dueDate),
    time_estimate: 0,
    pull_request: null,
    repository: { id: repo.id, name: repo.name, owner: owner.name, full_name: `${owner.name}/${repo.name}` },
    pin_order: issue.pinOrder,
    content_version: issue.contentVersion,
    projects: (issue.projectIds ?? [])
      .map((id) => projectById(cx.state, id))
      .filter((p): p is ProjectRecord => p !== undefined)
      .map((p) => toProject(cx, p)),
  });
}

/** A stored instant as the server's answers show it: in its zone (`2024-05-02T08:59:59+09:00`). */
function zoned<T extends string | null | undefined>(cx: ConvertContext, time: T): T {
  return (time && cx.timezone ? formatInZone(time, cx.timezone) : time) as T;
}

/** `structs.Project` (newest swagger; `creator`, `updated_at`, `closed_at`, `html_url` are omitempty). */
export function toProject(cx: ConvertContext, p: ProjectRecord): Record<string, unknown> {
  const issues = cx.state.data.issues.filter((i) => (i.projectIds ?? []).includes(p.id));
  const repo = p.repoId ? cx.state.repoById(p.repoId) : undefined;
  const owner = p.ownerId ? cx.state.ownerById(p.ownerId) : undefined;
  const html = repo ? `${repoHtmlUrl(cx, repo)}/projects/${p.id}` : owner ? `${cx.root}${owner.kind === 'org' ? 'org/' : ''}${goPathEscape(owner.name)}/-/projects/${p.id}` : '';
  return {
    id: p.id,
    title: p.title,
    description: p.description,
    owner_id: p.ownerId,
    repo_id: p.repoId,
    state: p.state,
    template_type: 'none',
    card_type: 'text_only',
    type: p.repoId ? 'repository' : owner?.kind === 'org' ? 'organization' : 'individual',
    num_open_issues: issues.filter((i) => i.state === 'open').length,
    num_closed_issues: issues.filter((i) => i.state === 'closed').length,
    num_issues: issues.length,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    ...(p.closedAt ? { closed_at: p.closedAt } : {}),
    ...(html ? { html_url: html } : {}),
  };
}
