import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { calls, world, type World } from './helpers.js';

// Issue 17 item 5: a change that names an object another kind creates in the same plan waits for it,
// and a whitelisted account Gitea would drop (no write access) is a plan error, not a perpetual change.
const seed = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com' },
    { username: 'reader', email: 'reader@example.com' },
  ],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets', private: true, collaborators: { alice: 'write', reader: 'read' } }],
};

let w: World;
afterEach(async () => w?.sandbox.close());

describe('cross-kind order from what a change references', () => {
  it('creates a whitelisted user before the branch protection that names it, in one run', async () => {
    w = await world(seed);
    // zed is new; of the repositories, only its own gives it write access from the start.
    const file = w.config(`version: 1
users:
  zed:
    email: zed@example.com
    must_change_password: false
    password: \${ZED_PASSWORD}
repos:
  zed/tools:
    create: {}
    branch_protections:
      main:
        enable_push: true
        enable_push_whitelist: true
        push_whitelist_usernames: [zed]
        merge_whitelist_usernames: [zed]
`);
    const env = { ZED_PASSWORD: 'a-long-enough-password-1' };
    const plan = await w.cli(['plan', '-c', file, '--out', `${w.dir}/plan.json`], env);
    expect(plan.stderr).not.toMatch(/rror/);
    expect(plan.code).toBe(0);
    const saved = JSON.parse(readFileSync(`${w.dir}/plan.json`, 'utf8')) as { changes: { id: string; depends_on: string[] }[] };
    // The rule names the user: it waits for the user's create itself, not only for its repository's.
    expect(saved.changes.find((c) => c.id === 'branch_protection/repo:zed/tools/main')?.depends_on.sort()).toEqual(['repo/server:/zed/tools', 'user/server:/zed']);

    const apply = await w.cli(['apply', `${w.dir}/plan.json`, '--yes'], env);
    expect(apply.stderr).not.toMatch(/rror/);
    expect(apply.stdout).not.toContain('did not take');
    expect(apply.code).toBe(0);
    const writes = calls(w.sandbox).filter((c) => !c.startsWith('GET '));
    expect(writes.indexOf('POST admin/users')).toBeLessThan(writes.indexOf('POST repos/zed/tools/branch_protections'));
    const rule = (await w.api<{ push_whitelist_usernames: string[] }>('GET', 'repos/zed/tools/branch_protections/main')).body;
    expect(rule.push_whitelist_usernames).toEqual(['zed']);
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
    expect(again.stdout).toContain('No changes');
    expect(again.code).toBe(0);
  });

  it('waits for a named user the plan creates and for the collaboration that gives it access (saved plan checked again at apply), then converges', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
users:
  zed:
    email: zed@example.com
    must_change_password: false
    password: \${ZED_PASSWORD}
repos:
  acme/widgets:
    collaborators:
      zed: read
    branch_protections:
      main:
        approvals_whitelist_username: [zed]
`);
    const env = { ZED_PASSWORD: 'a-long-enough-password-1' };
    const plan = await w.cli(['plan', '-c', file, '--out', `${w.dir}/plan.json`], env);
    expect(plan.stderr).not.toMatch(/rror/);
    expect(plan.code).toBe(0);
    const saved = JSON.parse(readFileSync(`${w.dir}/plan.json`, 'utf8')) as { changes: { id: string; depends_on: string[] }[] };
    expect(saved.changes.find((c) => c.id === 'branch_protection/repo:acme/widgets/main')?.depends_on.sort()).toEqual(['collaborator/repo:acme/widgets/zed', 'user/server:/zed']);
    const apply = await w.cli(['apply', `${w.dir}/plan.json`, '--yes'], env);
    expect(apply.stderr).not.toMatch(/rror|422/);
    expect(apply.stdout).not.toContain('did not take');
    expect(apply.code).toBe(0);
    const writes = calls(w.sandbox).filter((c) => !c.startsWith('GET '));
    expect(writes.indexOf('POST admin/users')).toBeLessThan(writes.indexOf('PUT repos/acme/widgets/collaborators/zed'));
    expect(writes.indexOf('PUT repos/acme/widgets/collaborators/zed')).toBeLessThan(writes.indexOf('POST repos/acme/widgets/branch_protections'));
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
    expect(again.stdout).toContain('No changes');
    expect(again.code).toBe(0);
  });

  it('refuses an approver the plan creates and gives no access, at its line: the server would drop it (the old check let it through)', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
users:
  zed:
    email: zed@example.com
    must_change_password: false
    password: \${ZED_PASSWORD}
repos:
  acme/widgets:
    branch_protections:
      main:
        approvals_whitelist_username: [zed]
`);
    const plan = await w.cli(['plan', '-c', file], { ZED_PASSWORD: 'a-long-enough-password-1' });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('forgeform.yaml:11:40: branch protection "main" in acme/widgets: approvals_whitelist_username: user "zed" is created by this plan and has no explicit access to acme/widgets yet');
    expect(calls(w.sandbox).filter((c) => !c.startsWith('GET '))).toEqual([]);
  });

  it('refuses a whitelisted user without write access at the line that names it, with the reason', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
users:
  newbie:
    email: newbie@example.com
    must_change_password: false
    password: \${NEWBIE_PASSWORD}
repos:
  acme/widgets:
    branch_protections:
      main:
        enable_push: true
        enable_push_whitelist: true
        push_whitelist_usernames: [alice, reader]
        merge_whitelist_usernames: [newbie]
`);
    const plan = await w.cli(['plan', '-c', file], { NEWBIE_PASSWORD: 'a-long-enough-password-1' });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(
      'forgeform.yaml:13:43: branch protection "main" in acme/widgets: push_whitelist_usernames: user "reader" has no write access to acme/widgets (its permission is read): Gitea keeps only users who can write the code in this list and drops it silently, so every plan would show this change again',
    );
    expect(plan.stderr).toContain('forgeform.yaml:14:37: branch protection "main" in acme/widgets: merge_whitelist_usernames: user "newbie" is created by this plan and has no write access to acme/widgets');
    // one permission lookup per name the rule adds (alice and reader), none for the user being created
    expect(calls(w.sandbox).filter((c) => c.includes('/collaborators/')).sort()).toEqual(['GET repos/acme/widgets/collaborators/alice/permission', 'GET repos/acme/widgets/collaborators/reader/permission']);
    expect(plan.stderr).not.toMatch(/"alice"/);
  });
});
