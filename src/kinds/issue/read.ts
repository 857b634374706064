import type { Shape } from '../../gitea/answer.js';
import { isApiError } from '../../gitea/errors.js';
import { apiPath } from '../../gitea/path.js';
import { countOf, readPagesUpTo } from '../../gitea/paging.js';
import { normalizeFields } from '../fields.js';
import { serverOffset } from './due-date.js';
import { fields } from './fields.js';
import { orgLabelKind, repoLabelKind } from '../label/index.js';
import { serverHas, type Availability, type Kind, type Reading, type RequestScope, type Scope, type ScopeContext, type ServerInfo } from '../../model/index.js';
import type { DeclaredIssue, IssueObject, IssueTypes, ServerIssue } from './types.js';

export { fields } from './fields.js';


/** An issue as answered (modules/structs/issue.go): label ids are what its labels are compared and sent by. */
export const shape: Shape = {
  number: 'id',
  title: 'string',
  body: 'string?',
  state: 'string',
  ref: 'string?',
  labels: { list: { id: 'id', name: 'string' }, optional: true },
  milestone: { object: { id: 'id', title: 'string' }, optional: true },
  assignees: { list: { login: 'string' }, optional: true },
  due_date: 'string?',
  projects: { list: { id: 'id' }, optional: true },
  content_version: 'integer?',
};

function orgScopeOf(scope: Scope): Scope | undefined {
  return scope.repo?.ownerIsOrg ? { type: 'org', name: scope.repo.owner } : undefined;
}

export function labelSources(scope: Scope): [Kind, Scope][] {
  const org = orgScopeOf(scope);
  return org ? [[repoLabelKind, scope], [orgLabelKind, org]] : [[repoLabelKind, scope]];
}

/**
 * Releases that take `content_version` in an issue edit and refuse a stale one (409): Gitea 1.26
 * (#37035). The others ignore it, so forgeform checks the body itself (see bodyLockedByServer).
 */
const CONTENT_LOCK: Availability = { gitea: { since: '1.26' } };
/** Whether the server itself refuses a body edit planned from an older body; unknown server: assumed not. */
export function bodyLockedByServer(server: ServerInfo | undefined): boolean {
  return server !== undefined && serverHas(server, CONTENT_LOCK);
}

export function mode(d: DeclaredIssue): 'add' | 'exact' {
  return d.meta?.labelsMode === 'exact' ? 'exact' : 'add';
}

const ISSUE_PAGE = 50;

/**
 * The issues of a repository with these numbers (those that exist). With two or more, the first
 * page of the repository's issue list (open and closed, pull requests too) usually holds them all:
 * one read instead of one GET each (issue 12). Its total then tells whether the rest of the list
 * costs fewer pages than the issues still missing cost GETs; an issue no read found is asked for
 * by number, so a list that leaves one out (a filter, a server quirk) never makes it "missing".
 */
/** An item of an issue list whose shape the client checked: an object with its number. */
function isServerIssue(item: unknown): item is ServerIssue {
  return typeof item === 'object' && item !== null && 'number' in item && typeof item.number === 'number';
}

async function readIssues(scope: RequestScope, ctx: ScopeContext, numbers: number[]): Promise<ServerIssue[]> {
  const found = new Map<number, ServerIssue>();
  const keep = (items: unknown) => {
    if (!Array.isArray(items)) return;
    for (const i of items) if (isServerIssue(i) && numbers.includes(i.number)) found.set(i.number, i);
  };
  if (numbers.length > 1) {
    const listPath = apiPath(...scope.segments, 'issues');
    const page = (n: number) => ctx.client.request<unknown[]>('GET', listPath, { expect: 'list', shape, query: { state: 'all', limit: ISSUE_PAGE, page: n }, object: `issues of ${scope.name}` });
    const first = await page(1);
    keep(first.data);
    const onFirst = Array.isArray(first.data) ? first.data.length : 0;
    const { count } = countOf(first.headers, onFirst);
    const missing = numbers.filter((n) => !found.has(n)).length;
    // A short first page ends the list; otherwise read on only when that is cheaper than GETs.
    if (onFirst >= ISSUE_PAGE && missing > 0) {
      const morePages = Math.ceil(count / ISSUE_PAGE) - 1;
      // The total only bounds the pages read: they stop at the first short one (an inflated X-Total-Count costs no more).
      if (morePages > 0 && morePages < missing)
        keep(await readPagesUpTo((n) => page(n).then((res) => ({ items: Array.isArray(res.data) ? res.data : [], headers: res.headers })), 2, morePages + 1, ISSUE_PAGE, 8));
    }
  }
  await Promise.all(
    numbers
      .filter((n) => !found.has(n))
      .map(async (n) => {
        try {
          found.set(n, await ctx.client.get<ServerIssue>(apiPath(...scope.segments, 'issues', String(n)), { object: `issue #${n} of ${scope.name}`, shape }));
        } catch (e) {
          if (!isApiError(e, 404)) throw e;
        }
      }),
  );
  return numbers.flatMap((n) => found.get(n) ?? []);
}

function fromServer(i: ServerIssue): IssueObject {
  const f = normalizeFields(
    fields,
    {
      labels: (i.labels ?? []).map((l) => l.name),
      state: i.state,
      title: i.title,
      body: i.body,
      milestone: i.milestone?.title ?? null,
      assignees: (i.assignees ?? []).map((a) => a.login),
      due_date: i.due_date,
      projects: (i.projects ?? []).map((p) => p.id),
      ref: i.ref,
    },
    false,
  );
  return {
    key: `#${i.number}`,
    id: i.number,
    fields: f,
    meta: { labelIds: (i.labels ?? []).map((l) => l.id).sort((a, b) => a - b), contentVersion: i.content_version ?? 0, utcOffset: serverOffset(i) },
  };
}

export const reading = {
  fields,
  shape,
  // A body edit carries the content version it was planned from; Gitea 1.26 answers 409 when it moved on.
  // Elsewhere the body's copy (IssueMeta.unguardedBody) is in the digest, and apply checks the body itself.
  guardedByServer: ['body'],
  inDigest(current) {
    const { labelIds, utcOffset, unguardedBody } = current.meta ?? {};
    return { labelIds, utcOffset, ...(unguardedBody !== undefined ? { body: unguardedBody } : {}) };
  },

  /** The named issues, in as few reads as the issue list allows (see readIssues). The label lists are read alongside. */
  async read({ scope, ctx, desired = [] }) {
    const [issues] = await Promise.all([
      readIssues(scope, ctx, desired.map((d) => Number(d.key.slice(1)))),
      ...(desired.some((d) => 'labels' in d.fields) ? labelSources(scope).filter(([, s]) => !s.pendingCreate).map(([k, s]) => ctx.currentOf(k, s)) : []),
    ]);
    const locked = bodyLockedByServer(ctx.server);
    return issues
      .filter((i): i is ServerIssue => i !== undefined)
      .map((i) => {
        const o = fromServer(i);
        if (!locked && o.meta) o.meta.unguardedBody = o.fields.body;
        return o;
      });
  },

  fromServer,
} satisfies Reading<IssueTypes>;
