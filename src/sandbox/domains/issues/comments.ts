/**
 * Issue comments (`routers/api/v1/repo/issue_comment.go`), the endpoints that Gitea, Forgejo and
 * GitHub share and that the forgeform action uses for its sticky pull-request comment:
 *
 * - `GET /repos/{o}/{r}/issues/{index}/comments`: `since` / `before` (RFC 3339, 422 otherwise) on
 *   the update time; plain comments only; NO paging — Gitea builds its `FindCommentsOptions`
 *   without `ListOptions`, so `page` and `limit` are ignored and every comment comes back, with
 *   `X-Total-Count`. An unknown index is a 500 (`GetIssueByIndex` error, not a 404).
 * - `POST` on the same path (token, not archived, `CreateIssueCommentOption`): 201; a locked issue
 *   takes comments from writers and site admins only (403).
 * - `GET|PATCH|DELETE /repos/{o}/{r}/issues/comments/{id}`: 404 (empty body) for a comment of
 *   another repository; PATCH and DELETE need the author or a writer (403, empty body); PATCH
 *   answers 200 with the comment, DELETE 204.
 *
 * Comments live in `state.data.comments` (see records.ts).
 */
import { reqToken, scope } from '../../http/auth.js';
import { bind, canRead, canWrite, formOf, internalError, mustEnableIssuesOrPulls, mustNotBeArchived, repoAssignment, notFound } from '../../http/checks.js';
import { type ApiContext, inRepo, type RepoContext, type SignedInContext, signedIn } from '../../http/context.js';
import { setTotalCountHeader } from '../../http/paging.js';
import { apiError, empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { nowIso, type SandboxState } from '../../core/state.js';
import { repoHtmlUrl } from '../repos/convert.js';
import { toUser } from '../users/convert.js';
import { parseGoInt } from '../labels/service.js';
import { issueFromPath } from './issue-labels.js';
import { beforeSince } from './routes.js';
import { CreateIssueCommentOption, EditIssueCommentOption } from './options.js';
import { type CommentRecord, issueById, type IssueRecord } from './records.js';

/** The comment table; a state file written before comments existed has none. */
export function commentsOf(state: SandboxState): CommentRecord[] {
  state.data.comments ??= [];
  return state.data.comments;
}

/**
 * `convert.ToAPIComment`: the poster rendered for no particular caller (`ToUser(ctx, poster, nil)`). The issue is one
 * of the route's repository (issueFromPath, commentFromPath).
 */
function toComment(ctx: RepoContext, comment: CommentRecord, issue: IssueRecord): Record<string, unknown> {
  const issueHtml = `${repoHtmlUrl(ctx, ctx.repo)}/${issue.isPull ? 'pulls' : 'issues'}/${issue.index}`;
  const poster = ctx.state.userById(comment.authorId);
  return {
    id: comment.id,
    html_url: `${issueHtml}#issuecomment-${comment.id}`,
    pull_request_url: issue.isPull ? issueHtml : '',
    issue_url: issue.isPull ? '' : issueHtml,
    user: poster ? toUser(ctx, poster, null) : null,
    original_author: '',
    original_author_id: 0,
    body: comment.body,
    assets: [],
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
  };
}


function issueOrError(ctx: RepoContext): IssueRecord | Response {
  const issue = issueFromPath(ctx);
  if (!issue) {
    const index = parseGoInt(ctx.params.index ?? '') ?? 0;
    return internalError(ctx, `issue does not exist [id: 0, repo_id: ${ctx.repo.id}, index: ${index}]`);
  }
  return canRead(ctx, issue.isPull ? 'pulls' : 'issues') ? issue : notFound(ctx);
}

function listComments(ctx: RepoContext): Response {
  const range = beforeSince(ctx);
  if (range instanceof Response) return range;
  const issue = issueOrError(ctx);
  if (issue instanceof Response) return issue;
  // The bounds are whole seconds in milliseconds, as Gitea compares Unix seconds.
  const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000) * 1000;
  const matching = commentsOf(ctx.state)
    .filter((c) => c.issueId === issue.id)
    .filter((c) => (range.since === 0 || seconds(c.updatedAt) >= range.since) && (range.before === 0 || seconds(c.updatedAt) <= range.before))
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id);
  setTotalCountHeader(ctx, matching.length);
  return json(
    200,
    matching.map((c) => toComment(ctx, c, issue)),
  );
}

