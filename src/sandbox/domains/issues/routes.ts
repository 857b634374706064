/**
 * Issues (`routers/api/v1/repo/issue.go`, v1.23 generation plus the newest swagger's
 * `content_version` and `projects`):
 *
 * - `POST /repos/{o}/{r}/issues`: token, not archived (423), binding, issue read access; the fields
 *   only writers may set (labels, milestone, assignees, deadline) are dropped silently for other
 *   callers; unknown or foreign label ids and an unknown milestone are dropped silently; an unknown
 *   assignee is 422. The deadline is saved as given (no end-of-day rounding on create).
 * - `GET /repos/{o}/{r}/issues/{index}`.
 * - `PATCH /repos/{o}/{r}/issues/{index}` (`routers/api/v1/repo/issue.go` `EditIssue`):
 *   author-or-writer gate (403, empty body), fields applied one after another — title, body, ref,
 *   deadline, assignees, milestone, projects, state — so a failure part-way keeps the earlier
 *   changes; 201 with the re-read issue.
 * - `GET /repos/{o}/{r}/issues` and `GET /repos/issues/search`: both send `X-Total-Count` and
 *   `Link` (`SetLinkHeader` + `SetTotalCountHeader` in both handlers).
 *
 * The issue label routes are in `issue-labels.ts`, the milestone routes in `milestones.ts`; both
 * are registered from here.
 */
import { reqToken, scope } from '../../http/auth.js';
import { bind, canRead, canWrite, internalError, mustEnableIssuesOrPulls, mustNotBeArchived, notFound, repoAssignment, reqRepoReader, formOf } from '../../http/checks.js';
import { type ApiContext, inRepo, type RepoContext, type SignedInContext, signedIn } from '../../http/context.js';
import { formInt, listOptions, setLinkHeader, setTotalCountHeader } from '../../http/paging.js';
import { formGoBool } from '../../http/form.js';
import { apiError, empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { toIssue } from './convert.js';
import { repoAccessMode } from '../../core/permissions.js';
import { teamByName, teamHasRepo } from '../teams/records.js';
import { AccessMode, nowIso, type RepoRecord, type SandboxState, type UserRecord } from '../../core/state.js';
import { type IssueRecord, issuesOfRepo, projectById } from './records.js';
import { issueFromPath, registerIssueLabelRoutes } from './issue-labels.js';
import { parseGoInt } from '../labels/service.js';
import { unixSecondsIso } from '../milestones/service.js';
import { failure, fail, isFailure, type Failure } from '../../core/failure.js';
import { CreateIssueOption, EditIssueOption } from './options.js';
import { labelById, labelsOfRepo } from '../labels/records.js';
import { milestoneById, milestonesOfRepo } from '../milestones/records.js';
import { canBeAssigned, createIssue, isProjectUsableIn } from './service.js';
import { hasQuirk } from '../../flavours/releases.js';


// ---- create -------------------------------------------------------------------------------------


/** `MakeIDsFromAPIAssigneesToAdd` + the `CanBeAssigned` check. */
function resolveAssignees(state: SandboxState, repo: RepoRecord, one: string, many: string[]): number[] | Failure {
  const names: string[] = [];
  if (one !== '' && !many.includes(one)) names.push(one);
  if (many.length > 0 && many[0] !== '') names.push(...many);
  const users: UserRecord[] = [];
  for (const name of names) {
    const user = state.userByName(name);
    if (!user) return failure(422, `Assignee does not exist: [name: user does not exist [uid: 0, name: ${name}]]`);
    users.push(user);
  }
  for (const user of users) {
    if (!canBeAssigned(state, repo, user)) return failure(422, `user doesn't have access to repo [user_id: ${user.id}, repo_name: ${repo.name}]`);
  }
  return users.map((u) => u.id);
}

function createIssueRoute(ctx: RepoContext & SignedInContext): Response {
  const repo = ctx.repo;
  const form = formOf(ctx, CreateIssueOption);
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
    authorId: ctx.doer.id,
    labelIds: writer ? form.labels : [],
    milestoneId: writer ? form.milestone : 0,
    assigneeIds,
    dueDate: writer ? form.due_date : null,
    closed: form.closed,
  });
  return json(201, toIssue(ctx, issue, ctx.doer));
}

// ---- edit ---------------------------------------------------------------------------------------


/**
 * `time.Date(y, m, d, 23, 59, 59, 0, deadline.Location())`: the end of the calendar day the
 * timestamp names, in the offset it was given with.
 */
