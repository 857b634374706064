/**
 * Issues: `POST /repos/{o}/{r}/issues` and `GET /repos/{o}/{r}/issues/{index}`.
 *
 * Create follows `repo.CreateIssue`: token, not archived (423), binding, issue read access; the
 * fields only writers may set (labels, milestone, assignees, deadline) are dropped silently for
 * other callers; unknown or foreign label ids and an unknown milestone are dropped silently; an
 * unknown assignee is 422. Issues keep their labels as label ids (see `IssueRecord`), so the issue
 * label and issue edit routes can be added beside these.
 */
import { reqToken, scope } from '../http/auth.js';
import { bind, canRead, canWrite, mustEnableIssuesOrPulls, mustNotBeArchived, notFound, repoAssignment, reqRepoReader } from '../http/checks.js';
import type { ApiContext } from '../http/context.js';
import { json } from '../http/respond.js';
import type { ApiRouter } from '../http/router.js';
import { toIssue } from '../convert.js';
import { repoAccessMode } from '../permissions.js';
import { AccessMode, nowIso, type IssueRecord, type RepoRecord, type SandboxState, type UserRecord } from '../state.js';
import { failure, fail, isFailure, type Failure } from './shared.js';
import { parseGoInt } from './labels.js';

export interface NewIssue {
  title: string;
  body?: string;
  ref?: string;
  authorId: number;
  labelIds?: number[];
  milestoneId?: number;
  assigneeIds?: number[];
  dueDate?: string | null;
  closed?: boolean;
}

/** Labels that may be put on an issue of `repo`: its own, and its organisation's. */
export function isLabelUsableIn(state: SandboxState, repo: RepoRecord, labelId: number): boolean {
  const label = state.labelById(labelId);
  if (!label) return false;
  return label.repoId === repo.id || (label.repoId === 0 && label.orgId !== 0 && label.orgId === repo.ownerId);
}

/** `CanBeAssigned`: write access to the repository, or read access to its pull requests. */
export function canBeAssigned(state: SandboxState, repo: RepoRecord, user: UserRecord): boolean {
  const mode = repoAccessMode(state, repo, user);
  return mode >= AccessMode.Write || (repo.units.hasPullRequests && mode >= AccessMode.Read);
}

/** Renders a time as Gitea does for a Unix timestamp: RFC 3339, seconds, UTC. */
function toTimestamp(iso: string): string {
  return new Date(Math.floor(Date.parse(iso) / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Creates an issue (shared with the seed loader). Invalid labels and milestones are dropped. */
export function createIssue(state: SandboxState, repo: RepoRecord, input: NewIssue): IssueRecord {
  const now = nowIso();
  const milestone = input.milestoneId ? state.milestoneById(input.milestoneId) : undefined;
  const labelIds: number[] = [];
  for (const id of input.labelIds ?? []) if (!labelIds.includes(id) && isLabelUsableIn(state, repo, id)) labelIds.push(id);
  const issue: IssueRecord = {
    id: state.nextId('issue'),
    repoId: repo.id,
    index: state.nextIssueIndex(repo.id),
    authorId: input.authorId,
    title: input.title,
    body: input.body ?? '',
    ref: input.ref ?? '',
    state: input.closed ? 'closed' : 'open',
    labelIds,
    milestoneId: milestone && milestone.repoId === repo.id ? milestone.id : 0,
    assigneeIds: [...new Set(input.assigneeIds ?? [])],
    dueDate: input.dueDate ? toTimestamp(input.dueDate) : null,
    contentVersion: 0,
    isLocked: false,
    isPull: false,
    numComments: 0,
    pinOrder: 0,
    createdAt: now,
    updatedAt: now,
    closedAt: input.closed ? now : null,
  };
  state.data.issues.push(issue);
  return issue;
}

interface CreateIssueForm {
  title: string;
  body?: string;
  ref?: string;
  assignee?: string;
  assignees?: string[];
  due_date?: string;
  milestone?: number;
  labels?: number[];
  closed?: boolean;
}

/** `MakeIDsFromAPIAssigneesToAdd` + the `CanBeAssigned` check. */
function resolveAssignees(state: SandboxState, repo: RepoRecord, one: string, many: string[]): number[] | Failure {
  const names: string[] = [];
  if (one !== '' && !many.includes(one)) names.push(one);
  if (many.length > 0 && many[0] !== '') names.push(...many);
  const ids: number[] = [];
  for (const name of names) {
    const user = state.userByName(name);
    if (!user) return failure(422, `Assignee does not exist: [name: user does not exist [uid: 0, name: ${name}]]`);
    ids.push(user.id);
  }
  for (const id of ids) {
    const user = state.userById(id)!;
    if (!canBeAssigned(state, repo, user)) return failure(422, `user doesn't have access to repo [user_id: ${id}, repo_name: ${repo.name}]`);
  }
  return ids;
}

function createIssueRoute(ctx: ApiContext): Response {
  const repo = ctx.repo!;
  const form = ctx.form as unknown as CreateIssueForm;
  const writer = canWrite(ctx, 'issues');
  let assigneeIds: number[] = [];
  if (writer) {
    const res = resolveAssignees(ctx.state, repo, form.assignee ?? '', form.assignees ?? []);
    if (isFailure(res)) return fail(ctx, res);
    assigneeIds = res;
  }
  const issue = createIssue(ctx.state, repo, {
    title: form.title,
    body: form.body,
    ref: form.ref,
    authorId: ctx.doer!.id,
    labelIds: writer ? form.labels : [],
    milestoneId: writer ? form.milestone : 0,
    assigneeIds,
    dueDate: writer ? form.due_date : null,
    closed: form.closed,
  });
  return json(201, toIssue(ctx, issue, ctx.doer));
}

export function registerIssueRoutes(r: ApiRouter): void {
  const issues = [scope('issue'), repoAssignment, mustEnableIssuesOrPulls];

  r.on('POST', '/repos/:owner/:repo/issues', ...issues, reqToken, mustNotBeArchived, bind('CreateIssueOption'), reqRepoReader('issues'), createIssueRoute);

  r.on('GET', '/repos/:owner/:repo/issues/:index', ...issues, (ctx) => {
    const index = parseGoInt(ctx.params.index ?? '') ?? 0;
    const issue = ctx.state.issueByIndex(ctx.repo!.id, index);
    if (!issue) return notFound(ctx);
    if (!canRead(ctx, issue.isPull ? 'pulls' : 'issues')) return notFound(ctx);
    return json(200, toIssue(ctx, issue, ctx.doer));
  });
}

