/**
 * Pull requests, as far as the forgeform action needs them on the forge that runs its workflows.
 * The sandbox holds no git repositories, so a pull request cannot be opened or merged through the
 * API here: {@link openPull} and {@link mergePull} stand for the forge's web UI (a test calls them
 * with the commits of its own git repository). What the API serves of them is Gitea's:
 *
 * - `GET /repos/{o}/{r}/commits/{sha}/pull` (`routers/api/v1/repo/pull.go` `GetCommitPullRequest`,
 *   go-gitea/gitea main; registered in `routers/api/v1/api.go` under the `/commits` group, which
 *   needs read access to the code unit): the pull request whose merge commit is `sha`
 *   (`issues_model.GetPullRequestByMergedCommit`), else 404. Only merged pull requests have one.
 *   The first release that serves it is not verified (see NOTES.md); the sandbox serves it on every
 *   release it plays.
 * - `GET /repos/{o}/{r}/pulls/{index}` (`GetPullRequest`): 404 for an index that is an issue.
 *
 * The answer is `convert.ToAPIPullRequest` cut to the fields a client of pull requests reads.
 */
import { scope } from '../../http/auth.js';
import { repoAssignment, reqRepoReader } from '../../http/checks.js';
import { inRepo, type RepoContext } from '../../http/context.js';
import { apiError, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { nowIso, type SandboxState } from '../../core/state.js';
import { repoHtmlUrl } from '../repos/convert.js';
import { toUser } from '../users/convert.js';
import { parseGoInt } from '../labels/service.js';
import { issueById, issueByIndex, type IssueRecord, type PullRecord } from './records.js';
import { createIssue } from './service.js';

function pullsOf(state: SandboxState): PullRecord[] {
  state.data.pulls ??= [];
  return state.data.pulls;
}

/** Opens a pull request (the forge's web UI): an issue marked as a pull request, and its branches. */
export function openPull(state: SandboxState, repoFullName: string, input: { title: string; author: string; headRef: string; headSha: string; baseRef?: string }): number {
  const [ownerName, name] = repoFullName.split('/');
  const owner = state.ownerByName(ownerName ?? '');
  const repo = owner ? state.repoByName(owner.id, name ?? '') : undefined;
  const author = state.userByName(input.author);
  if (!repo || !author) throw new Error(`openPull: no repository ${repoFullName} or no user ${input.author}`);
  const issue = createIssue(state, repo, { title: input.title, authorId: author.id, labelIds: [] });
  issue.isPull = true;
  pullsOf(state).push({ issueId: issue.id, headRef: input.headRef, headSha: input.headSha, baseRef: input.baseRef ?? 'main', merged: false, mergedAt: null, mergeCommitSha: null });
  return issue.index;
}

function pullOf(state: SandboxState, repoFullName: string, index: number): { issue: IssueRecord; pull: PullRecord } {
  const [ownerName, name] = repoFullName.split('/');
  const owner = state.ownerByName(ownerName ?? '');
  const repo = owner ? state.repoByName(owner.id, name ?? '') : undefined;
  const issue = repo ? issueByIndex(state, repo.id, index) : undefined;
  const pull = issue ? pullsOf(state).find((p) => p.issueId === issue.id) : undefined;
  if (!issue || !pull) throw new Error(`no pull request ${repoFullName}#${index}`);
  return { issue, pull };
}

/** A new commit pushed to the pull request's branch. */
export function pushToPull(state: SandboxState, repoFullName: string, index: number, headSha: string): void {
  pullOf(state, repoFullName, index).pull.headSha = headSha;
}

/** Merges the pull request (the web UI's merge button): closed, merged, with its merge commit. */
export function mergePull(state: SandboxState, repoFullName: string, index: number, mergeCommitSha: string): void {
  const { issue, pull } = pullOf(state, repoFullName, index);
  const now = nowIso();
  Object.assign(pull, { merged: true, mergedAt: now, mergeCommitSha });
  Object.assign(issue, { state: 'closed', closedAt: now, updatedAt: now });
}

/** A pull request of the route's repository. */
function toPull(ctx: RepoContext, issue: IssueRecord, pull: PullRecord): Record<string, unknown> {
  const repo = ctx.repo;
  const html = `${repoHtmlUrl(ctx, repo)}/pulls/${issue.index}`;
  const author = ctx.state.userById(issue.authorId);
  return {
    id: issue.id,
    url: html,
    number: issue.index,
    user: author ? toUser(ctx, author, ctx.doer) : null,
    title: issue.title,
    body: issue.body,
    state: issue.state,
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    merged: pull.merged,
    merged_at: pull.mergedAt,
    merge_commit_sha: pull.mergeCommitSha,
    base: { label: pull.baseRef, ref: pull.baseRef, repo_id: repo.id },
    head: { label: pull.headRef, ref: pull.headRef, sha: pull.headSha, repo_id: repo.id },
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
  };
}

function commitPull(ctx: RepoContext): Response {
  const sha = ctx.params.sha ?? '';
  for (const pull of pullsOf(ctx.state)) {
    const issue = pull.mergeCommitSha === sha ? issueById(ctx.state, pull.issueId) : undefined;
    if (issue?.repoId === ctx.repo.id) return json(200, toPull(ctx, issue, pull));
  }
  // ErrPullRequestNotExist's text, as ctx.APIError(404, err) prints it.
  return apiError(ctx.root, 404, `pull request does not exist [id: 0, issue: 0, head_repo_id: 0, base_repo_id: ${ctx.repo.id}, head_branch: , base_branch: ]`);
}

function getPull(ctx: RepoContext): Response {
  const index = parseGoInt(ctx.params.index ?? '') ?? 0;
  const issue = issueByIndex(ctx.state, ctx.repo.id, index);
  const pull = issue ? pullsOf(ctx.state).find((p) => p.issueId === issue.id) : undefined;
  if (!issue || !pull) return apiError(ctx.root, 404, 'The target couldn\'t be found.');
  return json(200, toPull(ctx, issue, pull));
}

export function registerPullRoutes(r: ApiRouter): void {
  r.on('GET', '/repos/:owner/:repo/commits/:sha/pull', scope('repository'), repoAssignment, reqRepoReader('code'), inRepo(commitPull));
  r.on('GET', '/repos/:owner/:repo/pulls/:index', scope('repository'), repoAssignment, reqRepoReader('pulls'), inRepo(getPull));
}
