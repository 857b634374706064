/**
 * Milestones (`routers/api/v1/repo/milestone.go`): list (state filter, `name` substring, order
 * due date then id, `X-Total-Count` without `Link`), get by id or — when no milestone has that id —
 * by exact title, and create (201). These routes sit outside `mustEnableIssuesOrPulls`; only the
 * writes need a token and write access to issues or pull requests.
 */
import { reqToken, scope } from '../../http/auth.js';
import { bind, notFound, repoAssignment, reqRepoWriter, formOf } from '../../http/checks.js';
import type { ApiContext } from '../../http/context.js';
import { listOptions, paginate, setTotalCountHeader } from '../../http/paging.js';
import { json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { toMilestone } from './convert.js';
import { nowIso, type RepoRecord, type SandboxState } from '../../core/state.js';
import { type MilestoneRecord, milestonesOfRepo } from './records.js';
import { CreateMilestoneOption } from './options.js';

/** A time as Gitea stores it (Unix seconds) and renders it: RFC 3339, seconds, UTC. */
export function unixSecondsIso(input: string | number): string {
  const ms = typeof input === 'number' ? input : Date.parse(input);
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export interface NewMilestone {
  title: string;
  description?: string;
  /** `closed` closes it; any other value (or none) leaves it open, as the handler does. */
  state?: string;
  /** RFC 3339; none = Gitea's 9999-12-31 placeholder, which reads back as `due_on: null`. */
  dueOn?: string | null;
}

/** `CreateMilestone` (shared with the seed loader). */
export function createMilestone(state: SandboxState, repo: RepoRecord, input: NewMilestone): MilestoneRecord {
  const now = nowIso();
  const closed = input.state === 'closed';
  const milestone: MilestoneRecord = {
    id: state.nextId('milestone'),
    repoId: repo.id,
    title: input.title,
    description: input.description ?? '',
    state: closed ? 'closed' : 'open',
    dueOn: input.dueOn ? unixSecondsIso(input.dueOn) : null,
    createdAt: now,
    updatedAt: now,
    closedAt: closed ? now : null,
  };
  state.data.milestones.push(milestone);
  return milestone;
}

/** Go's `strconv.ParseInt(s, 0, 64)`: base prefixes `0x`, `0o`, `0b`, a leading `0` for octal, `_` between digits. */
export function parseGoIntBase0(s: string): number | null {
  const m = /^([+-]?)(.*)$/.exec(s)!;
  const body = m[2]!;
  let digits: string;
  let base: number;
  if (/^0[xX](_?[0-9a-fA-F])+$/.test(body)) [digits, base] = [body.slice(2), 16];
  else if (/^0[bB](_?[01])+$/.test(body)) [digits, base] = [body.slice(2), 2];
  else if (/^0[oO](_?[0-7])+$/.test(body)) [digits, base] = [body.slice(2), 8];
  else if (/^0(_?[0-7])+$/.test(body)) [digits, base] = [body.slice(1), 8];
  else if (/^(0|[1-9](_?[0-9])*)$/.test(body)) [digits, base] = [body, 10];
  else return null;
  const value = [...digits.replace(/_/g, '')].reduce((acc, ch) => acc * BigInt(base) + BigInt(parseInt(ch, base)), 0n);
  const signed = m[1] === '-' ? -value : value;
  if (signed > 9223372036854775807n || signed < -9223372036854775808n) return null;
  const n = Number(signed);
  return Number.isSafeInteger(n) ? n : null;
}

/** `getMilestoneByIDOrName`: a non-zero id of this repository, else the exact title. */
export function findMilestone(state: SandboxState, repo: RepoRecord, raw: string): MilestoneRecord | undefined {
  const milestones = milestonesOfRepo(state, repo.id).sort((a, b) => a.id - b.id);
  const id = parseGoIntBase0(raw) ?? 0;
  if (id !== 0) {
    const byId = milestones.find((m) => m.id === id);
    if (byId) return byId;
  }
  return milestones.find((m) => m.title === raw);
}

const FAR_FUTURE = Date.UTC(9999, 11, 31);

/** `GetMilestones` default order: `deadline_unix` (none = 9999-12-31), then id. */
function byDeadline(a: MilestoneRecord, b: MilestoneRecord): number {
  const da = a.dueOn ? Date.parse(a.dueOn) : FAR_FUTURE;
  const db = b.dueOn ? Date.parse(b.dueOn) : FAR_FUTURE;
  return da - db || a.id - b.id;
}

function listMilestones(ctx: ApiContext): Response {
  const opts = listOptions(ctx);
  const state = ctx.query.get('state') ?? '';
  const name = (ctx.query.get('name') ?? '').toUpperCase();
  const matching = milestonesOfRepo(ctx.state, ctx.repo!.id)
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

  r.on('GET', base, ...repo, listMilestones);

  r.on('POST', base, ...repo, reqToken, reqRepoWriter('issues', 'pulls'), bind(CreateMilestoneOption), (ctx) => {
    const form = formOf(ctx, CreateMilestoneOption);
    const milestone = createMilestone(ctx.state, ctx.repo!, { title: form.title ?? '', description: form.description, state: form.state, dueOn: form.due_on });
    return json(201, toMilestone(ctx, milestone));
  });

  r.on('GET', `${base}/:id`, ...repo, (ctx) => {
    const milestone = findMilestone(ctx.state, ctx.repo!, ctx.params.id ?? '');
    return milestone ? json(200, toMilestone(ctx, milestone)) : notFound(ctx);
  });
}
