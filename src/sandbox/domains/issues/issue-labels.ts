/**
 * Issue labels (`routers/api/v1/repo/issue_label.go`,
 * `models/issues/issue_label.go`):
 *
 * - `labels` holds numbers (ids, truncated) or strings (names, `"5"` is a name); another type is
 *   400 `a label must be an integer or a string`, numbers and strings mixed are 400
 *   `labels should be an array of strings or integers`;
 * - names match the repository's labels and, on organisation repositories, the organisation's —
 *   every label of a duplicated name; ids are looked up globally; unknown names and ids vanish;
 * - the labels are then read back **ordered by name** (`GetLabelsByIDs` sorts by name), which is
 *   the order the exclusive-scope rules see: POST adds them one by one and each newly added
 *   exclusive label removes the other labels of its scope; PUT first keeps only the last label of
 *   each scope in that order, then drops labels of other repositories and organisations;
 * - POST and PUT answer 200 with every label of the issue, sorted by name; the writer check is a
 *   403 `write permission is required`, while the two DELETE routes answer 403 with an empty body;
 * - `DELETE …/labels/{id}` is 422 `label does not exist [label_id: N]` when no label has that id
 *   (N is 0 for a positive id that does not exist: Gitea formats the empty row's id), else 204.
 */
import { reqToken, scope } from '../../http/auth.js';
import { bind, canWrite, mustEnableIssuesOrPulls, notFound, repoAssignment, formOf } from '../../http/checks.js';
import { type ApiContext, inRepo, type RepoContext } from '../../http/context.js';
import { apiError, empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { issueLabels } from './convert.js';
import { toLabel } from '../labels/convert.js';
import { issueByIndex, type IssueRecord } from './records.js';
import { labelById, type LabelRecord, labelsOfOrg, labelsOfRepo } from '../labels/records.js';
import { type RepoRecord, type SandboxState } from '../../core/state.js';
import { parseGoInt } from '../labels/service.js';
import { IssueLabelsOption } from './options.js';
import { hasQuirk } from '../../flavours/releases.js';

/** `Label.ExclusiveScope`: the part before the last `/` of an exclusive label (none at either end). */
export function exclusiveScope(label: LabelRecord): string {
  if (!label.exclusive) return '';
  const i = label.name.lastIndexOf('/');
  if (i <= 0 || i === label.name.length - 1) return '';
  return label.name.slice(0, i);
}

/** Whether a label may be on an issue of `repo` (`label.RepoID == repo.ID || label.OrgID == repo.OwnerID`). */
export function labelValidFor(repo: RepoRecord, label: LabelRecord): boolean {
  return label.repoId === repo.id || (label.orgId !== 0 && label.orgId === repo.ownerId);
}

/** Name order (ties: id), the order of `GetLabelsByIDs` and `GetLabelsByIssueID`. */
function byName(a: LabelRecord, b: LabelRecord): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id;
}

/** `issue_service.AddLabels` → `newIssueLabels`: skip present and foreign labels, collapse scopes. */
export function addIssueLabels(state: SandboxState, repo: RepoRecord, issue: IssueRecord, labels: LabelRecord[]): void {
  for (const label of [...labels].sort(byName)) {
    if (issue.labelIds.includes(label.id) || !labelValidFor(repo, label)) continue;
    const scopeName = exclusiveScope(label);
    if (scopeName) {
      issue.labelIds = issue.labelIds.filter((id) => {
        const other = labelById(state, id);
        return !other || other.id === label.id || exclusiveScope(other) !== scopeName;
      });
    }
    issue.labelIds.push(label.id);
  }
}

/** `RemoveDuplicateExclusiveLabels`: within each scope only the last label (in list order) survives. */
export function removeDuplicateExclusiveLabels(labels: LabelRecord[]): LabelRecord[] {
  return labels.filter((label, i) => {
    const scopeName = exclusiveScope(label);
    return scopeName === '' || !labels.slice(i + 1).some((other) => exclusiveScope(other) === scopeName);
  });
}

/** `issue_service.ReplaceLabels` → `ReplaceIssueLabels`. */
export function replaceIssueLabels(repo: RepoRecord, issue: IssueRecord, labels: LabelRecord[]): void {
  const kept = removeDuplicateExclusiveLabels([...labels].sort(byName)).filter((l) => labelValidFor(repo, l));
  issue.labelIds = kept.map((l) => l.id);
}

/** Looks an issue up by `{index}` (Go `ParseInt`; anything else is index 0, which never exists). */
export function issueFromPath(ctx: RepoContext): IssueRecord | undefined {
  const index = parseGoInt(ctx.params.index ?? '') ?? 0;
  return issueByIndex(ctx.state, ctx.repo.id, index);
}

function labelList(ctx: ApiContext, issue: IssueRecord): Response {
  return json(
    200,
    issueLabels(ctx, issue).map((l) => toLabel(ctx, l)),
  );
}

