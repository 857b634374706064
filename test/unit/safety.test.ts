import { describe, expect, it } from 'vitest';
import { planShapeProblems } from '../../src/apply/plan-shape.js';
import { formatDiagnostic } from '../../src/diagnostic.js';
import { kinds } from '../../src/kinds/index.js';
import { assessSafety, assessSavedPlan, DEFAULT_POLICY, describePolicy, policyOf, type SafetyFacts } from '../../src/plan/safety.js';
import type { Change, PlanPolicy } from '../../src/plan/types.js';

const del = (key: string, scope = 'repo:acme/a', kind = 'repo_label'): Change => ({
  id: `${kind}/${scope}/${key}`,
  kind,
  scope,
  key,
  action: 'delete',
  fields: [],
  precondition: { digest: 'x' },
  depends_on: [],
  ops: [],
});

const facts = (changes: Change[], existing: Record<string, number> = {}, extra: Partial<SafetyFacts> = {}): SafetyFacts => ({
  changes,
  existing: new Map(Object.entries(existing)),
  affects: [],
  guards: [],
  title: (k) => (k === 'repo_label' ? 'label' : k),
  ...extra,
});

const policy = (p: Partial<PlanPolicy> = {}): PlanPolicy => ({ ...policyOf(undefined, kinds), ...p });

describe('the safety policy', () => {
  it('defaults to max_deletes 10 and max_delete_fraction 0.3', () => {
    // The kinds' own entries (the users' protected_users, purge_users and badges, the repositories' mirror_min_interval and readme_templates) are filled in after the engine's.
    expect(policyOf({ version: 1 }, kinds)).toEqual({ prune: [], max_deletes: 10, max_delete_fraction: 0.3, protected_users: [], purge_users: false, badges: [], mirror_min_interval: '10m', readme_templates: [] });
    expect(Object.keys(policyOf({ version: 1, policy: { purge_users: true, protected_users: ['root'] } }, kinds))).toEqual(['prune', 'max_deletes', 'max_delete_fraction', 'protected_users', 'purge_users', 'badges', 'mirror_min_interval', 'readme_templates']);
    expect(policyOf({ version: 1 })).toEqual({ prune: [], max_deletes: 10, max_delete_fraction: 0.3 });
    expect(DEFAULT_POLICY).toEqual({ max_deletes: 10, max_delete_fraction: 0.3 });
    expect(describePolicy(policy({ prune: ['labels'] }))).toBe('prune [labels], max_deletes 10, max_delete_fraction 0.3, protected_users [], purge_users false, badges [], mirror_min_interval 10m, readme_templates []');
  });

  it('counts deletions over the whole plan for max_deletes', () => {
    const ten = Array.from({ length: 10 }, (_, i) => del(`l${i}`, `repo:acme/r${i}`));
    expect(assessSafety(facts(ten), policy()).unsafe).toEqual([]);
    expect(assessSafety(facts([...ten, del('x', 'repo:acme/z')]), policy()).unsafe).toEqual(['11 deletions planned, more than policy.max_deletes (10)']);
  });

  it('applies max_delete_fraction per kind and scope, only from 10 existing objects', () => {
    const four = ['a', 'b', 'c', 'd'].map((k) => del(k));
    expect(assessSafety(facts(four, { 'repo_label repo:acme/a': 9 }), policy()).unsafe).toEqual([]);
    expect(assessSafety(facts(four, { 'repo_label repo:acme/a': 10 }), policy()).unsafe).toEqual([
      '4 of the 10 labels in acme/a deleted (40%), more than policy.max_delete_fraction (0.3)',
    ]);
    expect(assessSafety(facts(four.slice(1), { 'repo_label repo:acme/a': 10 }), policy()).unsafe).toEqual([]);
  });

  it('makes a change that affects other objects unsafe, and a guard forbidden', () => {
    const c = del('bug');
    const verdict = assessSafety(facts([c], {}, { affects: [{ change: c, count: 2, what: 'is carried by 2 issues' }], guards: [{ change: del('root', 'server:', 'user'), reason: 'no' }] }), policy());
    expect(verdict.unsafe).toEqual(['label "bug" in acme/a is carried by 2 issues']);
    expect(verdict.forbidden).toEqual(['user "root": no']);
  });

  it('a saved plan’s policy counts where it is stricter, and never loosens the defaults', () => {
    const twelve = Array.from({ length: 12 }, (_, i) => del(`l${i}`, `repo:acme/r${i}`));
    expect(assessSavedPlan(facts(twelve), policy({ max_deletes: 20 })).unsafe).toEqual([
      "12 deletions planned, more than the default max_deletes (10); the plan file's policy is looser, and a saved plan cannot loosen safety",
    ]);
    expect(assessSavedPlan(facts(twelve.slice(0, 3)), policy({ max_deletes: 2 })).unsafe).toEqual(['3 deletions planned, more than policy.max_deletes (2)']);
    expect(assessSavedPlan(facts(twelve.slice(0, 3)), policy({ max_deletes: 20 })).unsafe).toEqual([]);
  });
});