export function endOfDay(rfc3339: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt][^Zz+-]*(?:([Zz])|([+-])(\d{2}):(\d{2}))$/.exec(rfc3339);
  if (!m) return unixSecondsIso(rfc3339);
  const offsetMinutes = m[4] ? 0 : (m[5] === '-' ? -1 : 1) * (Number(m[6]) * 60 + Number(m[7]));
  const utc = new Date(0);
  utc.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  utc.setUTCHours(23, 59, 59, 0);
  return unixSecondsIso(utc.getTime() - offsetMinutes * 60_000);
}

/** `time.Time.IsZero`: the instant 0001-01-01T00:00:00Z. */
function isZeroTime(rfc3339: string): boolean {
  const d = new Date(0);
  d.setUTCFullYear(1, 0, 1);
  return Date.parse(rfc3339) === d.getTime();
}

/**
 * `issue_service.UpdateAssignees`: resolve every name first (an unknown one fails before any
 * change), remove the assignees not named, then add the new ones — stopping at the first who
 * cannot be assigned (the removals and earlier additions stay).
 */
function updateAssignees(ctx: ApiContext, repo: RepoRecord, issue: IssueRecord, one: string, many: string[]): Response | undefined {
  const names = [...new Set([...many, ...(one !== '' ? [one] : [])])];
  // `GetUserByName` reads the user table, which holds organisations too.
  const found: ({ kind: 'user'; user: UserRecord } | { kind: 'org'; id: number })[] = [];
  for (const name of names) {
    const user = ctx.state.userByName(name);
    const org = user ? undefined : ctx.state.orgByName(name);
    if (user) found.push({ kind: 'user', user });
    else if (org) found.push({ kind: 'org', id: org.id });
    else return internalError(ctx, `user does not exist [uid: 0, name: ${name}]`);
  }
  const named = new Set(found.map((f) => (f.kind === 'user' ? f.user.id : f.id)));
  if (issue.assigneeIds.some((id) => !named.has(id))) {
    issue.assigneeIds = issue.assigneeIds.filter((id) => named.has(id));
    issue.updatedAt = nowIso();
  }
  for (const f of found) {
    if (f.kind === 'org') return internalError(ctx, `organization can't be added as assignee [user_id: ${f.id}, repo_id: ${repo.id}]`);
    if (issue.assigneeIds.includes(f.user.id)) continue;
    if (!canBeAssigned(ctx.state, repo, f.user)) return internalError(ctx, `user doesn't have access to repo [user_id: ${f.user.id}, repo_name: ${repo.name}]`);
    issue.assigneeIds.push(f.user.id);
    issue.updatedAt = nowIso();
  }
  return undefined;
}

