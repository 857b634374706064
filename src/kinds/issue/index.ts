import type { IssueConfig, RepoConfig } from '../../config/types.js';
import { isApiError } from '../../gitea/errors.js';
import { apiPath } from '../../gitea/path.js';
import { countOf } from '../../gitea/paging.js';
import type { Op } from '../../model/index.js';
import { splitRepo } from '../branch-protection/index.js';
import { asSet, normalizeFields, set, str, text } from '../fields.js';
import { dueDateToSend, serverDate, serverOffset } from './due-date.js';
import { orgLabelKind, repoLabelKind } from '../label/index.js';
import { describeServer, serverHas, type Availability, type CurrentObject, type DesiredObject, type FieldSpec, type Kind, type Problem, type Scope, type ScopeContext, type ServerInfo } from '../../model/index.js';
import { notAnActionOf } from '../actions.js';


const fields: FieldSpec[] = [
  // Label names, compared by the labels_mode rule (see compare); a write answer is not comparable.
  { name: 'labels', type: 'set', normalize: asSet, readBack: false },
  str('state'),
  str('title'),
  text('body'),
  { name: 'milestone', type: 'scalar', normalize: (v) => (v === undefined || v === null ? null : String(v)) },
  set('assignees'),
  // The day as the server writes it, in its own zone (see due-date.ts).
  { name: 'due_date', type: 'scalar', normalize: serverDate },
  { name: 'projects', type: 'set', normalize: (v) => asSet(v).map(Number).sort((a, b) => a - b), availability: { gitea: { since: '1.27' } } }, // in no release (not in EditIssueOption of Gitea 1.25.4, main of 2026-04, any Forgejo): only the sandbox's gitea@main (1.27.0)
  str('ref'),
];

interface ServerIssue {
  number: number;
  title: string;
  body: string;
  state: string;
  ref: string;
  labels: { id: number; name: string }[] | null;
  milestone: { id: number; title: string } | null;
  assignees: { login: string }[] | null;
  due_date: string | null;
  created_at?: string;
  updated_at?: string;
  projects?: { id: number }[] | null;
  content_version?: number;
}

interface Milestone {
  id: number;
  title: string;
}

/** A label an issue can carry, as it will be once the plan's label changes are applied. */
interface LabelTarget {
  name: string;
  /** The label's id, or a reference to the change that creates it. */
  id: number | { $ref: string };
  exclusive: boolean;
}

interface PreparedIssue {
  problems: Problem[];
  targets: LabelTarget[];
  /** The labels on the issue now, named as they will be after this plan's renames. */
  currentNames: string[];
  milestoneId?: number;
}

type Prepared = Map<string, PreparedIssue>;

function orgScopeOf(scope: Scope): Scope | undefined {
  return scope.repo?.ownerIsOrg ? { type: 'org', name: scope.repo.owner } : undefined;
}

function labelSources(scope: Scope): [Kind, Scope][] {
  const org = orgScopeOf(scope);
  return org ? [[repoLabelKind, scope], [orgLabelKind, org]] : [[repoLabelKind, scope]];
}

/** Labels as they will be after the plan: current ones renamed or deleted, planned ones added. */
async function labelCatalogue(scope: Scope, ctx: ScopeContext): Promise<LabelTarget[]> {
  const out: LabelTarget[] = [];
  for (const [kind, s] of labelSources(scope))
    for (const l of await ctx.projected(kind, s)) out.push({ name: l.key, id: l.id as LabelTarget['id'], exclusive: Boolean(l.fields.exclusive) });
  return out;
}

/** The scope of an exclusive label is its name up to the last '/', when that '/' is inside the name. */
export function exclusiveScope(name: string): string | undefined {
  const i = name.lastIndexOf('/');
  return i > 0 && i < name.length - 1 ? name.slice(0, i) : undefined;
}

/** How declared labels apply: not a field of the issue; shown with a labels change when exact. */
const LABELS_MODE = 'labels_mode';
/** The body version a body edit was planned from: shown with it, sent, and Gitea answers 409 when it moved on. */
const CONTENT_VERSION = 'content_version';
/**
 * Releases that take `content_version` in an issue edit and refuse a stale one (409): Gitea 1.26
 * (#37035). The others ignore it, so forgeform checks the body itself (see bodyLockedByServer).
 */