/** `prepareForReplaceOrAdd`: the issue, the writer check, and the labels the body names. */
function prepare(ctx: RepoContext): { issue: IssueRecord; labels: LabelRecord[] } | Response {
  const issue = issueFromPath(ctx);
  if (!issue) return notFound(ctx);
  if (!canWrite(ctx, issue.isPull ? 'pulls' : 'issues')) return apiError(ctx.root, 403, 'write permission is required');
  const items = formOf(ctx, IssueLabelsOption).labels ?? [];
  const ids: number[] = [];
  const names: string[] = [];
  for (const item of items) {
    if (typeof item === 'number') ids.push(Math.trunc(item));
    else if (typeof item === 'string') names.push(item);
    else return apiError(ctx.root, 400, 'a label must be an integer or a string');
  }
  if (ids.length > 0 && names.length > 0) return apiError(ctx.root, 400, 'labels should be an array of strings or integers');
  const repo = ctx.repo;
  if (names.length > 0) {
    ids.push(...labelsOfRepo(ctx.state, repo.id).filter((l) => names.includes(l.name)).map((l) => l.id));
    const owner = ctx.state.repoOwner(repo);
    if (owner.kind === 'org') ids.push(...labelsOfOrg(ctx.state, owner.id).filter((l) => names.includes(l.name)).map((l) => l.id));
  }
  // In table order, which is id order (labels are appended as their ids are drawn).
  const labels = [...new Set(ids)].flatMap((id) => labelById(ctx.state, id) ?? []).sort((a, b) => a.id - b.id);
  return { issue, labels };
}

export function registerIssueLabelRoutes(r: ApiRouter): void {
  const issues = [scope('issue'), repoAssignment, mustEnableIssuesOrPulls];
  const base = '/repos/:owner/:repo/issues/:index/labels';

  r.on('GET', base, ...issues, inRepo((ctx) => {
    const issue = issueFromPath(ctx);
    return issue ? labelList(ctx, issue) : notFound(ctx);
  }));

  r.on('POST', base, ...issues, reqToken, bind(IssueLabelsOption), inRepo((ctx) => {
    const prep = prepare(ctx);
    if (prep instanceof Response) return prep;
    addIssueLabels(ctx.state, ctx.repo, prep.issue, prep.labels);
    return labelList(ctx, prep.issue);
  }));

  r.on('PUT', base, ...issues, reqToken, bind(IssueLabelsOption), inRepo((ctx) => {
    const prep = prepare(ctx);
    if (prep instanceof Response) return prep;
    replaceIssueLabels(ctx.repo, prep.issue, prep.labels);
    return labelList(ctx, prep.issue);
  }));

  r.on('DELETE', base, ...issues, reqToken, inRepo((ctx) => {
    const issue = issueFromPath(ctx);
    if (!issue) return notFound(ctx);
    if (!canWrite(ctx, issue.isPull ? 'pulls' : 'issues')) return empty(403);
    issue.labelIds = [];
    return empty(204);
  }));

  r.on('DELETE', `${base}/:id`, ...issues, reqToken, inRepo((ctx) => {
    const issue = issueFromPath(ctx);
    if (!issue) return notFound(ctx);
    if (!canWrite(ctx, issue.isPull ? 'pulls' : 'issues')) return empty(403);
    const label = hasQuirk(ctx.flavour, 'issueLabelDeleteByName') ? labelByIdentifier(ctx, ctx.params.id ?? '') : labelByIdParam(ctx.params.id ?? '', ctx);
    if (typeof label === 'string') return apiError(ctx.root, 422, label);
    issue.labelIds = issue.labelIds.filter((x) => x !== label.id);
    return empty(204);
  }));
}

/** `GetLabelByID(ParamsInt64(":id"))`: ids ≤ 0 keep their value in the error, a missing row reports the empty row's id 0. */
function labelByIdParam(param: string, ctx: ApiContext): LabelRecord | string {
  const id = parseGoInt(param) ?? 0;
  const label = id > 0 ? labelById(ctx.state, id) : undefined;
  return label ?? `label does not exist [label_id: ${id > 0 ? 0 : id}]`;
}

/**
 * Forgejo 13+ (`DeleteIssueLabel`, `{identifier}`): the repository's label of that name, else the
 * organisation's, else — when the text is a number — the label of that id. The error is the last
 * lookup's.
 */
function labelByIdentifier(ctx: RepoContext, name: string): LabelRecord | string {
  const repo = ctx.repo;
  const owner = ctx.state.repoOwner(repo);
  let error = `label does not exist [label_id: 0, repo_id: ${repo.id}]`;
  let label = name ? labelsOfRepo(ctx.state, repo.id).find((l) => l.name === name) : undefined;
  if (!label && owner.kind === 'org') {
    label = name ? labelsOfOrg(ctx.state, owner.id).find((l) => l.name === name) : undefined;
    error = `label does not exist [label_id: 0, org_id: ${owner.id}]`;
  }
  if (!label && /^[+-]?\d+$/.test(name)) return labelByIdParam(name, ctx);
  return label ?? error;
}
