// Issue 27: one projected permission model. Every list whose names need access to the repository (protections'
// user and team allowlists) is judged on the access each name will have once the plan is applied, for the
// repositories and users the plan creates as for existing ones: a name the server would drop is refused at its
// line, and a name the plan gives access is written after the change that gives it (the admin example's tag
// protection waits for its team's repository). The sandbox drops such names as each release does (cited in
// src/sandbox/core/permissions.ts and src/sandbox/flavours/releases.ts).
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSeedFile, type SeedFile } from '../../src/sandbox/index.js';
import { rootAnd } from '../support/seeds.js';
import { applies, planExits, writes, world, type World } from './helpers.js';

let w: World;
afterEach(async () => w?.sandbox.close());

const seed = (flavourPrivate: boolean): SeedFile => ({
  users: rootAnd('alice', 'bob', 'carol', 'dave'),
  orgs: [{ name: 'acme', owners: ['root'], teams: [{ name: 'devs', permission: 'write', members: ['alice'], repos: [] }] }],
  repos: [{ name: 'acme/widgets', private: flavourPrivate, collaborators: { bob: 'read', carol: 'write' } }],
});

/** The flavours the defects were seen on: a Gitea before and after 1.25's readers, and a Forgejo. */
const SOME = ['gitea@1.24', 'gitea@1.25', 'forgejo@11'] as const;

