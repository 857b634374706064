import type { Shape } from '../../gitea/answer.js';
import type { LabelConfig } from '../../config/types.js';
import { apiPath } from '../../gitea/path.js';
import { declaredEntries, normalizeFields } from '../fields.js';
import { type AnyRequest, type DesiredObject, type Planning, type Problem, type Safety } from '../../model/index.js';
import { fields } from './read.js';
import type { LabelRun, LabelTypes } from './types.js';

interface LabelTemplateEntry {
  name: string;
  color: string;
  description?: string;
  exclusive?: boolean;
}


export function runState(): LabelRun {
  return { normalised: new WeakMap(), issueCounts: new Map() };
}

function declaredFields(run: LabelRun, label: LabelConfig): Record<string, unknown> {
  let out = run.normalised.get(label);
  if (!out) {
    const { previously: _previously, ...rest } = label;
    out = normalizeFields(fields, rest, true);
    run.normalised.set(label, out);
  }
  return out;
}

/** Planning labels of a scope type: declared labels (a template's too), duplicate names, what a deletion takes off issues. */
/**
 * Names that differ only in Unicode normalisation ("café" written with é, or with e and a combining
 * accent): they look the same in every plan line, but Gitea compares names byte by byte and keeps
 * them as two labels. Each such group, declared or on the server, is named in a warning (issue 17).
 */
export function lookAlikeNames(declared: string[], onServer: string[], where: string): string[] {
  const groups = new Map<string, Set<string>>();
  for (const name of [...declared, ...onServer]) {
    const nfc = name.normalize('NFC');
    const group = groups.get(nfc) ?? new Set<string>();
    group.add(name);
    groups.set(nfc, group);
  }
  const forms = (n: string) => (n === n.normalize('NFC') ? 'composed (NFC)' : 'decomposed (NFD)');
  return [...groups.values()]
    .filter((g) => g.size > 1)
    .map((g) => `labels ${[...g].map((n) => `"${n}" [${forms(n)}${declared.includes(n) ? ', declared' : ', on the server'}]`).join(' and ')}${where} differ only in Unicode normalisation: they look the same, but Gitea keeps them as different labels; write the name as the server has it`);
}

/** The config section of a scope type's entries. */
const SECTION = { repo: 'repos', org: 'orgs', server: '' } as const;

export const planning = {
  notices({ desired, current, scope }) {
    return lookAlikeNames(
      desired.map((d) => d.key),
      current.map((c) => c.key),
      ` in ${scope.name}`,
    );
  },

  async desired({ entry: cfg, scope, ctx, run }) {
    if (!cfg || (!cfg.labels && !cfg.label_template)) return undefined;
    const section = SECTION[scope.type];
    const problems: Problem[] = [];
    const byName = new Map<string, DesiredObject>();
    if (cfg.label_template) {
      const path = [section, scope.name, 'label_template'];
      try {
        const entries = await ctx.cachedGet<LabelTemplateEntry[]>(apiPath('label', 'templates', cfg.label_template));
        for (const e of entries)
          byName.set(e.name, {
            key: e.name,
            fields: normalizeFields(fields, { color: e.color, description: e.description ?? '', exclusive: e.exclusive ?? false }, true),
            path,
          });
      } catch (e) {
        problems.push({ path, message: `label template "${cfg.label_template}" cannot be read: ${e instanceof Error ? e.message : String(e)}` });
      }
    }
    for (const [name, label] of declaredEntries<LabelConfig>(cfg.labels ?? {})) {
      const fromTemplate = byName.get(name);
      const { previously } = label;
      const own = declaredFields(run, label);
      byName.set(name, {
        key: name,
        // Explicit labels override the template's fields one by one.
        fields: fromTemplate ? { ...fromTemplate.fields, ...own } : own,
        ...(previously ? { previously } : {}),
        path: [section, scope.name, 'labels', name],
      });
    }
    return { objects: [...byName.values()], problems };
  },

  check({ desired, current }) {
    if (!current && desired.fields.color === undefined)
      return [{ path: desired.path, message: `label "${desired.key}" does not exist yet and needs a color to be created` }];
    return [];
  },

  /**
   * Copies of one name: the copy issues carry is the declared label (the oldest when none is carried);
   * the copies no issue carries may go. Two carried copies need a human to move the issues.
   */
  async resolveDuplicates(req) {
    const { matches } = req;
    const counts = await issuesPerLabel(req);
    const byAge = [...matches].sort((a, b) => Number(a.id) - Number(b.id));
    const carried = byAge.filter((m) => (counts.get(Number(m.id)) ?? 0) > 0);
    const named = `${matches.length} labels with this name exist on the server (${byAge.map((m) => `id ${m.id} on ${issues(counts.get(Number(m.id)) ?? 0)}`).join(', ')})`;
    if (carried.length > 1) return { remove: [], message: `${named}; ${carried.length} of them are on issues, so forgeform keeps them all: move their issues to one label and delete the others by hand` };
    const [keep = byAge[0]] = carried;
    if (!keep) return { remove: [], message: named };
    return { keep, remove: byAge.filter((m) => m !== keep), message: `${named}; forgeform keeps id ${keep.id} (${carried.length ? 'the one on issues' : 'the oldest'})` };
  },
} satisfies Planning<LabelTypes>;

