/**
 * The core scenarios of the end-to-end suite (labels with rename and prune, branch protections,
 * users, hooks, runners, issues), written once for every flavour: each builds its config from what
 * the flavour has (availability.ts), works in its own part of one shared seed (its own repository,
 * its own users, the server-wide hooks and runners), and checks the server's state after apply.
 * Where a whole scenario needs something the release lacks (the runner list), `lacks` says which
 * config key the plan must refuse instead.
 */
import { expect } from 'vitest';
import type { Flavor, SeedFile } from '../../src/sandbox/index.js';
import type { World } from '../e2e/helpers.js';
import { configKeys, field, gatedProtectionFields, hookEvent, quirk, route } from './availability.js';

export const HOOK_TOKEN = 'matrix-hook-bearer-5e1d';
export const PASSWORD = 'matrix-initial-password-8c2f';
export const SEEDED_HOOK_HEADER = 'Bearer seeded-not-in-config';

export const SEED: SeedFile = {
  auth_sources: [{ id: 1, name: 'corp-ldap', type: 'ldap' }],
  badges: ['early', 'helper'],
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com' },
    { username: 'bob', email: 'bob@example.com' },
    { username: 'dave', email: 'dave@example.com', full_name: 'Dave', badges: ['early'] },
    { username: 'eve-old', email: 'eve@example.com' },
    { username: 'lena', email: 'lena@example.com', source_id: 1, login_name: 'uid=lena,ou=people' },
  ],
  orgs: [
    {
      name: 'acme',
      owners: ['root'],
      members: ['alice', 'bob'],
      teams: [{ name: 'devs', permission: 'write', members: ['alice', 'bob'] }],
      labels: [{ name: 'kind/bug', color: 'ee0701', description: 'old', exclusive: true }],
    },
  ],
  repos: [
    {
      name: 'acme/labels',
      labels: [
        { name: 'defect', color: 'ee0701', description: 'Something is not working' },
        { name: 'docs', color: '0000aa' },
        { name: 'stale', color: '999999' },
      ],
      issues: [{ title: 'Crash', labels: ['defect'], author: 'alice' }],
    },
    {
      name: 'acme/protect',
      branch_protections: [{ rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['alice'], required_approvals: 1 }, { rule_name: 'legacy' }],
    },
    {
      name: 'acme/issues',
      labels: [
        { name: 'bug', color: 'ee0701' },
        { name: 'docs', color: '0000ff' },
        { name: 'urgent', color: 'ff0000' },
      ],
      milestones: [{ title: 'v1' }, { title: 'v2' }],
      issues: [{ title: 'One', body: 'first', labels: ['bug'], milestone: 'v1', assignees: ['alice'], author: 'alice' }],
    },
  ],
  hooks: [
    {
      type: 'gitea',
      config: { url: 'https://seeded.example.com/hook', content_type: 'json', is_system_webhook: true },
      events: ['push'],
      authorization_header: SEEDED_HOOK_HEADER,
      active: true,
    },
  ],
  actions: { runners: [{ name: 'r-keep' }, { name: 'r-disable' }, { name: 'r-gone' }] },
};

/** What the plan must refuse: a config key, in the words the error uses. */
export interface Lack {
  /** A word the error must contain (the field or key). */
  names: RegExp;
}

export interface Scenario {
  name: string;
  /** The config (a YAML document) this flavour's scenario plans. */
  config(flavor: Flavor): string;
  /** Set when the flavour cannot run the scenario: the plan must fail naming this. */
  lacks?(flavor: Flavor): Lack | undefined;
  /** Checks of the server's state after apply. */
  check?(w: World, flavor: Flavor): Promise<void>;
}

const yamlList = (xs: string[]): string => `[${xs.map((x) => JSON.stringify(x)).join(', ')}]`;

/** A sample value for each version-gated branch-protection field the config may set. */
const PROTECTION_SAMPLES: Record<string, string> = {
  ignore_stale_approvals: 'true',
  enable_force_push: 'true',
  enable_force_push_allowlist: 'true',
  force_push_allowlist_usernames: '[alice]',
  block_admin_merge_override: 'true',
  apply_to_admins: 'true',
  block_on_codeowner_reviews: 'true',
  enable_bypass_allowlist: 'true',
  bypass_allowlist_usernames: '[alice]',
  enable_deletion: 'true',
  enable_deletion_allowlist: 'true',
  deletion_allowlist_usernames: '[alice]',
  // priority is set on the rule the scenario creates (below).
};

export const PROTECTION_SAMPLE_KEYS = Object.keys(PROTECTION_SAMPLES).concat('priority');

async function api<T>(w: World, path: string): Promise<T> {
  const res = await w.api<T>('GET', path);
  expect(res.status, `GET ${path}`).toBe(200);
  return res.body;
}