describe.each(SOME)('on %s', (flavour) => {
  it('refuses an approver who reads the repository only because it is public, and a read collaborator of a public repository (the server would drop both)', async () => {
    w = await world(seed(false), { flavour });
    const file = w.config(`version: 1
repos:
  acme/widgets:
    branch_protections:
      main:
        enable_approvals_whitelist: true
        approvals_whitelist_username: [dave, bob, carol]
        merge_whitelist_usernames: [carol]
`);
    const plan = await planExits(w, file, 1);
    expect(plan.stderr).toContain('forgeform.yaml:7:40: branch protection "main" in acme/widgets: approvals_whitelist_username: user "dave" has no explicit access to acme/widgets (its permission is read)');
    expect(plan.stderr).toContain('forgeform.yaml:7:46: branch protection "main" in acme/widgets: approvals_whitelist_username: user "bob" has no explicit access to acme/widgets (its permission is read)');
    expect(plan.stderr).not.toContain('"carol"');
    expect(writes(w.sandbox)).toEqual([]);
    // What the refusal spares: the server takes the rule and drops both (carol, a write collaborator, stays).
    await w.api('POST', 'repos/acme/widgets/branch_protections', { rule_name: 'main', enable_approvals_whitelist: true, approvals_whitelist_username: ['dave', 'bob', 'carol'] });
    expect((await w.api<{ approvals_whitelist_username: string[] }>('GET', 'repos/acme/widgets/branch_protections/main')).body.approvals_whitelist_username).toEqual(['carol']);
  });

  it('takes the same read collaborator on a private repository, and converges', async () => {
    w = await world(seed(true), { flavour });
    const file = w.config(`version: 1
repos:
  acme/widgets:
    branch_protections:
      main: { enable_approvals_whitelist: true, approvals_whitelist_username: [bob] }
`);
    await planExits(w, file, 2);
    const apply = await applies(w, file);
    expect(apply.stdout + apply.stderr).not.toContain('did not take');
    await planExits(w, file, 0);
  });

  it('refuses a tag-protection user who reads the repository only because it is public', async () => {
    w = await world(seed(false), { flavour });
    const file = w.config(`version: 1
repos:
  acme/widgets:
    tag_protections:
      "v*": { whitelist_usernames: [dave, carol] }
`);
    const plan = await planExits(w, file, 1);
    expect(plan.stderr).toContain('forgeform.yaml:5:37: tag protection "v*" in acme/widgets: whitelist_usernames: user "dave" has no explicit access to acme/widgets (its permission is read)');
    expect(plan.stderr).not.toContain('"carol"');
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('judges a repository the plan creates: a user it gives no access is refused, one it makes a collaborator is written after the PUT and converges', async () => {
    w = await world(seed(true), { flavour });
    const refused = w.config(`version: 1
repos:
  acme/tools:
    create: { private: true }
    branch_protections:
      main: { enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [dave] }
`);
    const plan = await planExits(w, refused, 1);
    expect(plan.stderr).toContain('forgeform.yaml:6:90: branch protection "main" in acme/tools: push_whitelist_usernames: user "dave" has no write access to acme/tools (its permission is none)');
    expect(writes(w.sandbox)).toEqual([]);
    const file = w.config(`version: 1
repos:
  acme/tools:
    create: { private: true }
    collaborators: { dave: write }
    branch_protections:
      main: { enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [dave] }
`);
    await planExits(w, file, 2);
    await applies(w, file);
    const made = writes(w.sandbox);
    expect(made.indexOf('POST repos/acme/tools/branch_protections')).toBeGreaterThan(made.indexOf('PUT repos/acme/tools/collaborators/dave'));
    await planExits(w, file, 0);
  });

  it('judges a user the plan creates: access through a team the plan gives it and the repository, written after the team change, converges', async () => {
    w = await world(seed(true), { flavour });
    const file = w.config(`version: 1
users:
  zed: { email: zed@example.com, must_change_password: false, password: "\${ZED_PASSWORD}" }
orgs:
  acme:
    teams:
      devs: { members: [alice, zed], repositories: [widgets] }
repos:
  acme/widgets:
    tag_protections:
      "v*": { whitelist_usernames: [zed], whitelist_teams: [devs] }
`);
    const env = { ZED_PASSWORD: 'a-long-enough-password-1' };
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    const apply = await w.cli(['apply', '-c', file, '--yes'], env);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout + apply.stderr).not.toContain('did not take');
    const made = writes(w.sandbox);
    const tag = made.indexOf('POST repos/acme/widgets/tag_protections');
    expect(tag).toBeGreaterThan(made.findIndex((c) => /^PUT teams\/\d+\/repos\/acme\/widgets$/.test(c)));
    expect(tag).toBeGreaterThan(made.findIndex((c) => /^PUT teams\/\d+\/members\/zed$/.test(c)));
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it('refuses a branch protection naming a team that will not have the repository, and converges once the plan gives it', async () => {
    w = await world(seed(true), { flavour });
    const refused = w.config(`version: 1
repos:
  acme/widgets:
    branch_protections:
      main: { enable_push: true, enable_push_whitelist: true, push_whitelist_teams: [devs] }
`);
    const plan = await planExits(w, refused, 1);
    expect(plan.stderr).toContain('forgeform.yaml:5:86: branch protection "main" in acme/widgets: push_whitelist_teams: team "devs" does not have acme/widgets after this plan');
    expect(writes(w.sandbox)).toEqual([]);
    const file = w.config(`version: 1
orgs:
  acme:
    teams:
      devs: { repositories: [widgets] }
repos:
  acme/widgets:
    branch_protections:
      main: { enable_push: true, enable_push_whitelist: true, push_whitelist_teams: [devs] }
`);
    await planExits(w, file, 2);
    const apply = await applies(w, file);
    expect(apply.stdout + apply.stderr).not.toContain('did not take');
    const made = writes(w.sandbox);
    expect(made.indexOf('POST repos/acme/widgets/branch_protections')).toBeGreaterThan(made.findIndex((c) => /^PUT teams\/\d+\/repos\/acme\/widgets$/.test(c)));
    await planExits(w, file, 0);
  });
});

describe('issue assignees', () => {
  it('take a user the same plan makes a collaborator: the edit waits for the PUT and converges (an outsider is still refused)', async () => {
    w = await world({ ...seed(true), repos: [{ name: 'acme/widgets', private: true, collaborators: { bob: 'read' }, issues: [{ title: 'First', author: 'root' }] }] });
    const refused = w.config(`version: 1
repos:
  acme/widgets:
    issues:
      1: { assignees: [dave] }
`);
    const plan = await planExits(w, refused, 1);
    expect(plan.stderr).toContain('forgeform.yaml:5:12: issue "#1" in acme/widgets: assignees: user "dave" has no access to acme/widgets and cannot be assigned');
    const file = w.config(`version: 1
repos:
  acme/widgets:
    collaborators: { dave: read }
    issues:
      1: { assignees: [dave] }
`);
    await planExits(w, file, 2);
    await applies(w, file);
    const made = writes(w.sandbox);
    expect(made.findIndex((c) => c.startsWith('PATCH repos/acme/widgets/issues/1'))).toBeGreaterThan(made.indexOf('PUT repos/acme/widgets/collaborators/dave'));
    await planExits(w, file, 0);
  });
});

describe('the admin example', () => {
  it('applies with no "did not take": its tag protection waits for the team that gets the repository in the same plan', async () => {
    const ADMIN = fileURLToPath(new URL('../../examples/admin/', import.meta.url));
    w = await world(loadSeedFile(`${ADMIN}seed.yaml`));
    const env = { CI_BOT_PASSWORD: 'a-long-initial-password', CI_HOOK_SECRET: 'hook-signing-secret', MIRROR_BOT_TOKEN: 'a-mirror-token', REGISTRY_TOKEN: 'registry-token', WIDGETS_DEPLOY_KEY: 'deploy-key' };
    const file = `${ADMIN}forgeform.yaml`;
    const apply = await w.cli(['apply', '-c', file, '--yes'], env);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout + apply.stderr).not.toContain('did not take');
    const made = writes(w.sandbox);
    expect(made.indexOf('POST repos/acme/widgets/tag_protections')).toBeGreaterThan(made.findIndex((c) => /^PUT teams\/\d+\/repos\/acme\/widgets$/.test(c)));
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});
