/**
 * Milestones (`routers/api/v1/repo/milestone.go`): list (state filter, `name` substring, order
 * due date then id, `X-Total-Count` without `Link`), get by id or — when no milestone has that id —
 * by exact title, and create (201). These routes sit outside `mustEnableIssuesOrPulls`; only the
 * writes need a token and write access to issues or pull requests.
 */
import { reqToken, scope } from '../../http/auth.js';
import { bind, notFound, repoAssignment, reqRepoWriter, formOf } from '../../http/checks.js';
import { inRepo, type RepoContext } from '../../http/context.js';
import { listOptions, paginate, setTotalCountHeader } from '../../http/paging.js';
import { json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { toMilestone } from './convert.js';
import { type MilestoneRecord, milestonesOfRepo } from './records.js';
import { CreateMilestoneOption } from './options.js';
import { createMilestone, findMilestone } from './service.js';

const FAR_FUTURE = Date.UTC(9999, 11, 31);

/** `GetMilestones` default order: `deadline_unix` (none = 9999-12-31), then id. */
function byDeadline(a: MilestoneRecord, b: MilestoneRecord): number {
  const da = a.dueOn ? Date.parse(a.dueOn) : FAR_FUTURE;
  const db = b.dueOn ? Date.parse(b.dueOn) : FAR_FUTURE;
  return da - db || a.id - b.id;
}

function listMilestones(ctx: RepoContext): Response {
  const opts = listOptions(ctx);
  const state = ctx.query.get('state') ?? '';
  const name = (ctx.query.get('name') ?? '').toUpperCase();
  const matching = milestonesOfRepo(ctx.state, ctx.repo.id)
    .filter((m) => (state === 'all' ? true : state === 'closed' ? m.state === 'closed' : m.state === 'open'))
    .filter((m) => name === '' || m.title.toUpperCase().includes(name))
    .sort(byDeadline);
  setTotalCountHeader(ctx, matching.length);
  return json(
    200,
    paginate(matching, opts).map((m) => toMilestone(ctx, m)),
  );
}


export function registerMilestoneRoutes(r: ApiRouter): void {
  const repo = [scope('issue'), repoAssignment];
  const base = '/repos/:owner/:repo/milestones';

  r.on('GET', base, ...repo, inRepo(listMilestones));

  r.on('POST', base, ...repo, reqToken, reqRepoWriter('issues', 'pulls'), bind(CreateMilestoneOption), inRepo((ctx) => {
    const form = formOf(ctx, CreateMilestoneOption);
    const milestone = createMilestone(ctx.state, ctx.repo, { title: form.title ?? '', description: form.description, state: form.state, dueOn: form.due_on });
    return json(201, toMilestone(ctx, milestone));
  }));

  r.on('GET', `${base}/:id`, ...repo, inRepo((ctx) => {
    const milestone = findMilestone(ctx.state, ctx.repo, ctx.params.id ?? '');
    return milestone ? json(200, toMilestone(ctx, milestone)) : notFound(ctx);
  }));
}