function createComment(ctx: RepoContext & SignedInContext): Response {
  const issue = issueOrError(ctx);
  if (issue instanceof Response) return issue;
  if (issue.isLocked && !canWrite(ctx, issue.isPull ? 'pulls' : 'issues') && !ctx.doer.isAdmin) {
    return apiError(ctx.root, 403, 'You cannot comment on a locked issue.');
  }
  const now = nowIso();
  const comment: CommentRecord = { id: ctx.state.nextId('comment'), issueId: issue.id, authorId: ctx.doer.id, body: formOf(ctx, CreateIssueCommentOption).body, createdAt: now, updatedAt: now };
  commentsOf(ctx.state).push(comment);
  issue.numComments += 1;
  issue.updatedAt = now;
  return json(201, toComment(ctx, comment, issue));
}

/** The comment of `{id}` in this repository, or the bare 404 Gitea answers. */
function commentFromPath(ctx: RepoContext): { comment: CommentRecord; issue: IssueRecord } | Response {
  const id = parseGoInt(ctx.params.id ?? '') ?? 0;
  const comment = commentsOf(ctx.state).find((c) => c.id === id);
  if (!comment) return apiError(ctx.root, 404, `comment does not exist [id: ${id}, issue_id: 0]`);
  const issue = issueById(ctx.state, comment.issueId);
  if (!issue || issue.repoId !== ctx.repo.id) return empty(404);
  return { comment, issue };
}

/** Author or writer; Gitea answers a bare 403. */
function mayChange(ctx: ApiContext, comment: CommentRecord, issue: IssueRecord): boolean {
  return ctx.isSigned && (ctx.doer?.id === comment.authorId || canWrite(ctx, issue.isPull ? 'pulls' : 'issues'));
}

function getComment(ctx: RepoContext): Response {
  const found = commentFromPath(ctx);
  if (found instanceof Response) return found;
  if (!canRead(ctx, found.issue.isPull ? 'pulls' : 'issues')) return notFound(ctx);
  return json(200, toComment(ctx, found.comment, found.issue));
}

function editComment(ctx: RepoContext): Response {
  const found = commentFromPath(ctx);
  if (found instanceof Response) return found;
  const { comment, issue } = found;
  if (!mayChange(ctx, comment, issue)) return empty(403);
  const body = formOf(ctx, EditIssueCommentOption).body;
  if (body !== comment.body) {
    comment.body = body;
    comment.updatedAt = nowIso();
  }
  return json(200, toComment(ctx, comment, issue));
}

function deleteComment(ctx: RepoContext): Response {
  const found = commentFromPath(ctx);
  if (found instanceof Response) return found;
  const { comment, issue } = found;
  if (!mayChange(ctx, comment, issue)) return empty(403);
  const all = commentsOf(ctx.state);
  all.splice(all.indexOf(comment), 1);
  issue.numComments = Math.max(0, issue.numComments - 1);
  return empty(204);
}

export function registerIssueCommentRoutes(r: ApiRouter): void {
  const issues = [scope('issue'), repoAssignment, mustEnableIssuesOrPulls];
  r.on('GET', '/repos/:owner/:repo/issues/comments/:id', ...issues, inRepo(getComment));
  r.on('PATCH', '/repos/:owner/:repo/issues/comments/:id', ...issues, mustNotBeArchived, reqToken, bind(EditIssueCommentOption), inRepo(editComment));
  r.on('DELETE', '/repos/:owner/:repo/issues/comments/:id', ...issues, reqToken, inRepo(deleteComment));
  r.on('GET', '/repos/:owner/:repo/issues/:index/comments', ...issues, inRepo(listComments));
  r.on('POST', '/repos/:owner/:repo/issues/:index/comments', ...issues, reqToken, mustNotBeArchived, bind(CreateIssueCommentOption), inRepo(signedIn(createComment)));
}