export const safety = {

  /**
   * Deleting a label takes it off every issue: count the issues carrying its id. Never by name: the
   * issue filters split `labels` on commas and drop names no label has (see issuesPerLabel), so a
   * label "old,x" counted by name is "on no issue", and a name matching nothing counts every issue.
   */
  async annotate(req) {
    const { change, intent, scope, ctx, self } = req;
    if (change.action !== 'delete') return undefined;
    // One copy of a duplicated name is named by its id; otherwise the one label of that name as read.
    const { copy } = intent;
    const id = copy !== undefined ? Number(copy) : (await ctx.currentOf(self, scope)).find((l) => l.key === change.key)?.id;
    if (id === undefined) return undefined;
    const count = (await issuesPerLabel(req)).get(Number(id)) ?? 0;
    return { notes: [count ? `carried by ${issues(count)}: deleting it removes it from them` : 'carried by no issue'], affects: { count, what: `is carried by ${issues(count)}` } };
  },
} satisfies Safety<LabelTypes>;

const issues = (n: number) => `${n} issue${n === 1 ? '' : 's'}`;

/** An issue as the copies are counted from it: the ids of its labels. */
const CARRIED: Shape = { labels: { list: { id: 'id' }, optional: true } };

interface IssueWithLabels {
  labels?: { id?: unknown }[] | null;
}

/**
 * How many issues (and pull requests) carry each label id, from a full read of the scope's issues
 * (50 a page), counted by the ids on each issue. The `labels=` filters cannot count a label: they take
 * names only, split on commas, and drop names no label has, so "old,x" matches issues carrying "old"
 * or "x" (or none), a number is looked up as a name, and a filter left empty matches every issue
 * (Gitea v1.25.4 routers/api/v1/repo/issue.go:428-429, ListIssues → GetLabelIDsInRepoByNames,
 * models/issues/label.go:333; SearchIssues at :233-238 → GetLabelIDsByNames; the same in v1.21.11).
 * An organisation's labels are on the issues of its repositories: the issue search of that owner.
 */
function issuesPerLabel({ scope, ctx, run }: AnyRequest<LabelTypes>): Promise<Map<number, number>> {
  const memo = run.issueCounts;
  const key = `${scope.type} ${scope.name}`;
  let p = memo.get(key);
  if (!p) {
    const object = `issues of ${scope.name}, to count the issues carrying each label`;
    const read =
      scope.type === 'repo'
        ? ctx.client.list<IssueWithLabels>(apiPath(...scope.segments, 'issues'), { query: { state: 'all' }, object, shape: CARRIED })
        : ctx.client.list<IssueWithLabels>(apiPath('repos', 'issues', 'search'), { query: { state: 'all', owner: scope.name }, object, shape: CARRIED });
    p = read.then((list) => {
      const counts = new Map<number, number>();
      for (const issue of list) for (const l of issue.labels ?? []) counts.set(Number(l.id), (counts.get(Number(l.id)) ?? 0) + 1);
      return counts;
    });
    memo.set(key, p);
  }
  return p;
}
