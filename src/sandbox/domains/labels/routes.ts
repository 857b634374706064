/**
 * Repository and organisation labels (`routers/api/v1/repo/label.go`,
 * `routers/api/v1/org/label.go`, `modules/label/label.go`): colour normalisation with `#`-less
 * output, duplicate names allowed, GET by id or exact name, PATCH by id only (archived =
 * present-and-true), DELETE always 204, `X-Total-Count` without `Link`, name order and the `sort`
 * values. Repository label writes need write access to issues or pull requests; organisation label
 * writes need ownership, and reading one organisation label needs a token.
 */
import { reqToken, scope } from '../../http/auth.js';
import { bind, notFound, orgAssignment, repoAssignment, reqOrgOwnership, reqOrgVisible, reqRepoWriter, formOf } from '../../http/checks.js';
import { type ApiContext, inOrg, inRepo } from '../../http/context.js';
import { listOptions, paginate, setTotalCountHeader } from '../../http/paging.js';
import { empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { toLabel } from './convert.js';
import { nowIso, type SandboxState } from '../../core/state.js';
import { deleteLabel as deleteLabelRecord, labelById, labelIssueCount, type LabelRecord, labelsOfOrg, labelsOfRepo } from './records.js';
import { fail, isFailure } from '../../core/failure.js';
import { CreateLabelOption, EditLabelOption } from './options.js';
import { LABEL_TEMPLATES, labelTemplateNames } from './templates.js';
import { createLabel, normalizeColor, parseGoInt } from './service.js';

/** `GetLabelsByRepoID` / `GetLabelsByOrgID` ordering. */
function sortLabels(state: SandboxState, labels: LabelRecord[], sort: string): LabelRecord[] {
  const byName = (a: LabelRecord, b: LabelRecord): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const count = (l: LabelRecord): number => labelIssueCount(state, l.id);
  const cmp: (a: LabelRecord, b: LabelRecord) => number =
    sort === 'reversealphabetically'
      ? (a, b) => byName(b, a)
      : sort === 'leastissues'
        ? (a, b) => count(a) - count(b)
        : sort === 'mostissues'
          ? (a, b) => count(b) - count(a)
          : byName;
  return [...labels].sort((a, b) => cmp(a, b) || a.id - b.id);
}

function listLabels(ctx: ApiContext, labels: LabelRecord[]): Response {
  const opts = listOptions(ctx);
  const sorted = sortLabels(ctx.state, labels, ctx.query.get('sort') ?? '');
  setTotalCountHeader(ctx, labels.length);
  return json(
    200,
    paginate(sorted, opts).map((l) => toLabel(ctx, l)),
  );
}

/** GET by id, or — when `{id}` is not a number — by exact name (the first match). */
function findForGet(labels: LabelRecord[], rawId: string): LabelRecord | undefined {
  const id = parseGoInt(rawId);
  if (id === null) return rawId === '' ? undefined : [...labels].sort((a, b) => a.id - b.id).find((l) => l.name === rawId);
  return id > 0 ? labels.find((l) => l.id === id) : undefined;
}

/** PATCH and DELETE take `{id}` as a number only (a name parses as 0). */
function idParam(ctx: ApiContext): number {
  return parseGoInt(ctx.params.id ?? '') ?? 0;
}



/** `EditLabel`: omitted fields unchanged, `name: ""` applied, archived = present-and-true. */
function editLabel(ctx: ApiContext, label: LabelRecord | undefined): Response {
  if (!label) return notFound(ctx);
  const form = formOf(ctx, EditLabelOption);
  let color = label.color;
  if (form.color !== undefined) {
    const c = normalizeColor(form.color);
    if (isFailure(c)) return fail(ctx, c);
    color = c;
  }
  if (form.name !== undefined) label.name = form.name;
  if (form.exclusive !== undefined) label.exclusive = form.exclusive;
  label.color = color;
  if (form.description !== undefined) label.description = form.description;
  const archive = form.is_archived === true;
  if (!archive) label.archivedAt = null;
  else if (label.archivedAt === null) label.archivedAt = nowIso();
  label.updatedAt = nowIso();
  return json(200, toLabel(ctx, label));
}

/** `DeleteLabel`: 204 whatever happens; only a label of this owner is deleted. */
function deleteLabel(ctx: ApiContext, belongs: (l: LabelRecord) => boolean): Response {
  const label = labelById(ctx.state, idParam(ctx));
  if (label && belongs(label)) deleteLabelRecord(ctx.state, label.id);
  return empty(204);
}

export function registerLabelRoutes(r: ApiRouter): void {
  // ---- label templates (public, `routers/api/v1/misc/label_templates.go`) ----
  r.on('GET', '/label/templates', () => json(200, labelTemplateNames()));

  r.on('GET', '/label/templates/:name', (ctx) => {
    const labels = Object.hasOwn(LABEL_TEMPLATES, ctx.params.name ?? '') ? LABEL_TEMPLATES[ctx.params.name ?? ''] : undefined;
    return labels ? json(200, labels) : notFound(ctx);
  });

  // ---- repository labels (issue scope) ----
  const repo = [scope('issue'), repoAssignment];
  const writer = [reqToken, reqRepoWriter('issues', 'pulls')];

  r.on('GET', '/repos/:owner/:repo/labels', ...repo, inRepo((ctx) => listLabels(ctx, labelsOfRepo(ctx.state, ctx.repo.id))));

  r.on('POST', '/repos/:owner/:repo/labels', ...repo, ...writer, bind(CreateLabelOption), inRepo((ctx) => {
    const form = formOf(ctx, CreateLabelOption);
    const res = createLabel(ctx.state, { repoId: ctx.repo.id }, { name: form.name, color: form.color, description: form.description, exclusive: form.exclusive, isArchived: form.is_archived });
    return isFailure(res) ? fail(ctx, res) : json(201, toLabel(ctx, res));
  }));

  r.on('GET', '/repos/:owner/:repo/labels/:id', ...repo, inRepo((ctx) => {
    const label = findForGet(labelsOfRepo(ctx.state, ctx.repo.id), ctx.params.id ?? '');
    return label ? json(200, toLabel(ctx, label)) : notFound(ctx);
  }));

  r.on('PATCH', '/repos/:owner/:repo/labels/:id', ...repo, ...writer, bind(EditLabelOption), inRepo((ctx) => {
    const id = idParam(ctx);
    return editLabel(ctx, id > 0 ? labelsOfRepo(ctx.state, ctx.repo.id).find((l) => l.id === id) : undefined);
  }));

  r.on('DELETE', '/repos/:owner/:repo/labels/:id', ...repo, ...writer, inRepo((ctx) => deleteLabel(ctx, (l) => l.repoId === ctx.repo.id)));

  // ---- organisation labels (organization scope) ----
  const org = [scope('organization'), orgAssignment, reqOrgVisible];
  const owner = [reqToken, reqOrgOwnership];

  r.on('GET', '/orgs/:org/labels', ...org, inOrg((ctx) => listLabels(ctx, labelsOfOrg(ctx.state, ctx.org.id))));

  r.on('POST', '/orgs/:org/labels', ...org, ...owner, bind(CreateLabelOption), inOrg((ctx) => {
    const form = formOf(ctx, CreateLabelOption);
    // The organisation handler ignores is_archived: a new organisation label is never archived.
    const res = createLabel(ctx.state, { orgId: ctx.org.id }, { name: form.name, color: form.color.trim(), description: form.description, exclusive: form.exclusive });
    return isFailure(res) ? fail(ctx, res) : json(201, toLabel(ctx, res));
  }));

  r.on('GET', '/orgs/:org/labels/:id', ...org, reqToken, inOrg((ctx) => {
    const label = findForGet(labelsOfOrg(ctx.state, ctx.org.id), ctx.params.id ?? '');
    return label ? json(200, toLabel(ctx, label)) : notFound(ctx);
  }));

  r.on('PATCH', '/orgs/:org/labels/:id', ...org, ...owner, bind(EditLabelOption), inOrg((ctx) => {
    const id = idParam(ctx);
    return editLabel(ctx, id > 0 ? labelsOfOrg(ctx.state, ctx.org.id).find((l) => l.id === id) : undefined);
  }));

  r.on('DELETE', '/orgs/:org/labels/:id', ...org, ...owner, inOrg((ctx) => deleteLabel(ctx, (l) => l.orgId === ctx.org.id && l.repoId === 0)));
}