describe('plan file shape', () => {
  const plan = (changes: unknown[], extra: Record<string, unknown> = {}) => ({ format_version: 1, server: { url: 'http://x', flavour: 'forgejo', version: '11.0.2' }, policy: policy(), unsafe: [], warnings: [], changes, ...extra });
  const label = { id: 'repo_label/repo:acme/a/bug', kind: 'repo_label', scope: 'repo:acme/a', key: 'bug', action: 'create', fields: [{ path: 'color', after: 'ee0701' }], precondition: { digest: null }, depends_on: [], ops: [{ method: 'POST', path: 'repos/acme/a/labels', body: {} }] };

  it('accepts a plan this forgeform makes', () => {
    expect(planShapeProblems(plan([label]), kinds)).toEqual([]);
  });

  it('names what it does not know', () => {
    const problems = (c: Record<string, unknown>, extra?: Record<string, unknown>) => planShapeProblems(plan([{ ...label, ...c }], extra), kinds).map(formatDiagnostic).join('\n');
    expect(problems({ kind: 'wormhole' })).toMatch(/unknown kind "wormhole"/);
    expect(problems({ action: 'delete' })).toMatch(/a delete carries no field values/);
    expect(problems({ action: 'rename' })).toMatch(/a rename needs from/);
    expect(problems({ kind: 'issue', id: 'issue/repo:acme/a/bug' })).toMatch(/action "create" is not one that issue changes can have \(update\)/);
    expect(problems({ scope: 'org:acme' })).toMatch(/scope "org:acme" is not a repo scope/);
    expect(problems({ id: 'repo_label/repo:acme/a/other' })).toMatch(/id must be repo_label\/repo:acme\/a\/bug/);
    expect(problems({ fields: [{ path: 'owner', after: 'x', context: true }] })).toMatch(/field "owner" is not a value a label change can carry/);
    expect(problems({ fields: [{ path: 'color', after: 'x', sensitive: true }] })).toMatch(/field "color" must not be marked sensitive/);
    expect(problems({ depends_on: ['user/server:/ghost'] })).toMatch(/depends on user\/server:\/ghost, which is not in the plan/);
    expect(problems({ ops: [{ method: 'TRACE', path: 'x' }] })).toMatch(/ops\[0\] is not a request/);
    expect(problems({}, { policy: { ...policy(), max_deletes: -1 } })).toMatch(/policy.max_deletes must be a count/);
    expect(problems({}, { policy: undefined })).toMatch(/records no policy/);
    // The kinds' own entries (KindMeta.policy) are checked as their kind says; a key no kind owns is unknown.
    const { protected_users: _, ...withoutProtected } = policy();
    expect(problems({}, { policy: { ...withoutProtected, purge_users: 'yes', wormholes: [] } }).split('\n')).toEqual([
      'policy: unknown key "wormholes"',
      'policy.protected_users must be a list of user names',
      'policy.purge_users must be true or false',
    ]);
    expect(problems({}, { extra: true })).toMatch(/unknown key "extra" at the top level/);
    // Each problem is a diagnostic naming the change it is about, printed by the one formatter.
    expect(planShapeProblems(plan([{ ...label, notes: 'x' }]), kinds)).toEqual([{ resource: `change ${label.id}`, message: 'notes must be a list of strings' }]);
  });
});
