import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSeedFile, type SeedFile } from '../../src/sandbox/index.js';
import type { ApiRunner } from '../support/api-types.js';
import { bodyOf, calls, world, type World, writes } from './helpers.js';

const users: SeedFile['users'] = [
  { username: 'root', admin: true, email: 'root@example.com' },
  { username: 'alice', email: 'alice@example.com' },
];

let w: World;
afterEach(async () => w?.sandbox.close());

async function runners(w: World): Promise<ApiRunner[]> {
  return (await w.api<{ runners: ApiRunner[] }>('GET', 'admin/actions/runners?limit=50')).body.runners;
}

describe('Actions runners end to end', () => {
  const seed: SeedFile = {
    users,
    orgs: [{ name: 'acme', owners: ['root'] }],
    actions: {
      runners: [{ name: 'runner-1' }, { name: 'runner-2', status: 'offline' }, { name: 'runner-old', status: 'offline' }, { name: 'acme-runner', owner: 'acme' }],
    },
  };

  it('manages the disabled flag, says which declared runners are offline, and prunes undeclared runners only with runners in policy.prune', async () => {
    w = await world(seed);
    const byName = Object.fromEntries((await runners(w)).map((r) => [r.name, r]));
    const config = (prune: boolean) => `version: 1
policy: { prune: [${prune ? 'runners' : ''}] }
actions:
  runners:
    runner-1: { disabled: true }
    runner-2: {}
`;
    const file = w.config(config(false));
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.stdout).toContain('Warning: runner "runner-2" is offline');
    expect(plan.stdout).toMatch(/~ runner "runner-1"\n\s+~ disabled: false → true/);
    expect(plan.stdout).toContain('Plan: 0 to create, 1 to update, 0 to delete, 0 to rename.');
    w.sandbox.clearRequests();
    expect((await w.cli(['apply', '-c', file, '--yes'])).code).toBe(0);
    expect(writes(w.sandbox)).toEqual([`PATCH admin/actions/runners/${byName['runner-1']!.id}`]);
    expect(bodyOf(w.sandbox, 'PATCH', `admin/actions/runners/${byName['runner-1']!.id}`)).toEqual({ disabled: true });

    const pruning = w.config(config(true));
    const prunePlan = await w.cli(['plan', '-c', pruning]);
    expect(prunePlan.stdout).toMatch(/- runner "runner-old"\n\s+# the runner is offline/);
    // The organisation's runner is not the server's: prune leaves it (runners-scope.test.ts).
    expect(prunePlan.stdout).not.toContain('acme-runner');
    w.sandbox.clearRequests();
    expect((await w.cli(['apply', '-c', pruning, '--yes'])).code).toBe(0);
    expect(writes(w.sandbox)).toEqual([`DELETE admin/actions/runners/${byName['runner-old']!.id}`]);
    expect((await runners(w)).map((r) => [r.name, r.disabled]).sort()).toEqual([
      ['acme-runner', false],
      ['runner-1', true],
      ['runner-2', false],
    ]);
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    expect((await w.cli(['plan', '-c', pruning, '--detailed-exitcode'])).code).toBe(0);
  });

  it('a declared runner that is not registered is an error naming its place', async () => {
    w = await world(seed);
    const file = w.config('version: 1\nactions:\n  runners:\n    runner-1: {}\n    typo-runner: { disabled: true }\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${file}:5:5: runner "typo-runner": runner "typo-runner" is not registered on the server`);
  });

  it('reads the runner list page by page from the total_count of its body, and exports runners that plan no changes', async () => {
    const many = Array.from({ length: 60 }, (_, i) => ({ name: `r${String(i).padStart(2, '0')}`, disabled: i % 2 === 0 }));
    w = await world({ users, actions: { runners: many } });
    const exported = `${w.dir}/runners.yaml`;
    expect((await w.cli(['export', '--include', 'runners', '-o', exported])).code).toBe(0);
    const text = readFileSync(exported, 'utf8');
    expect(text).toMatch(/^actions:\n {2}runners:\n {4}r00:\n {6}disabled: true\n {4}r01:\n {6}disabled: false\n/m);
    w.sandbox.clearRequests();
    const plan = await w.cli(['plan', '-c', exported, '--detailed-exitcode']);
    expect(plan.code).toBe(0);
    const reads = w.sandbox.requests().filter((r) => r.path === '/api/v1/admin/actions/runners');
    expect(reads.map((r) => [r.query.page, r.query.limit])).toEqual([
      ['1', '50'],
      ['2', '50'],
    ]);
  });
});

describe('organisations end to end', () => {
  it('creates a missing organisation for its owner, with its labels in the same apply, and edits an existing one', async () => {
    w = await world({ users, orgs: [{ name: 'acme', full_name: 'ACME', owners: ['root'] }] });
    const file = w.config(`version: 1
orgs:
  acme:
    full_name: ACME Corp
    website: https://acme.example.com
  tools:
    owner: alice
    full_name: Tools
    visibility: limited
    labels:
      bug: { color: ee0701 }
`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.stdout).toMatch(/\+ organisation "tools"\n\s+\+ full_name\s+= "Tools"\n\s+\+ visibility = "limited"/);
    expect(plan.stdout).toMatch(/~ organisation "acme"\n\s+~ full_name: "ACME" → "ACME Corp"\n\s+~ website\s*: "" → "https:\/\/acme.example.com"/);
    expect(plan.stdout).toContain('# org:tools\n  + organisation label "bug"');
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code).toBe(0);
    expect(writes(w.sandbox).sort()).toEqual(['PATCH orgs/acme', 'POST admin/users/alice/orgs', 'POST orgs/tools/labels']);
    expect(writes(w.sandbox).indexOf('POST orgs/tools/labels')).toBeGreaterThan(writes(w.sandbox).indexOf('POST admin/users/alice/orgs'));
    expect(bodyOf(w.sandbox, 'POST', 'admin/users/alice/orgs')).toEqual({ username: 'tools', full_name: 'Tools', visibility: 'limited' });
    // Released servers clear the text fields an edit omits: it carries their current values (docs/servers-writes.md).
    expect(bodyOf(w.sandbox, 'PATCH', 'orgs/acme')).toEqual({ full_name: 'ACME Corp', description: '', website: 'https://acme.example.com', location: '' });
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    expect((await w.cli(['plan', '-c', file, '--detailed-exitcode'])).code).toBe(0);
  });

  it('creates an organisation whose owner the same plan creates, after the user', async () => {
    w = await world({ users });
    const file = w.config(`version: 1
users:
  dora: { email: dora@example.com, password: "\${DORA_PASSWORD}", must_change_password: false }
orgs:
  dora-works: { owner: dora }
`);
    const planFile = `${w.dir}/plan.json`;
    expect((await w.cli(['plan', '-c', file, '--out', planFile], { DORA_PASSWORD: 'dora-password-1' })).code).toBe(0);
    const saved = JSON.parse(readFileSync(planFile, 'utf8')) as { changes: { id: string; depends_on: string[] }[] };
    expect(saved.changes.find((c) => c.id === 'org/server:/dora-works')?.depends_on).toEqual(['user/server:/dora']);
    const apply = await w.cli(['apply', planFile], { DORA_PASSWORD: 'dora-password-1' });
    expect(apply.code).toBe(0);
    expect(writes(w.sandbox)).toEqual(['POST admin/users', 'POST admin/users/dora/orgs']);
  });

  it('an organisation that does not exist and has no owner is an error naming its place', async () => {
    w = await world({ users });
    const file = w.config('version: 1\norgs:\n  ghost-org: { full_name: Ghost }\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${file}:3:3: organisation "ghost-org": organisation "ghost-org" does not exist on the server: add owner: USER to create it`);
  });

  it('export writes the organisations’ settings (with their labels when asked), and planning it shows no changes', async () => {
    w = await world({
      users,
      orgs: [
        { name: 'acme', full_name: 'ACME', description: 'Widgets', website: 'https://acme.example.com', location: 'Earth', owners: ['root'], labels: [{ name: 'bug', color: 'ee0701' }] },
        { name: 'hidden', visibility: 'private', owners: ['alice'] },
      ],
    });
    const exported = `${w.dir}/orgs.yaml`;
    expect((await w.cli(['export', '--include', 'orgs', '--include', 'acme', '-o', exported])).code).toBe(0);
    const text = readFileSync(exported, 'utf8');
    expect(text).toMatch(/orgs:\n {2}acme:\n {4}full_name: ACME\n {4}description: Widgets\n {4}website: https:\/\/acme.example.com\n {4}location: Earth\n {4}visibility: public\n {4}labels:\n {6}bug:/);
    expect(text).toMatch(/ {2}hidden:\n {4}visibility: private\n/);
    const plan = await w.cli(['plan', '-c', exported, '--detailed-exitcode']);
    expect(plan.code).toBe(0);
  });
});

describe('repositories end to end', () => {
  const seed: SeedFile = { users, orgs: [{ name: 'acme', owners: ['root'] }], repos: [{ name: 'acme/widgets', description: 'Widgets' }] };

  it('creates a missing repository on behalf of its owner, then its labels; never compares an existing one', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
repos:
  acme/new:
    create:
      private: true
      description: Brand new
      auto_init: true
      default_branch: trunk
      gitignores: [Go, Node]
      license: MIT
      readme: Default
    labels:
      ci: { color: 0e8a16 }
  acme/widgets:
    create: { description: Something else }
`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.stdout).toMatch(/\+ repository "acme\/new"\n\s+\+ private\s+= true/);
    expect(plan.stdout).not.toContain('acme/widgets');
    expect(plan.stdout).toContain('Plan: 2 to create, 0 to update, 0 to delete, 0 to rename.');
    // template names are checked only because a repository is to be created; the repository GETs are shared
    expect(calls(w.sandbox).sort()).toEqual(['GET /api/forgejo/v1/version', 'GET gitignore/templates', 'GET licenses', 'GET orgs/acme', 'GET repos/acme/new', 'GET repos/acme/widgets', 'GET version']);
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code).toBe(0);
    expect(writes(w.sandbox)).toEqual(['POST admin/users/acme/repos', 'POST repos/acme/new/labels']);
    expect(bodyOf(w.sandbox, 'POST', 'admin/users/acme/repos')).toEqual({
      name: 'new',
      private: true,
      description: 'Brand new',
      auto_init: true,
      default_branch: 'trunk',
      gitignores: 'Go,Node',
      license: 'MIT',
      readme: 'Default',
    });
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    const repo = await w.api<{ private: boolean; default_branch: string }>('GET', 'repos/acme/new');
    expect(repo.body).toMatchObject({ private: true, default_branch: 'trunk' });
    w.sandbox.clearRequests();
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(again.code).toBe(0);
    expect(calls(w.sandbox)).not.toContain('GET licenses');
  });

  it('names the config place of an unknown template, and refuses create on a glob, before any write', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
repos:
  acme/new:
    create:
      gitignores: [Go, Cobol]
      license: WTFPL-9
  "acme/*":
    create: {}
`);
    // create: on a glob is wrong in the config alone: reported before any request.
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${file}:8:5: create: is not allowed on a glob`);
    expect(w.sandbox.requests()).toEqual([]);
    // The templates need the server.
    const fixed = w.config(readFileSync(file, 'utf8').replace(/ {2}"acme\/\*":\n {4}create: \{\}\n/, ''), 'fixed.yaml');
    const again = await w.cli(['plan', '-c', fixed]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${fixed}:5:7: repository "acme/new": "Cobol" is not a .gitignore template of the server (GET /gitignore/templates)`);
    expect(again.stderr).toContain(`${fixed}:6:7: repository "acme/new": "WTFPL-9" is not a license template of the server (GET /licenses)`);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('creates a user, an organisation it owns and a repository in it, in that order, in one apply', async () => {
    w = await world({ users });
    const file = w.config(`version: 1
users:
  erin: { email: erin@example.com, password: "\${ERIN_PASSWORD}" }
orgs:
  erins-org: { owner: erin }
repos:
  erins-org/app:
    create: { auto_init: true }
    branch_protections:
      main: { required_approvals: 1 }
`);
    const env = { ERIN_PASSWORD: 'erin-password-1' };
    const apply = await w.cli(['apply', '-c', file, '--yes'], env);
    expect(apply.code).toBe(0);
    expect(writes(w.sandbox)).toEqual(['POST admin/users', 'POST admin/users/erin/orgs', 'POST admin/users/erins-org/repos', 'POST repos/erins-org/app/branch_protections']);
    expect((await w.cli(['plan', '-c', file, '--detailed-exitcode'], env)).code).toBe(0);
  });
});