export const SCENARIOS: Scenario[] = [
  {
    name: 'labels: rename, update, create and prune',
    config: () => `version: 1
policy:
  prune: [labels]
orgs:
  acme:
    labels:
      kind/bug: { color: ee0701, description: Something is not working, exclusive: true }
      kind/feature: { color: 0288d1, exclusive: true }
repos:
  acme/labels:
    labels:
      bug: { color: ee0701, description: Something is not working, previously: [defect] }
      docs: { color: "#00F", description: Documentation }
      new one: { color: abcdef }
`,
    async check(w) {
      const labels = await api<{ id: number; name: string; color: string }[]>(w, 'repos/acme/labels/labels?limit=50');
      expect(labels.map((l) => l.name).sort()).toEqual(['bug', 'docs', 'new one']);
      // the rename kept the label on its issue
      const issue = await api<{ labels: { name: string }[] }>(w, 'repos/acme/labels/issues/1');
      expect(issue.labels.map((l) => l.name)).toEqual(['bug']);
    },
  },
  {
    name: 'branch protections: update, create with the release’s own fields, prune',
    config: (flavor) => {
      const gated = gatedProtectionFields().filter((k) => k in PROTECTION_SAMPLES && field(flavor, 'CreateBranchProtectionOption', k));
      const extra = gated.map((k) => `        ${k}: ${PROTECTION_SAMPLES[k]}\n`).join('');
      const priority = field(flavor, 'CreateBranchProtectionOption', 'priority') ? '        priority: 5\n' : '';
      return `version: 1
policy:
  prune: [branch_protections]
repos:
  acme/protect:
    branch_protections:
      main:
        enable_push: true
        enable_push_whitelist: true
        push_whitelist_usernames: [alice, bob]
        required_approvals: 2
${extra}      "release/*":
        enable_push: false
        required_approvals: 1
${priority}`;
    },
    async check(w, flavor) {
      const rules = await api<Record<string, unknown>[]>(w, 'repos/acme/protect/branch_protections');
      expect(rules.map((r) => r.rule_name).sort()).toEqual(['main', 'release/*']);
      const main = rules.find((r) => r.rule_name === 'main')!;
      expect(main).toMatchObject({ required_approvals: 2 });
      if (field(flavor, 'CreateBranchProtectionOption', 'ignore_stale_approvals')) expect(main.ignore_stale_approvals).toBe(true);
      if (field(flavor, 'CreateBranchProtectionOption', 'priority')) expect(rules.find((r) => r.rule_name === 'release/*')!.priority).toBe(5);
    },
  },
  {
    name: 'users: create, update, rename; badges where the release has them; an external user keeps its login',
    config: (flavor) => {
      const badges = route(flavor, 'POST /admin/users/:username/badges') ? '    badges: [early, helper]\n' : '';
      return `version: 1
users:
  carl:
    email: carl@example.com
    full_name: Carl
    password: \${MATRIX_PASSWORD}
    visibility: limited
  dave:
    full_name: Dave Two
    visibility: limited
${badges}  eve:
    previously: [eve-old]
    full_name: Eve
  lena:
    full_name: Lena from LDAP
`;
    },
    async check(w, flavor) {
      const users = await api<Record<string, unknown>[]>(w, 'admin/users?limit=50');
      const by = (login: string) => users.find((u) => u.login === login);
      expect(by('carl')).toMatchObject({ full_name: 'Carl', visibility: 'limited' });
      expect(by('dave')).toMatchObject({ full_name: 'Dave Two', visibility: 'limited' });
      expect(by('eve-old')).toBeUndefined();
      expect(by('eve')).toMatchObject({ full_name: 'Eve', email: 'eve@example.com' });
      // an edit of a user of a login source must not move it to the local source nor rewrite its login name
      expect(by('lena')).toMatchObject({ full_name: 'Lena from LDAP', source_id: 1, login_name: 'uid=lena,ou=people' });
      if (route(flavor, 'GET /admin/users/:username/badges')) {
        const badges = await api<{ Slug: string }[]>(w, 'admin/users/dave/badges');
        expect(badges.map((b) => b.Slug).sort()).toEqual(['early', 'helper']);
      }
    },
  },
  {
    name: 'hooks: create with the release’s events, update one with an undeclared authorization header',
    config: (flavor) => {
      const events = ['push', 'pull_request', ...['package', 'status', 'workflow_job'].filter((e) => hookEvent(flavor, e))];
      const name = field(flavor, 'CreateHookOption', 'name') && configKeys('hook', 'hook').has('name') ? '    name: ci\n' : '';
      // Default hooks can be read back only where the list takes `type=`.
      const dflt = quirk(flavor, 'adminHooksListType')
        ? `  - url: https://default.example.com/hook
    scope: default
    events: [push]
`
        : '';
      return `version: 1
hooks:
  - url: https://ci.example.com/hook
    events: ${yamlList(events)}
    branch_filter: main
    authorization_header: "Bearer \${MATRIX_HOOK_TOKEN}"
${name}  - url: https://seeded.example.com/hook
    events: [push, issues]
${dflt}`;
    },
    async check(w, flavor) {
      const seeded = w.sandbox.state.data.adminHooks.find((h) => h.url === 'https://seeded.example.com/hook')!;
      // the edit must carry the header the server returned (Gitea's PATCH clears one it does not get)
      expect(seeded.authorizationHeader).toBe(SEEDED_HOOK_HEADER);
      const ci = w.sandbox.state.data.adminHooks.find((h) => h.url === 'https://ci.example.com/hook')!;
      expect(ci).toMatchObject({ isSystem: true, branchFilter: 'main', authorizationHeader: `Bearer ${HOOK_TOKEN}` });
      if (hookEvent(flavor, 'package')) expect(ci.events.package).toBe(true);
    },
  },
  {
    name: 'runners: keep, disable where the release can, prune',
    lacks: (flavor) => (route(flavor, 'GET /admin/actions/runners') ? undefined : { names: /runners?/ }),
    config: (flavor) => `version: 1
policy:
  prune: [runners]
actions:
  runners:
    r-keep: {}
    r-disable: {${route(flavor, 'PATCH /admin/actions/runners/:runner_id') ? ' disabled: true ' : ''}}
`,
    async check(w, flavor) {
      const runners = w.sandbox.state.data.runners;
      expect(runners.map((r) => r.name).sort()).toEqual(['r-disable', 'r-keep']);
      if (route(flavor, 'PATCH /admin/actions/runners/:runner_id')) expect(runners.find((r) => r.name === 'r-disable')!.disabled).toBe(true);
    },
  },
  {
    name: 'issues: labels (exact), title, body, state, milestone, assignees, due date',
    config: () => `version: 1
repos:
  acme/issues:
    issues:
      1:
        title: One (edited)
        body: first, edited
        labels: [docs, urgent]
        labels_mode: exact
        state: closed
        milestone: v2
        assignees: [bob]
        due_date: "2026-03-01"
`,
    async check(w) {
      const issue = await api<Record<string, unknown> & { labels: { name: string }[]; milestone: { title: string }; assignees: { login: string }[]; due_date: string }>(w, 'repos/acme/issues/issues/1');
      expect(issue).toMatchObject({ title: 'One (edited)', body: 'first, edited', state: 'closed' });
      expect(issue.labels.map((l) => l.name).sort()).toEqual(['docs', 'urgent']);
      expect(issue.milestone.title).toBe('v2');
      expect(issue.assignees.map((a) => a.login)).toEqual(['bob']);
      // the server answers in its own zone (Asia/Tokyo here): the date is the one asked for there
      expect(issue.due_date.slice(0, 10)).toBe('2026-03-01');
    },
  },
];

