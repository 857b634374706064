import { afterEach, describe, expect, it } from 'vitest';
import { calls, world, writes, type World } from './helpers.js';

type Rule = Record<string, unknown> & { rule_name: string };

const seed = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com' },
    { username: 'bob', email: 'bob@example.com' },
  ],
  orgs: [{ name: 'acme', owners: ['root'], members: ['alice', 'bob'], teams: [{ name: 'devs', permission: 'write', members: ['alice', 'bob'] }] }],
  repos: [
    { name: 'acme/widgets', branch_protections: [{ rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['alice'], required_approvals: 1 }, { rule_name: 'legacy' }] },
    { name: 'acme/gadgets' },
    { name: 'acme/tools', branch_protections: [{ rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['alice'], required_approvals: 3 }] },
    { name: 'acme/attic', archived: true },
  ],
};

let w: World;
afterEach(async () => w?.sandbox.close());

async function rules(w: World, repo: string): Promise<Rule[]> {
  return (await w.api<Rule[]>('GET', `repos/${repo}/branch_protections`)).body;
}

describe('branch protections end to end', () => {
  it('applies a glob to every repository, merges exact entries over it, handles release/* and prunes', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
policy:
  prune: [branch_protections]
repos:
  "acme/*":
    branch_protections:
      main:
        enable_push: true
        enable_push_whitelist: true
        push_whitelist_usernames: [bob, alice]
        required_approvals: 1
        enable_status_check: true
        status_check_contexts: [ci/build]
  acme/widgets:
    branch_protections:
      main: { required_approvals: 2 }
      "release/*": { enable_push: false, required_approvals: 2, protected_file_patterns: "*.lock" }
`);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    const out = plan.stdout;
    expect(out).toMatch(/# repo:acme\/gadgets\n\s+\+ branch protection "main"/);
    expect(out).toMatch(/# repo:acme\/tools\n\s+~ branch protection "main"/);
    expect(out).toMatch(/~ push_whitelist_usernames\s*: \["alice"\] → \["alice", "bob"\]/);
    expect(out).toMatch(/~ required_approvals\s*: 3 → 1/);
    expect(out).toMatch(/# repo:acme\/widgets[\s\S]*~ required_approvals\s*: 1 → 2/);
    expect(out).toContain('+ branch protection "release/*"');
    expect(out).toContain('- branch protection "legacy"');
    // the archived repository's rule cannot be written: withheld, with a warning
    expect(out).toContain('Warning: 1 branch protection change(s) withheld: acme/attic is archived');
    expect(out).toContain('Plan: 2 to create, 2 to update, 1 to delete, 0 to rename.');
    // one list call per repository, one repo listing for the glob, no per-rule GET
    const reads = calls(w.sandbox);
    for (const r of ['widgets', 'gadgets', 'tools', 'attic']) expect(reads.filter((c) => c === `GET repos/acme/${r}/branch_protections`)).toHaveLength(1);
    expect(reads.filter((c) => /branch_protections\/./.test(c))).toEqual([]);
    expect(reads).toContain('GET orgs/acme/repos');

    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code).toBe(0);
    const writes = calls(w.sandbox).filter((c) => !c.startsWith('GET '));
    expect(writes.sort()).toEqual([
      'DELETE repos/acme/widgets/branch_protections/legacy',
      'PATCH repos/acme/tools/branch_protections/main',
      'PATCH repos/acme/widgets/branch_protections/main',
      'POST repos/acme/gadgets/branch_protections',
      'POST repos/acme/widgets/branch_protections',
    ]);
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    const widgets = await rules(w, 'acme/widgets');
    expect(widgets.map((r) => r.rule_name).sort()).toEqual(['main', 'release/*']);
    const release = widgets.find((r) => r.rule_name === 'release/*')!;
    expect(release).toMatchObject({ enable_push: false, required_approvals: 2, protected_file_patterns: '*.lock', branch_name: '' });
    expect((await rules(w, 'acme/gadgets'))[0]).toMatchObject({ enable_push: true, enable_push_whitelist: true, status_check_contexts: ['ci/build'] });

    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
  });

  it('refuses a saved plan whole when one change can no longer be made (its repository archived since), before any write, and exits 1', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
repos:
  acme/gadgets:
    branch_protections:
      main: { enable_push: true }
  acme/widgets:
    branch_protections:
      develop: { enable_push: false }
  acme/tools:
    branch_protections:
      main: { required_approvals: 0 }
`);
    // The repository is archived before the saved plan is applied: its rule cannot be created any more.
    const planFile = `${w.dir}/plan.json`;
    expect((await w.cli(['plan', '-c', file, '--out', planFile])).code).toBe(0);
    expect((await w.api('PATCH', 'repos/acme/gadgets', { archived: true })).status).toBe(200);
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', planFile]);
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain('✗ + branch protection "main" in repo:acme/gadgets: acme/gadgets is archived: Gitea refuses branch-protection writes (423)');
    expect(apply.stdout).not.toContain('✓');
    expect(apply.stderr).toContain('Refusing the plan file: 1 of 3 changes no longer holds on the server as it is now (✗ above), so nothing was changed.');
    expect(writes(w.sandbox)).toEqual([]);
    expect((await rules(w, 'acme/widgets')).map((r) => r.rule_name)).not.toContain('develop');
  });

  it('refuses a saved plan whose rule names a user deleted since the plan, before any write (issue 20: the account check runs at apply too)', async () => {
    // leaving can write acme/gadgets (the plan checks that too: Gitea drops a pusher without write access).
    const repos = seed.repos.map((r) => (r.name === 'acme/gadgets' ? { ...r, collaborators: { leaving: 'write' } } : r));
    w = await world({ ...seed, repos, users: [...seed.users, { username: 'leaving', email: 'leaving@example.com' }] });
    const file = w.config(`version: 1
repos:
  acme/gadgets:
    branch_protections:
      main: { enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [leaving] }
  acme/widgets:
    branch_protections:
      develop: { enable_push: false }
`);
    const planFile = `${w.dir}/plan.json`;
    expect((await w.cli(['plan', '-c', file, '--out', planFile])).code).toBe(0);
    expect((await w.api('DELETE', 'admin/users/leaving')).status).toBe(204);
    const apply = await w.cli(['apply', planFile]);
    expect(apply.code).toBe(3);
    expect(apply.stderr).toContain('Refusing the plan: branch protection "main" in acme/gadgets: push_whitelist_usernames: user "leaving" does not exist on the server (Gitea would refuse the whole rule). No flag lifts this: plan again.');
    expect(writes(w.sandbox)).toEqual(['DELETE admin/users/leaving']);
    expect(await rules(w, 'acme/gadgets')).toEqual([]);
    expect((await rules(w, 'acme/widgets')).map((r) => r.rule_name)).not.toContain('develop');
  });

  it('refuses flags that Gitea would drop, naming the config place, before any request', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
repos:
  acme/widgets:
    branch_protections:
      hotfix:
        enable_push_whitelist: true
`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/forgeform\.yaml:6:9: branch protection "hotfix" in acme\/widgets: enable_push_whitelist: true has no effect unless enable_push is true/);
    expect(plan.stderr).toContain('nothing was changed');
  });

  it('does not touch rules outside policy.prune', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
repos:
  acme/widgets:
    branch_protections:
      main: { required_approvals: 1 }
`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.stdout).toContain('No changes.');
    // Not deleted: kept, and the plan says so (issue 27).
    expect(plan.stdout).not.toMatch(/- branch protection "legacy"/);
    expect(plan.stdout).toContain('Kept: 1 branch protection in acme/widgets is not declared: kept; add branch_protections to policy.prune to delete it ("legacy")');
  });
});