const CONTENT_LOCK: Availability = { gitea: { since: '1.26' } };
/** What an issue carries beside its fields, as read. */
interface IssueMeta {
  /** Its labels' ids: names may be duplicated, ids are exact. */
  labelIds: number[];
  /** The body version a body edit is planned from (see CONTENT_VERSION). */
  contentVersion: number;
  /** The server's UTC offset as the issue's answer shows it: a due date is sent in it (due-date.ts). */
  utcOffset: string;
  /**
   * Where the server has no lock, a copy of the body that the saved plan's staleness digest covers
   * (`body` itself is left out of it: where the server guards it, a body edited since the plan must
   * not make the issue's other changes stale).
   */
  unguardedBody?: unknown;
}
/** What the config says of an issue beside its fields. */
interface DeclaredIssueMeta {
  labelsMode?: 'add' | 'exact';
}
const metaOf = (o: CurrentObject | undefined) => (o?.meta ?? {}) as Partial<IssueMeta>;
const declaredMetaOf = (d: DesiredObject) => (d.meta ?? {}) as DeclaredIssueMeta;

/** Whether the server itself refuses a body edit planned from an older body; unknown server: assumed not. */
function bodyLockedByServer(server: ServerInfo | undefined): boolean {
  return server !== undefined && serverHas(server, CONTENT_LOCK);
}

function mode(d: DesiredObject): 'add' | 'exact' {
  return declaredMetaOf(d).labelsMode === 'exact' ? 'exact' : 'add';
}

function prepareOne(d: DesiredObject, cur: CurrentObject | undefined, catalogue: LabelTarget[], milestones: Milestone[], scope: Scope): PreparedIssue {
  const problems: Problem[] = [];
  const targets: LabelTarget[] = [];
  if ('labels' in d.fields) {
    for (const name of asSet(d.fields.labels)) {
      const found = catalogue.filter((l) => l.name === name);
      if (found.length === 1) targets.push(found[0]!);
      else
        problems.push({
          path: [...d.path, 'labels'],
          message: found.length
            ? `label "${name}" is ambiguous: ${found.length} labels of that name exist in ${scope.name} or its organisation`
            : `label "${name}" does not exist in ${scope.name} or its organisation, and the config does not create it`,
        });
    }
    const byScope = new Map<string, string[]>();
    for (const t of targets) {
      const s = t.exclusive ? exclusiveScope(t.name) : undefined;
      if (s) byScope.set(s, [...(byScope.get(s) ?? []), t.name]);
    }
    for (const [s, names] of byScope)
      if (names.length > 1)
        problems.push({ path: [...d.path, 'labels'], message: `labels ${names.map((n) => `"${n}"`).join(' and ')} share the exclusive scope "${s}": Gitea would silently keep only one` });
  }
  let milestoneId: number | undefined;
  if (typeof d.fields.milestone === 'string') {
    const found = milestones.filter((m) => m.title === d.fields.milestone);
    if (found.length === 1) milestoneId = found[0]!.id;
    else
      problems.push({
        path: [...d.path, 'milestone'],
        message: found.length ? `milestone "${d.fields.milestone}" is ambiguous: ${found.length} milestones have that title` : `milestone "${d.fields.milestone}" does not exist in ${scope.name}`,
      });
  }
  const ids = metaOf(cur).labelIds ?? [];
  const currentNames = ids.map((id) => catalogue.find((l) => l.id === id)?.name).filter((n): n is string => n !== undefined);
  return { problems, targets, currentNames, ...(milestoneId !== undefined ? { milestoneId } : {}) };
}

const ISSUE_PAGE = 50;

/**
 * The issues of a repository with these numbers (those that exist). With two or more, the first
 * page of the repository's issue list (open and closed, pull requests too) usually holds them all:
 * one read instead of one GET each (issue 12). Its total then tells whether the rest of the list
 * costs fewer pages than the issues still missing cost GETs; an issue no read found is asked for
 * by number, so a list that leaves one out (a filter, a server quirk) never makes it "missing".
 */
