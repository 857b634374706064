/**
 * The core scenarios of the end-to-end suite (labels with rename and prune, branch protections,
 * users, hooks, runners, issues), written once for every flavour: each builds its config from what
 * the flavour has (availability.ts), works in its own part of one shared seed (its own repository,
 * its own users, the server-wide hooks and runners), and checks the server's state after apply.
 * Where a whole scenario needs something the release lacks (the runner list), `lacks` says which
 * config key the plan must refuse instead.
 */
import { expect } from 'vitest';
import type { Flavour, SeedFile } from '../../src/sandbox/index.js';
import type { World } from '../e2e/helpers.js';
import { answerKey, configKeys, field, gatedProtectionFields, hookEditEvent, hookEvent, quirk, route } from './availability.js';

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
    // The release-behaviour scenarios (issue 19): each its own users, organisations and hook.
    { username: 'vic', email: 'vic@example.com', visibility: 'limited' },
    { username: 'ext-ann', email: 'ann@example.com', source_id: 1, login_name: 'uid=ann,ou=people' },
    { username: 'mover-a', email: 'moving@example.com' },
    { username: 'mover-b', email: 'mover-b@example.com' },
  ],
  orgs: [
    {
      name: 'acme',
      owners: ['root'],
      members: ['alice', 'bob'],
      teams: [{ name: 'devs', permission: 'write', members: ['alice', 'bob'] }],
      labels: [{ name: 'kind/bug', color: 'ee0701', description: 'old', exclusive: true }],
    },
    { name: 'pubco', owners: ['root'], visibility: 'private' },
    { name: 'mailco', owners: ['root'], email: 'old@mailco.example.com' },
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
    { type: 'gitea', config: { url: 'https://events.example.com/hook', content_type: 'json', is_system_webhook: true }, events: ['push'], active: true },
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
  config(flavour: Flavour): string;
  /** Set when the flavour cannot run the scenario: the plan must fail naming this. */
  lacks?(flavour: Flavour): Lack | undefined;
  /**
   * Set when the release cannot do what the config asks (a behaviour, not a missing field): the plan
   * must fail with an error that matches, names the server's version and changes nothing.
   */
  refuses?(flavour: Flavour): RegExp | undefined;
  /** Checks of the server's state after apply. */
  check?(w: World, flavour: Flavour): Promise<void>;
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
    config: (flavour) => {
      const gated = gatedProtectionFields().filter((k) => k in PROTECTION_SAMPLES && field(flavour, 'CreateBranchProtectionOption', k));
      const extra = gated.map((k) => `        ${k}: ${PROTECTION_SAMPLES[k]}\n`).join('');
      const priority = field(flavour, 'CreateBranchProtectionOption', 'priority') ? '        priority: 5\n' : '';
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
    async check(w, flavour) {
      const rules = await api<Record<string, unknown>[]>(w, 'repos/acme/protect/branch_protections');
      expect(rules.map((r) => r.rule_name).sort()).toEqual(['main', 'release/*']);
      const main = rules.find((r) => r.rule_name === 'main')!;
      expect(main).toMatchObject({ required_approvals: 2 });
      if (field(flavour, 'CreateBranchProtectionOption', 'ignore_stale_approvals')) expect(main.ignore_stale_approvals).toBe(true);
      if (field(flavour, 'CreateBranchProtectionOption', 'priority')) expect(rules.find((r) => r.rule_name === 'release/*')!.priority).toBe(5);
    },
  },
  {
    name: 'users: create, update, rename; badges where the release has them; an external user keeps its login',
    config: (flavour) => {
      const badges = route(flavour, 'POST /admin/users/:username/badges') ? '    badges: [early, helper]\n' : '';
      // No API lists a server's badges: the config names those it gives that no user carries yet (issue 27).
      const policy = badges ? 'policy: { badges: [early, helper] }\n' : '';
      return `version: 1
${policy}users:
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
    async check(w, flavour) {
      const users = await api<Record<string, unknown>[]>(w, 'admin/users?limit=50');
      const by = (login: string) => users.find((u) => u.login === login);
      expect(by('carl')).toMatchObject({ full_name: 'Carl', visibility: 'limited' });
      expect(by('dave')).toMatchObject({ full_name: 'Dave Two', visibility: 'limited' });
      expect(by('eve-old')).toBeUndefined();
      expect(by('eve')).toMatchObject({ full_name: 'Eve', email: 'eve@example.com' });
      // an edit of a user of a login source must not move it to the local source nor rewrite its login name
      expect(by('lena')).toMatchObject({ full_name: 'Lena from LDAP', login_name: 'uid=lena,ou=people' });
      // (Gitea 1.21 and Forgejo 7 do not answer source_id: the server's state says it)
      expect(w.sandbox.state.data.users.find((u) => u.name === 'lena')!.sourceId).toBe(1);
      if (route(flavour, 'GET /admin/users/:username/badges')) {
        const badges = await api<{ Slug: string }[]>(w, 'admin/users/dave/badges');
        expect(badges.map((b) => b.Slug).sort()).toEqual(['early', 'helper']);
      }
    },
  },
  {
    name: 'hooks: create with the release’s events, update one with an undeclared authorization header',
    config: (flavour) => {
      const events = ['push', 'pull_request', ...(['package', 'status', 'workflow_job'] as const).filter((e) => hookEvent(flavour, e))];
      const name = field(flavour, 'CreateHookOption', 'name') && configKeys('hook', 'hook').has('name') ? '    name: ci\n' : '';
      // Default hooks can be read back only where the list takes `type=`.
      const dflt = quirk(flavour, 'adminHooksListType')
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
    async check(w, flavour) {
      const seeded = w.sandbox.state.data.adminHooks.find((h) => h.url === 'https://seeded.example.com/hook')!;
      // the edit must carry the header the server returned (Gitea's PATCH clears one it does not get)
      expect(seeded.authorizationHeader).toBe(SEEDED_HOOK_HEADER);
      const ci = w.sandbox.state.data.adminHooks.find((h) => h.url === 'https://ci.example.com/hook')!;
      expect(ci).toMatchObject({ isSystem: true, branchFilter: 'main', authorizationHeader: `Bearer ${HOOK_TOKEN}` });
      if (hookEvent(flavour, 'package')) expect(ci.events.package).toBe(true);
    },
  },
  {
    name: 'runners: keep, disable where the release can, prune',
    lacks: (flavour) => (route(flavour, 'GET /admin/actions/runners') ? undefined : { names: /runners?/ }),
    config: (flavour) => `version: 1
policy:
  prune: [runners]
actions:
  runners:
    r-keep: {}
    r-disable: {${route(flavour, 'PATCH /admin/actions/runners/:runner_id') ? ' disabled: true ' : ''}}
`,
    async check(w, flavour) {
      const runners = w.sandbox.state.data.runners;
      expect(runners.map((r) => r.name).sort()).toEqual(['r-disable', 'r-keep']);
      if (route(flavour, 'PATCH /admin/actions/runners/:runner_id')) expect(runners.find((r) => r.name === 'r-disable')!.disabled).toBe(true);
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
export const LACKING_CANDIDATES: { key: string; has: (f: Flavour) => boolean; config: string }[] = [
  ...gatedProtectionFields()
    .filter((k) => PROTECTION_SAMPLE_KEYS.includes(k))
    .map((k) => ({
      key: k,
      has: (f: Flavour) => field(f, 'CreateBranchProtectionOption', k),
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
export function lackingFor(flavour: Flavour): { key: string; config: string } | undefined {
  return LACKING_CANDIDATES.find((c) => !c.has(flavour));
}

/**
 * What forgeform must do where releases still differ (issue 19 §4), one scenario per behaviour, each
 * run on every flavour: converge where the release can, a plan error naming the server where it cannot.
 * Whether a flavour can is asked of the sandbox's own release data (availability.ts), read from each tag.
 */
export const RELEASE_SCENARIOS: Scenario[] = [
  {
    name: 'visibility public: set where PATCH keeps it, refused where it drops it (Gitea 1.22–1.23, Forgejo)',
    refuses: (flavour) => (quirk(flavour, 'userEditIgnoresPublic') ? /cannot make (a user|an organisation) public/ : undefined),
    config: () => `version: 1
users:
  vic: { visibility: public }
orgs:
  pubco: { visibility: public }
`,
    async check(w) {
      expect((await api<{ visibility: string }>(w, 'orgs/pubco')).visibility).toBe('public');
      expect(w.sandbox.state.data.users.find((u) => u.name === 'vic')!.visibility).toBe('public');
    },
  },
  {
    name: 'hook events per release and per action: an event the edit ignores is refused, never a perpetual change',
    lacks: (flavour) => (hookEvent(flavour, 'package') || hookEvent(flavour, 'status') ? undefined : { names: /event (package|status)/ }),
    refuses: (flavour) => (editEvent(flavour) ? undefined : /cannot add or remove the events? (package|status)/),
    config: (flavour) => `version: 1
hooks:
  - url: https://events.example.com/hook
    events: [push, ${hookEvent(flavour, 'package') ? 'package' : 'status'}]
`,
    async check(w, flavour) {
      const hook = w.sandbox.state.data.adminHooks.find((h) => h.url === 'https://events.example.com/hook')!;
      expect(hook.events[hookEvent(flavour, 'package') ? 'package' : 'status']).toBe(true);
    },
  },
  {
    name: 'source_id: compared where the release reports it, refused where users come without it (Gitea 1.21, Forgejo 7)',
    lacks: (flavour) => (answerKey(flavour, 'User', 'source_id') ? undefined : { names: /source_id/ }),
    config: () => `version: 1
users:
  lena: { source_id: 1, login_name: "uid=lena,ou=staff" }
`,
    async check(w) {
      expect(w.sandbox.state.data.users.find((u) => u.name === 'lena')).toMatchObject({ sourceId: 1, loginName: 'uid=lena,ou=staff' });
    },
  },
  {
    name: 'renaming a user of an external login source: refused where the release cannot (all but Forgejo ≥ 13), found without source_id too',
    refuses: (flavour) => (quirk(flavour, 'renameNonLocalUserFails') ? /external login source/ : undefined),
    config: () => `version: 1
users:
  ext-anna: { previously: [ext-ann] }
`,
    async check(w) {
      expect(w.sandbox.state.data.users.find((u) => u.name === 'ext-anna')).toMatchObject({ sourceId: 1 });
    },
  },
  {
    name: 'organisation e-mail: set where PATCH saves it, refused where it is only echoed (Gitea 1.21)',
    refuses: (flavour) => (quirk(flavour, 'orgEditEmailNotStored') ? /cannot set an organisation's e-mail/ : undefined),
    config: () => `version: 1
orgs:
  mailco: { email: new@mailco.example.com }
`,
    async check(w) {
      expect(w.sandbox.state.data.orgs.find((o) => o.name === 'mailco')!.email).toBe('new@mailco.example.com');
    },
  },
  {
    name: 'an e-mail moving between users: ordered (and the old address deleted where it is kept), refused where it cannot be freed',
    refuses: (flavour) => (quirk(flavour, 'userEmailChangeKeepsOld') && !route(flavour, 'DELETE /admin/users/:username/emails') ? /keeps a user's old address/ : undefined),
    config: () => `version: 1
users:
  mover-b: { email: moving@example.com }
  mover-a: { email: moved@example.com }
`,
    async check(w) {
      const users = w.sandbox.state.data.users;
      expect(users.find((u) => u.name === 'mover-a')!.email).toBe('moved@example.com');
      expect(users.find((u) => u.name === 'mover-b')!.email).toBe('moving@example.com');
      const rows = w.sandbox.state.data.emails.filter((e) => e.email.toLowerCase() === 'moving@example.com');
      expect(rows.map((e) => e.userId)).toEqual([users.find((u) => u.name === 'mover-b')!.id]);
    },
  },
];

/** Whether the release's hook edit can change the event the hook scenario declares. */
function editEvent(flavour: Flavour): boolean {
  return hookEditEvent(flavour, hookEvent(flavour, 'package') ? 'package' : 'status');
}