describe('the admin example', () => {
  it('plans, applies, and then plans no changes (examples/admin)', async () => {
    const dir = fileURLToPath(new URL('../../examples/admin/', import.meta.url));
    w = await world(loadSeedFile(`${dir}seed.yaml`));
    const env = { CI_BOT_PASSWORD: 'a-long-initial-password', CI_HOOK_SECRET: 'hook-signing-secret', MIRROR_BOT_TOKEN: 'a-mirror-token-Hq40', REGISTRY_TOKEN: 'registry-token-Jw52', WIDGETS_DEPLOY_KEY: 'deploy-key-Ux17' };
    const file = `${dir}forgeform.yaml`;
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('Plan: 14 to create, 9 to update, 3 to delete, 1 to rename.');
    // 15, and the teams of acme: their list, and the members (developers, Owners) and repositories (developers) the file
    // declares; and acme/widgets' GET, made to find the repository, which is its settings' read too; its tag protections' list; its push mirrors' list;
    // and the Actions secret and variable lists of acme and of acme/widgets (one each: this release's lists carry the values);
    // and acme's public members: their list, which answers a site administrator every member (root, alice) on Gitea 1.26, so one
    // GET each, and acme's members (alice and bob are made public: bob must be one, or join through a team); one list of webhooks each
    // for acme and acme/widgets; and mallory's repositories (one, limit 1), since a user who owns one is kept, not pruned;
    // and the apply lock's GET (a plan says when an apply holds the server);
    // and 13 that tell the global runners from the others (Gitea's runner answer has no scope: src/kinds/runner/scopes.ts):
    // the organisations' and users' lists, acme's runners and repositories, each of the 4 users' runners (sudo) and
    // repositories, and acme/widgets' runners.
    expect(plan.stderr).toContain('47 requests.');
    const apply = await w.cli(['apply', '-c', file, '--yes'], env);
    expect(apply.code).toBe(0);
    // 70 of the configuration's (with acme/widgets' settings: its GET, a PATCH and a PUT of its topics; its tag protections' list and POST; its push mirrors' list and POST;
    // bob's PUT as a collaborator of the repository the plan creates; four Actions lists, two secret PUTs and two variable POSTs;
    // acme's public members: the 4 reads of the plan and a PUT each for alice and bob; the two webhook lists, the POST of acme's webhook and the PATCH
    // of acme/widgets'), and the create of apply's lock; then 5 reads where objects were created (duplicates made by another run at the
    // same time) and the lock's removal (its read and DELETE); and the plan's 13 reads that tell the global runners from the
    // others, with 2 more: the runners and repositories of the lock's organisation, which exists while apply holds it (an
    // organisation like any other to that check, since one the token does not own alone may hold runners): every request the sandbox received.
    expect(apply.stderr).toContain('38 write requests (94 in all).');
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes.');
    expect(plan.stdout + apply.stdout + apply.stderr + again.stdout).not.toMatch(/a-long-initial-password|hook-signing-secret|a-mirror-token-Hq40|registry-token-Jw52|deploy-key-Ux17/);
  });
});