async function readIssues(scope: Scope, ctx: ScopeContext, numbers: number[]): Promise<ServerIssue[]> {
  const [owner, repo] = splitRepo(scope.name);
  const found = new Map<number, ServerIssue>();
  const keep = (items: unknown) => {
    if (!Array.isArray(items)) return;
    for (const i of items as ServerIssue[]) if (i && typeof i.number === 'number' && numbers.includes(i.number)) found.set(i.number, i);
  };
  if (numbers.length > 1) {
    const listPath = apiPath('repos', owner, repo, 'issues');
    const page = (n: number) => ctx.client.request<unknown[]>('GET', listPath, { expect: 'list', query: { state: 'all', limit: ISSUE_PAGE, page: n }, object: `issues of ${scope.name}` });
    const first = await page(1);
    keep(first.data);
    const onFirst = Array.isArray(first.data) ? first.data.length : 0;
    const { count } = countOf(first.headers, onFirst);
    const missing = numbers.filter((n) => !found.has(n)).length;
    // A short first page ends the list; otherwise read on only when that is cheaper than GETs.
    if (onFirst >= ISSUE_PAGE && missing > 0) {
      const morePages = Math.ceil(count / ISSUE_PAGE) - 1;
      if (morePages > 0 && morePages < missing) for (const res of await Promise.all(Array.from({ length: morePages }, (_, i) => page(i + 2)))) keep(res.data);
    }
  }
  await Promise.all(
    numbers
      .filter((n) => !found.has(n))
      .map(async (n) => {
        try {
          found.set(n, await ctx.client.get<ServerIssue>(apiPath('repos', owner, repo, 'issues', String(n)), { object: `issue #${n} of ${scope.name}` }));
        } catch (e) {
          if (!isApiError(e, 404)) throw e;
        }
      }),
  );
  return numbers.flatMap((n) => (found.has(n) ? [found.get(n)!] : []));
}