/**
 * Config fields some release lacks, in the order the version-error scenario tries them: the first
 * one the flavour lacks is used. Each entry: the key the error must name and a config using it.
 */
export const LACKING_CANDIDATES: { key: string; has: (f: Flavor) => boolean; config: string }[] = [
  ...gatedProtectionFields()
    .filter((k) => PROTECTION_SAMPLE_KEYS.includes(k))
    .map((k) => ({
      key: k,
      has: (f: Flavor) => field(f, 'CreateBranchProtectionOption', k),
      config: `version: 1
repos:
  acme/protect:
    branch_protections:
      main: { ${k}: ${PROTECTION_SAMPLES[k] ?? '3'} }
`,
    })),
  {
    key: 'name',
    has: (f) => field(f, 'CreateHookOption', 'name') || !configKeys('hook', 'hook').has('name'),
    config: `version: 1
hooks:
  - url: https://ci.example.com/hook
    name: ci
`,
  },
  {
    key: 'disabled',
    has: (f) => route(f, 'PATCH /admin/actions/runners/:runner_id') || !route(f, 'GET /admin/actions/runners'),
    config: `version: 1
actions:
  runners:
    r-keep: { disabled: true }
`,
  },
  {
    key: 'badges',
    has: (f) => route(f, 'POST /admin/users/:username/badges'),
    config: `version: 1
users:
  dave: { badges: [early] }
`,
  },
  {
    key: 'projects',
    has: (f) => field(f, 'EditIssueOption', 'projects') || !configKeys('issue', 'issue').has('projects'),
    config: `version: 1
repos:
  acme/issues:
    issues:
      1: { projects: [1] }
`,
  },
];

/** The first config field the flavour lacks (every flavour of the matrix lacks at least one). */
export function lackingFor(flavor: Flavor): { key: string; config: string } | undefined {
  return LACKING_CANDIDATES.find((c) => !c.has(flavor));
}