function editIssueRoute(ctx: RepoContext & SignedInContext): Response {
  const repo = ctx.repo;
  const doer = ctx.doer;
  const issue = issueFromPath(ctx);
  if (!issue) return notFound(ctx);
  const writer = canWrite(ctx, issue.isPull ? 'pulls' : 'issues');
  if (issue.authorId !== doer.id && !writer) return empty(403);
  const form = formOf(ctx, EditIssueOption);
  const touch = (): void => {
    issue.updatedAt = nowIso();
  };

  // 1. title: "" (or absent) leaves it unchanged.
  if (form.title && form.title !== issue.title) {
    issue.title = form.title;
    touch();
  }
  // 2. body, with the optimistic lock of the newest swagger; every body edit advances the version.
  if (form.body !== undefined) {
    if (form.content_version !== undefined && form.content_version !== issue.contentVersion) return apiError(ctx.root, 409, 'the issue is already changed');
    issue.body = form.body;
    issue.contentVersion += 1;
    touch();
  }
  // 3. ref.
  if (form.ref !== undefined) {
    issue.ref = form.ref;
    touch();
  }
  // 4. deadline (writers only): 23:59:59 of the given day; `unset_due_date: true` or a zero time removes it.
  if ((form.due_date !== undefined || form.unset_due_date !== undefined) && writer) {
    let due: string | null = null;
    if (form.unset_due_date !== true) {
      if (form.due_date === undefined && hasQuirk(ctx.flavour, 'issueDueDateNilPanics')) return internalError(ctx, 'runtime error: invalid memory address or nil pointer dereference');
      if (form.due_date === undefined) return apiError(ctx.root, 400, 'The due_date cannot be empty');
      if (!isZeroTime(form.due_date)) due = endOfDay(form.due_date);
    }
    issue.dueDate = due;
    touch();
  }
  // 5. assignees (writers only): `assignees` replaces the set, `assignee` is merged into it.
  if (writer && (form.assignees !== undefined || form.assignee !== undefined)) {
    const res = updateAssignees(ctx, repo, issue, form.assignee ?? '', form.assignees ?? []);
    if (res) return res;
  }
  // 6. milestone (writers only): 0 removes it; another repository's or an unknown id is a 500.
  if (writer && form.milestone !== undefined && form.milestone !== issue.milestoneId) {
    if (form.milestone > 0 && milestoneById(ctx.state, form.milestone)?.repoId !== repo.id) {
      return internalError(ctx, "HasMilestoneByRepoID: issue doesn't exist");
    }
    issue.milestoneId = form.milestone;
    touch();
  }
  // 7. projects (swagger only; assumed writers only): the list replaces the set, `[]` clears it.
  if (writer && form.projects !== undefined) {
    const ids = [...new Set(form.projects)];
    const unknown = ids.find((id) => !isProjectUsableIn(repo, projectById(ctx.state, id)));
    if (unknown !== undefined) return apiError(ctx.root, 422, `projects does not exist [id: ${unknown}]`);
    issue.projectIds = ids;
    touch();
  }
  // 8. state: author or writer; anything but open/closed is 412.
  if (form.state !== undefined) {
    const state = hasQuirk(ctx.flavour, 'issueStateAnyOpens') && form.state !== 'closed' ? 'open' : form.state;
    if (state !== 'open' && state !== 'closed') return apiError(ctx.root, 412, `unknown state: ${state}`);
    if (state === 'closed' && issue.state === 'open') {
      issue.state = 'closed';
      issue.closedAt = nowIso();
      touch();
    } else if (state === 'open' && issue.state === 'closed') {
      issue.state = 'open';
      issue.closedAt = null;
      touch();
    }
  }
  return json(201, toIssue(ctx, issue, doer));
}

// ---- lists --------------------------------------------------------------------------------------


const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** `GetQueryBeforeSince`: RFC 3339 `before` / `since` as Unix milliseconds (0 = none), or a 422. */
export function beforeSince(ctx: ApiContext): { before: number; since: number } | Response {
  const out = { before: 0, since: 0 };
  for (const key of ['before', 'since'] as const) {
    const value = (ctx.query.get(key) ?? '').trim();
    if (value === '') continue;
    if (!RFC3339.test(value) || Number.isNaN(Date.parse(value))) {
      return apiError(ctx.root, 422, `parsing time ${JSON.stringify(value)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(value)} as "2006"`);
    }
    if (!isZeroTime(value)) out[key] = Math.floor(Date.parse(value) / 1000) * 1000;
  }
  return out;
}

/** The keyword from `q` (`FormTrim`; a NUL byte disables it). */
function keywordOf(ctx: ApiContext): string {
  const q = (ctx.query.get('q') ?? '').trim();
  return q.includes('\0') ? '' : q.toLowerCase();
}

/** `state`: `closed`, `all`, anything else = open. */
function stateFilter(ctx: ApiContext): (i: IssueRecord) => boolean {
  const state = ctx.query.get('state') ?? '';
  return state === 'all' ? () => true : state === 'closed' ? (i) => i.state === 'closed' : (i) => i.state === 'open';
}

/** The db indexer's keyword match: case-insensitive substring of the title or the body. */
function matchesKeyword(issue: IssueRecord, keyword: string): boolean {
  return keyword === '' || issue.title.toLowerCase().includes(keyword) || issue.body.toLowerCase().includes(keyword);
}