export const issueKind: Kind = {
  name: 'issue',
  title: 'issue',
  // Issues are never created or deleted by forgeform.
  pruneKey: '',
  configKey: 'issues',
  scopeType: 'repo',
  actions: ['update'],
  fields,
  context: [LABELS_MODE, CONTENT_VERSION],
  // Labels are resolved against the labels as this plan leaves them.
  after: [repoLabelKind.name, orgLabelKind.name],
  // A body edit carries the content version it was planned from; Gitea 1.26 answers 409 when it moved on.
  // Elsewhere the body's copy (IssueMeta.unguardedBody) is in the digest, and apply checks the body itself.
  guardedByServer: ['body'],
  inDigest(current) {
    const { labelIds, utcOffset, unguardedBody } = metaOf(current);
    return { labelIds, utcOffset, ...(unguardedBody !== undefined ? { body: unguardedBody } : {}) };
  },

  async desired(scopeConfig, scope) {
    const issues = (scopeConfig as RepoConfig | undefined)?.issues;
    if (!issues) return undefined;
    const objects = Object.entries<IssueConfig>(issues).map(([index, cfg]) => {
      const { labels_mode, ...managed } = cfg;
      return {
        key: `#${index}`,
        fields: normalizeFields(fields, managed, true),
        ...(labels_mode ? { meta: { labelsMode: labels_mode } satisfies DeclaredIssueMeta } : {}),
        path: ['repos', scope.name, 'issues', index],
      };
    });
    return { objects, problems: [] };
  },

  /** The named issues, in as few reads as the issue list allows (see readIssues). The label lists are read alongside. */
  async read(scope, ctx, desired = []) {
    const [issues] = await Promise.all([
      readIssues(scope, ctx, desired.map((d) => Number(d.key.slice(1)))),
      ...(desired.some((d) => 'labels' in d.fields) ? labelSources(scope).filter(([, s]) => !s.pendingCreate).map(([k, s]) => ctx.currentOf(k, s)) : []),
    ]);
    const locked = bodyLockedByServer(ctx.server);
    return issues
      .filter((i): i is ServerIssue => i !== undefined)
      .map((i) => {
        const o = this.fromServer(i);
        if (!locked) o.meta = { ...o.meta, unguardedBody: o.fields.body };
        return o;
      });
  },

  async prepare(scope, desired, current, ctx): Promise<Prepared> {
    const catalogue = desired.some((d) => 'labels' in d.fields) ? await labelCatalogue(scope, ctx) : [];
    const milestones = desired.some((d) => typeof d.fields.milestone === 'string')
      ? await ctx.client.list<Milestone>(apiPath('repos', ...splitRepo(scope.name), 'milestones'), { query: { state: 'all' }, object: `milestones of ${scope.name}` })
      : [];
    return new Map(desired.map((d) => [d.key, prepareOne(d, current.find((c) => c.key === d.key), catalogue, milestones, scope)]));
  },

  check(d, current, scope, _ctx, prepared) {
    if (!current) return [{ path: d.path, message: `issue ${d.key} does not exist in ${scope.name} (forgeform never creates issues)` }];
    return (prepared as Prepared).get(d.key)?.problems ?? [];
  },

  compare(field, d, _current, prepared) {
    if (field !== 'labels') return undefined;
    const have = new Set((prepared as Prepared).get(d.key)?.currentNames ?? []);
    return (want) => {
      const w = asSet(want);
      return w.every((n) => have.has(n)) && (mode(d) === 'add' || w.length === have.size);
    };
  },

  shown({ action, desired, current, changed, ctx }) {
    if (action !== 'update') return notAnActionOf('issue', action);
    return {
      ...(changed.includes('labels') && mode(desired) === 'exact' ? { [LABELS_MODE]: 'exact' } : {}),
      ...(changed.includes('body') && bodyLockedByServer(ctx.server) ? { [CONTENT_VERSION]: metaOf(current).contentVersion } : {}),
    };
  },

  ops({ scope, action, desired: d, current, changed, prepared, shown, ctx }) {
    if (action !== 'update') return notAnActionOf('issue', action);
    const base = apiPath('repos', ...splitRepo(scope.name), 'issues', d.key.slice(1));
    const p = (prepared as Prepared).get(d.key)!;
    const exact = shown?.[LABELS_MODE] === 'exact';
    const locked = bodyLockedByServer(ctx.server);
    const ops: Op[] = [];
    // No lock on the server: read the issue again before the first write, and stop if its body moved on.
    if (changed.includes('body') && !locked)
      ops.push({
        method: 'GET',
        path: base,
        expect: { fields: ['body'], message: `issue ${d.key} of ${scope.name}: its body changed since the plan was made (checked by forgeform: the server has no content_version to refuse a stale edit): plan again` },
        onStatus: { '404': `issue ${d.key} of ${scope.name} no longer exists: plan again` },
      });
    const writes = ops.length;
    if (changed.includes('labels')) {
      // Ids only (never ids and names mixed): names may be duplicated, ids are exact.
      const additions = p.targets.filter((t) => !p.currentNames.includes(t.name));
      const removes = exact && p.currentNames.some((n) => !p.targets.some((t) => t.name === n));
      if (exact && p.targets.length === 0) ops.push({ method: 'DELETE', path: `${base}/labels` });
      else if (removes) ops.push({ method: 'PUT', path: `${base}/labels`, body: { labels: p.targets.map((t) => t.id) } });
      else ops.push({ method: 'POST', path: `${base}/labels`, body: { labels: additions.map((t) => t.id) } });
    }
    const body: Record<string, unknown> = {};
    for (const name of changed) {
      const value = d.fields[name];
      if (name === 'labels') continue;
      else if (name === 'milestone') body.milestone = value === null ? 0 : p.milestoneId;
      else if (name === 'due_date') Object.assign(body, value === null ? { unset_due_date: true } : { due_date: dueDateToSend(String(value), metaOf(current).utcOffset ?? 'Z') });
      else body[name] = value;
    }
    if ('body' in body && locked) body.content_version = shown?.[CONTENT_VERSION];
    if (Object.keys(body).length)
      ops.push({
        method: 'PATCH',
        path: base,
        body,
        ...(locked ? { onStatus: { '409': `issue ${d.key} of ${scope.name} changed since the plan was made: plan again` } } : {}),
        ...(ops.length > writes ? { reason: 'Gitea changes the labels and the fields of an issue with separate calls' } : {}),
      });
    return ops;
  },

  async annotate(change, _scope, ctx) {
    if (!ctx.server || bodyLockedByServer(ctx.server) || !change.fields.some((f) => f.path === 'body' && !f.context)) return undefined;
    return {
      notes: [
        `the body is checked by forgeform, not by the server: ${describeServer(ctx.server)} ignores content_version, so apply reads the issue again right before its first write and refuses the edit if the body changed since the plan (an edit made between that read and the write is still overwritten)`,
      ],
    };
  },

  fromServer(raw) {
    const i = raw as ServerIssue;
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
      meta: { labelIds: (i.labels ?? []).map((l) => l.id).sort((a, b) => a - b), contentVersion: i.content_version ?? 0, utcOffset: serverOffset(i) } satisfies IssueMeta,
    };
  },
  // No export facet: issues are chosen one by one, not exported wholesale.
};
