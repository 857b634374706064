import type { IssueConfig } from '../../config/types.js';
import { isApiError } from '../../gitea/errors.js';
import { apiPath } from '../../gitea/path.js';
import { asSet, normalizeFields } from '../fields.js';
import { describeServer, type CurrentObject, type DesiredObject, type Planning, type Problem, type Reading, type ProjectedObject, type RequestScope, type Safety, type Scope, type ScopeContext, type Writing } from '../../model/index.js';
import type { DeclaredIssue, IssueObject, IssueTypes, LabelTarget, PreparedIssue } from './types.js';
import { bodyLockedByServer, fields, labelSources, mode } from './read.js';
import { projectedAccess } from '../collaborator/access.js';

interface Milestone {
  id: number;
  title: string;
}


/** Labels as they will be after the plan: current ones renamed or deleted, planned ones added. */
async function labelCatalogue(scope: Scope, ctx: ScopeContext): Promise<LabelTarget[]> {
  const out: LabelTarget[] = [];
  for (const [kind, s] of labelSources(scope))
    for (const l of await ctx.projected(kind, s)) {
      const id = labelId(l);
      if (id !== undefined) out.push({ name: l.key, id, exclusive: Boolean(l.fields.exclusive) });
    }
  return out;
}

/** A label's id as issues are given it: the server's number, or the {"$ref"} of the change that creates it (a label always has one of them). */
function labelId(l: ProjectedObject): LabelTarget['id'] | undefined {
  return typeof l.id === 'string' ? Number(l.id) : l.id;
}

/** The scope of an exclusive label is its name up to the last '/', when that '/' is inside the name. */
export function exclusiveScope(name: string): string | undefined {
  const i = name.lastIndexOf('/');
  return i > 0 && i < name.length - 1 ? name.slice(0, i) : undefined;
}