/** Mentions are not tracked: an `@login` in the body counts as one. */
function mentions(issue: IssueRecord, user: UserRecord): boolean {
  return new RegExp(`(^|[^\\w.-])@${user.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'i').test(issue.body);
}

/** Sort `newest`: creation time, then id, both descending. */
function newestFirst(a: IssueRecord, b: IssueRecord): number {
  return Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id;
}

function updatedWithin(issue: IssueRecord, range: { before: number; since: number }): boolean {
  const updated = Date.parse(issue.updatedAt);
  return (range.since === 0 || updated >= range.since) && (range.before === 0 || updated <= range.before);
}

function respondIssues(ctx: ApiContext, matching: IssueRecord[], page: number, pageSize: number, linkPageSize: number): Response {
  const sorted = [...matching].sort(newestFirst);
  setLinkHeader(ctx, sorted.length, linkPageSize);
  setTotalCountHeader(ctx, sorted.length);
  const start = (page - 1) * pageSize;
  return json(
    200,
    sorted.slice(start, start + pageSize).map((i) => toIssue(ctx, i, ctx.doer)),
  );
}

/** `ListIssues`: one repository; label names (repository labels only) must all be present. */
function listRepoIssues(ctx: RepoContext): Response {
  const repo = ctx.repo;
  const range = beforeSince(ctx);
  if (range instanceof Response) return range;
  const keyword = keywordOf(ctx);
  const labelNames = (ctx.query.get('labels') ?? '').split(',');
  const labelIds = labelsOfRepo(ctx.state, repo.id)
    .filter((l) => labelNames.includes(l.name))
    .map((l) => l.id);
  const milestoneIds: number[] = [];
  for (const part of (ctx.query.get('milestones') ?? '').split(',')) {
    const milestones = milestonesOfRepo(ctx.state, repo.id).sort((a, b) => a.id - b.id);
    const byName = milestones.find((m) => m.title === part);
    const id = parseGoInt(part);
    const found = byName ?? (id !== null ? milestones.find((m) => m.id === id) : undefined);
    if (found) milestoneIds.push(found.id);
  }
  const opts = listOptions(ctx);
  let isPull: boolean | undefined;
  const type = ctx.query.get('type') ?? '';
  if (type === 'pulls' || type === 'issues') {
    isPull = type === 'pulls';
    if (!canRead(ctx, isPull ? 'pulls' : 'issues')) return notFound(ctx);
  } else {
    const issues = canRead(ctx, 'issues');
    const pulls = canRead(ctx, 'pulls');
    if (!issues && !pulls) return notFound(ctx);
    if (!issues) isPull = true;
    else if (!pulls) isPull = false;
  }
  const filterUsers: Partial<Record<'created_by' | 'assigned_by' | 'mentioned_by', UserRecord>> = {};
  for (const key of ['created_by', 'assigned_by', 'mentioned_by'] as const) {
    const name = ctx.query.get(key) ?? '';
    if (name === '') continue;
    const user = ctx.state.userByName(name);
    if (!user) return notFound(ctx, `user does not exist [uid: 0, name: ${name}]`);
    filterUsers[key] = user;
  }
  const isState = stateFilter(ctx);
  const matching = issuesOfRepo(ctx.state, repo.id).filter(
    (i) =>
      (isPull === undefined || i.isPull === isPull) &&
      isState(i) &&
      matchesKeyword(i, keyword) &&
      labelIds.every((id) => i.labelIds.includes(id)) &&
      (milestoneIds.length === 0 || milestoneIds.includes(i.milestoneId)) &&
      (!filterUsers.created_by || i.authorId === filterUsers.created_by.id) &&
      (!filterUsers.assigned_by || i.assigneeIds.includes(filterUsers.assigned_by.id)) &&
      (!filterUsers.mentioned_by || mentions(i, filterUsers.mentioned_by)) &&
      updatedWithin(i, range),
  );
  return respondIssues(ctx, matching, opts.page, opts.pageSize, opts.pageSize);
}

const ISSUE_PAGING_NUM = 20;

/**
 * `SearchIssues`: every repository the caller can read (or those of `owner`, or of `owner`'s
 * `team`); `labels` matches issues carrying a label of any of those names (of any repository or
 * organisation). Names no label has are dropped — when none is left there is no label filter at
 * all. `limit` defaults to `[ui] ISSUE_PAGING_NUM` (20), not 30.
 */
function searchIssues(ctx: ApiContext): Response {
  const range = beforeSince(ctx);
  if (range instanceof Response) return range;
  const doer = ctx.doer;
  let repos = ctx.state.data.repos.filter((r) => repoAccessMode(ctx.state, r, doer) >= AccessMode.Read);
  const ownerName = ctx.query.get('owner') ?? '';
  const owner = ownerName !== '' ? ctx.state.ownerByName(ownerName) : undefined;
  if (ownerName !== '') {
    if (!owner) return apiError(ctx.root, 400, `user does not exist [uid: 0, name: ${ownerName}]`);
    repos = repos.filter((r) => r.ownerId === owner.id);
  }
  const teamName = ctx.query.get('team') ?? '';
  if (teamName !== '') {
    if (!owner) return apiError(ctx.root, 400, 'Owner organisation is required for filtering on team');
    const ownerId = owner.id;
    const team = teamByName(ctx.state, ownerId, teamName);
    if (!team) return apiError(ctx.root, 400, `team does not exist [org_id ${ownerId}, team_id 0, name: ${teamName}]`);
    repos = repos.filter((r) => teamHasRepo(team, r));
  }
  const repoIds = new Set(repos.map((r) => r.id));
  const keyword = keywordOf(ctx);
  const type = ctx.query.get('type') ?? '';
  const isPull = type === 'pulls' ? true : type === 'issues' ? false : undefined;

  const labelParam = (ctx.query.get('labels') ?? '').trim();
  const wanted = labelParam === '' ? [] : labelParam.split(',');
  const labelNames = new Set(ctx.state.data.labels.filter((l) => wanted.includes(l.name)).map((l) => l.name));
  const milestoneParam = (ctx.query.get('milestones') ?? '').trim();
  const wantedMilestones = milestoneParam === '' ? [] : milestoneParam.split(',').map((m) => m.toLowerCase());
  const milestoneIds = ctx.state.data.milestones.filter((m) => wantedMilestones.includes(m.title.toLowerCase())).map((m) => m.id);

  let limit = formInt(ctx.query, 'limit');
  if (limit === 0) limit = ISSUE_PAGING_NUM;
  else if (limit > 50) limit = 50;
  let page = formInt(ctx.query, 'page');
  if (page <= 0) page = 1;

  const signedIn = ctx.isSigned && doer !== null;
  const created = signedIn && formGoBool(ctx.query, 'created');
  const assigned = signedIn && formGoBool(ctx.query, 'assigned');
  const mentioned = signedIn && formGoBool(ctx.query, 'mentioned');
  // Review filters only match pull requests, which the sandbox does not have.
  const reviews = signedIn && (formGoBool(ctx.query, 'review_requested') || formGoBool(ctx.query, 'reviewed'));
  const isState = stateFilter(ctx);

  const matching = ctx.state.data.issues.filter((i) => {
    const repo = ctx.state.repoById(i.repoId);
    if (!repo || !repoIds.has(repo.id)) return false;
    const readable = repoAccessMode(ctx.state, repo, doer) >= AccessMode.Read && (i.isPull ? repo.units.hasPullRequests : repo.units.hasIssues);
    return (
      readable &&
      !reviews &&
      (isPull === undefined || i.isPull === isPull) &&
      isState(i) &&
      matchesKeyword(i, keyword) &&
      (labelNames.size === 0 || i.labelIds.some((id) => labelNames.has(labelById(ctx.state, id)?.name ?? '\0'))) &&
      (milestoneIds.length === 0 || milestoneIds.includes(i.milestoneId)) &&
      (!created || i.authorId === doer?.id) &&
      (!assigned || i.assigneeIds.includes(doer?.id ?? 0)) &&
      (!mentioned || (doer !== null && mentions(i, doer))) &&
      updatedWithin(i, range)
    );
  });
  return respondIssues(ctx, matching, page, limit > 0 ? limit : 30, limit);
}

// ---- registration -------------------------------------------------------------------------------

/**
 * `GET /repos/issues/search` must be registered before `GET /repos/{owner}/{repo}` (chi prefers
 * the static path; hono matches in registration order): the issues domain comes before the
 * repositories domain in `domains/index.ts`.
 */
export function registerIssueSearchRoute(r: ApiRouter): void {
  r.on('GET', '/repos/issues/search', scope('issue'), searchIssues);
}

export function registerIssueRoutes(r: ApiRouter): void {
  const issues = [scope('issue'), repoAssignment, mustEnableIssuesOrPulls];

  r.on('GET', '/repos/:owner/:repo/issues', ...issues, inRepo(listRepoIssues));
  r.on('POST', '/repos/:owner/:repo/issues', ...issues, reqToken, mustNotBeArchived, bind(CreateIssueOption), reqRepoReader('issues'), inRepo(signedIn(createIssueRoute)));

  r.on('GET', '/repos/:owner/:repo/issues/:index', ...issues, inRepo((ctx) => {
    const issue = issueFromPath(ctx);
    if (!issue) return notFound(ctx);
    if (!canRead(ctx, issue.isPull ? 'pulls' : 'issues')) return notFound(ctx);
    return json(200, toIssue(ctx, issue, ctx.doer));
  }));
  r.on('PATCH', '/repos/:owner/:repo/issues/:index', ...issues, reqToken, bind(EditIssueOption), inRepo(signedIn(editIssueRoute)));

  registerIssueLabelRoutes(r);
}