/** YYYY-MM-DD naming a day of the calendar: the schema checks the shape, not that 2026-13-45 is no day (Gitea answers 500 or shifts it). */
function isCalendarDay(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/**
 * Why each assignee an issue adds cannot be assigned, by name: a user that does not exist (Gitea refuses
 * the whole edit, 422) or that will have no access to the repository once the plan is applied (CanBeAssigned:
 * see Access.assignable). One GET per name and repository (GET …/collaborators/{name}/permission, memoised for
 * the plan: branch protections ask the same); for a user without access now, the projected permission model
 * (src/kinds/collaborator/access.ts) says whether the plan gives it some, and the change that does (`grants`).
 */
async function assigneeProblems(scope: RequestScope, desired: DesiredObject[], current: CurrentObject[], ctx: ScopeContext): Promise<{ problems: Map<string, string>; grants: Map<string, string[]> }> {
  const names = new Set<string>();
  for (const d of desired) {
    const have = new Set(asSet(current.find((c) => c.key === d.key)?.fields.assignees).map((n) => n.toLowerCase()));
    for (const n of 'assignees' in d.fields ? asSet(d.fields.assignees) : []) if (!have.has(n.toLowerCase())) names.add(n);
  }
  const out = new Map<string, string>();
  const grants = new Map<string, string[]>();
  await Promise.all(
    [...names].map(async (name) => {
      try {
        const answer = await ctx.cachedGet<{ permission?: string } | undefined>(apiPath(...scope.segments, 'collaborators', name, 'permission'), { object: `${name}'s permission on ${scope.name}` });
        if ((answer?.permission ?? 'none') !== 'none') return;
        const after = await projectedAccess({ ctx, scope }, name, true, { write: false, reader: false, assignable: true });
        if (after.assignable) grants.set(name, after.grants);
        else out.set(name, `user "${name}" has no access to ${scope.name} and cannot be assigned (Gitea would refuse the edit)`);
      } catch (e) {
        // 403: only administrators (of the site or the repository) may ask about others; Gitea then judges at apply.
        if (isApiError(e, 403)) return;
        if (!isApiError(e, 404)) throw e;
        out.set(name, `user "${name}" does not exist on the server (Gitea would refuse the edit)`);
      }
    }),
  );
  return { problems: out, grants };
}

function prepareOne(d: DeclaredIssue, cur: IssueObject | undefined, catalogue: LabelTarget[], milestones: Milestone[], scope: Scope, assignees: Awaited<ReturnType<typeof assigneeProblems>>): PreparedIssue {
  const problems: Problem[] = [];
  const grants: string[] = [];
  for (const n of 'assignees' in d.fields ? asSet(d.fields.assignees) : []) {
    const why = assignees.problems.get(n);
    if (why) problems.push({ path: [...d.path, 'assignees'], message: `assignees: ${why}` });
    grants.push(...(assignees.grants.get(n) ?? []));
  }
  const due = d.fields.due_date;
  if (typeof due === 'string' && !isCalendarDay(due)) problems.push({ path: [...d.path, 'due_date'], message: `due_date: "${due}" is not a day of the calendar (YYYY-MM-DD)` });
  const targets: LabelTarget[] = [];
  if ('labels' in d.fields) {
    for (const name of asSet(d.fields.labels)) {
      const found = catalogue.filter((l) => l.name === name);
      const [only] = found;
      if (only && found.length === 1) targets.push(only);
      else
        problems.push(
          found.length
            ? {
                path: [...d.path, 'labels'],
                message: `label "${name}" is ambiguous: ${found.length} labels of that name exist in ${scope.name} or its organisation (${found.map((l) => (typeof l.id === 'number' ? `id ${l.id}` : 'one this plan creates')).join(', ')})`,
                hint: `this issue is left out until one remains; with the label declared and policy.prune: [labels], forgeform deletes the copies no issue carries (see its line above), otherwise move the issues to one copy and delete the others in the web UI or with DELETE /api/v1/repos/OWNER/REPO/labels/ID`,
                // Copies (two runs at once) are the server's state, not a mistake of the config: the rest of the plan stands.
                objectOnly: true,
              }
            : { path: [...d.path, 'labels'], message: `label "${name}" does not exist in ${scope.name} or its organisation, and the config does not create it` },
        );
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
    const [only] = found;
    if (only && found.length === 1) milestoneId = only.id;
    else
      problems.push({
        path: [...d.path, 'milestone'],
        message: found.length ? `milestone "${d.fields.milestone}" is ambiguous: ${found.length} milestones have that title (ids ${found.map((m) => m.id).join(', ')})` : `milestone "${d.fields.milestone}" does not exist in ${scope.name}`,
        ...(found.length ? { hint: 'this issue is left out until one remains: rename or delete the others', objectOnly: true } : {}),
      });
  }
  const ids = cur?.meta?.labelIds ?? [];
  const currentNames = ids.map((id) => catalogue.find((l) => l.id === id)?.name).filter((n): n is string => n !== undefined);
  return { problems, targets, currentNames, ...(milestoneId !== undefined ? { milestoneId } : {}), ...(grants.length ? { grants: [...new Set(grants)] } : {}) };
}

export const planning = {
  async desired({ entry, scope }) {
    const issues = entry?.issues;
    if (!issues) return undefined;
    const objects = Object.entries<IssueConfig>(issues).map(([index, cfg]) => {
      const { labels_mode, ...managed } = cfg;
      return {
        key: `#${index}`,
        fields: normalizeFields(fields, managed, true),
        ...(labels_mode ? { meta: { labelsMode: labels_mode } } : {}),
        path: ['repos', scope.name, 'issues', index],
      };
    });
    return { objects, problems: [] };
  },

  async prepare({ scope, desired, current, ctx }) {
    const catalogue = desired.some((d) => 'labels' in d.fields) ? await labelCatalogue(scope, ctx) : [];
    const milestones = desired.some((d) => typeof d.fields.milestone === 'string')
      ? await ctx.client.list<Milestone>(apiPath(...scope.segments, 'milestones'), { query: { state: 'all' }, object: `milestones of ${scope.name}`, shape: { id: 'id', title: 'string' } })
      : [];
    const assignees = await assigneeProblems(scope, desired, current, ctx);
    return new Map(desired.map((d) => [d.key, prepareOne(d, current.find((c) => c.key === d.key), catalogue, milestones, scope, assignees)]));
  },

  check({ desired: d, current, scope, prepared }) {
    if (!current) return [{ path: d.path, message: `issue ${d.key} does not exist in ${scope.name} (forgeform never creates issues)` }];
    return prepared.get(d.key)?.problems ?? [];
  },

  compare(field, { desired: d, prepared }) {
    if (field !== 'labels') return undefined;
    const have = new Set(prepared?.get(d.key)?.currentNames ?? []);
    return (want) => {
      const w = asSet(want);
      return w.every((n) => have.has(n)) && (mode(d) === 'add' || w.length === have.size);
    };
  },

} satisfies Planning<IssueTypes> & Pick<Writing<IssueTypes>, 'prepare'> & Pick<Reading<IssueTypes>, 'compare'>;

export const safety = {
  async annotate({ intent, ctx }) {
    if (!ctx.server || bodyLockedByServer(ctx.server) || !('body' in intent.fields)) return undefined;
    return {
      notes: [
        `the body is checked by forgeform, not by the server: ${describeServer(ctx.server)} ignores content_version, so apply reads the issue again right before its first write and refuses the edit if the body changed since the plan (an edit made between that read and the write is still overwritten)`,
      ],
    };
  },
} satisfies Safety<IssueTypes>;
