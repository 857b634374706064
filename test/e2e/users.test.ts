import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import type { ApiUser } from '../support/api-types.js';
import { bodyOf, calls, world, type World, writes } from './helpers.js';

const KEY_OLD = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAII8vywx2sI3cqKD7ZSC0zl8u/dy3KXHSkqwT7tg5me5Y alice@old';
const KEY_NEW = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINqTQkNGARZ35lWV7p0/JmhtEM5fyqkOTOKq7lBVaSLl alice@laptop';
const CAROL_PASSWORD = 'carol-initial-password-42';

const seed: SeedFile = {
  badges: ['early', 'maintainer', 'helper'],
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com', full_name: 'Alice', keys: [{ title: 'old', key: KEY_OLD }], badges: ['early', 'helper'] },
    { username: 'bob-old', email: 'bob@example.com', full_name: 'Bob' },
    { username: 'keeper', email: 'keeper@example.com' },
    { username: 'mallory', email: 'mallory@example.com' },
  ],
};

const main = `version: 1
policy:
  badges: [maintainer]                # on the server (seed), carried by no user yet: no API lists badges
users:
  alice:
    email: ALICE@example.com          # a change of case only: Gitea treats it as no change
    full_name: Alice Liddell
    badges: [early, maintainer]
    ssh_keys:
      - { title: laptop, key: "${KEY_NEW}" }
    max_repo_creation: 5
  bob:
    previously: [bob-old]
    email: bob@example.com
    visibility: private
  carol:
    email: carol@example.com
    full_name: Carol
    password: \${CAROL_PASSWORD}
    must_change_password: false
    admin: true
    allow_git_hook: true
`;

let w: World;
afterEach(async () => w?.sandbox.close());

async function users(w: World): Promise<ApiUser[]> {
  return (await w.api<ApiUser[]>('GET', 'admin/users?limit=50')).body;
}

describe('users end to end', () => {
  it('creates, edits and renames with one request per change; a second plan is empty; nothing unknown is sent', async () => {
    w = await world(seed);
    const bobId = (await users(w)).find((u) => u.login === 'bob-old')!.id;
    w.sandbox.clearRequests();
    const file = w.config(main);
    const env = { CAROL_PASSWORD };

    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
    expect(plan.code).toBe(2);
    const out = plan.stdout;
    expect(out).toContain('# server');
    expect(out).toMatch(/> user "bob-old" → "bob"\n\s+~ visibility: "public" → "private"/);
    expect(out).toMatch(/\+ user "carol"[\s\S]*\+ password\s+= \(sensitive, from \$\{CAROL_PASSWORD\}\)\s+\(write-only/);
    expect(out).toMatch(/~ user "alice"\n\s+~ full_name\s*: "Alice" → "Alice Liddell"/);
    expect(out).toMatch(/~ badges\s*: \["early", "helper"\] → \["early", "maintainer"\]/);
    expect(out).toMatch(/\+ max_repo_creation = 5\s+\(write-only: sent, never read back\)/);
    expect(out).toContain('# remove SSH key "old" (ssh-ed25519 SHA256:');
    expect(out).toContain('# add SSH key "laptop" (ssh-ed25519 SHA256:');
    expect(out).not.toMatch(/~ email/);
    expect(out).toContain('Plan: 1 to create, 1 to update, 0 to delete, 1 to rename.');
    // one paged user list; badges and keys only for the user whose config names them; not the
    // token's own user (GET user): no guard needs it when nothing is pruned, demoted or deactivated
    expect(calls(w.sandbox).sort()).toEqual(['GET /api/forgejo/v1/version', 'GET admin/users', 'GET admin/users/alice/badges', 'GET users/alice/keys', 'GET version']);
    expect(w.sandbox.requests().find((r) => r.path.endsWith('admin/users'))?.query).toMatchObject({ page: '1', limit: '50' });

    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes'], env);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('Apply complete! 1 created, 1 updated, 0 deleted, 1 renamed.');
    expect(writes(w.sandbox).sort()).toEqual(
      [
        'POST admin/users/bob-old/rename',
        'PATCH admin/users/bob',
        'POST admin/users',
        'PATCH admin/users/carol',
        'DELETE admin/users/alice/badges',
        'POST admin/users/alice/badges',
        'DELETE admin/users/alice/keys/1',
        'POST admin/users/alice/keys',
        'PATCH admin/users/alice',
      ].sort(),
    );
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    // user names are unique on the server: after creating carol, apply does not read the users again to look for duplicates
    expect(calls(w.sandbox).filter((c) => c === 'GET admin/users')).toHaveLength(1);
    // every edit carries what Gitea requires (login_name, source_id) and only the changed fields besides
    expect(bodyOf(w.sandbox, 'PATCH', 'admin/users/alice')).toEqual({ login_name: 'alice', source_id: 0, full_name: 'Alice Liddell', max_repo_creation: 5 });
    expect(bodyOf(w.sandbox, 'PATCH', 'admin/users/bob')).toEqual({ login_name: 'bob', source_id: 0, visibility: 'private' });
    expect(bodyOf(w.sandbox, 'DELETE', 'admin/users/alice/badges')).toEqual({ badge_slugs: ['helper'] });
    expect(bodyOf(w.sandbox, 'POST', 'admin/users/alice/badges')).toEqual({ badge_slugs: ['maintainer'] });
    expect(bodyOf(w.sandbox, 'POST', 'admin/users/alice/keys')).toEqual({ title: 'laptop', key: KEY_NEW });
    // the create sends the password; admin and the write-only flags need the PATCH after it
    expect(bodyOf(w.sandbox, 'POST', 'admin/users')).toMatchObject({ username: 'carol', password: CAROL_PASSWORD, must_change_password: false });
    expect(bodyOf(w.sandbox, 'PATCH', 'admin/users/carol')).toMatchObject({ admin: true, allow_git_hook: true });
    expect(apply.stdout + apply.stderr + plan.stdout + plan.stderr).not.toContain(CAROL_PASSWORD);

    // the rename kept the user's id
    const after = await users(w);
    expect(after.find((u) => u.login === 'bob')?.id).toBe(bobId);
    expect(after.map((u) => u.login)).not.toContain('bob-old');
    const data = w.sandbox.state.data;
    expect(data.users.find((u) => u.name === 'alice')?.maxRepoCreation).toBe(5);
    expect(data.users.find((u) => u.name === 'carol')).toMatchObject({ isAdmin: true, mustChangePassword: false, allowGitHook: true });
    // carol can use the API at once with her password (must_change_password: false)
    const me = await fetch(`${w.sandbox.url}/api/v1/user`, { headers: { authorization: `Basic ${Buffer.from(`carol:${CAROL_PASSWORD}`).toString('base64')}` } });
    expect(me.status).toBe(200);

    // write-only fields (max_repo_creation, allow_git_hook, must_change_password, password) cause no perpetual diff
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });

  it('deletes no user when users is not in policy.prune', async () => {
    w = await world(seed);
    const apply = await w.cli(['apply', '-c', w.config('version: 1\npolicy: { prune: [labels, hooks] }\nusers:\n  alice: { full_name: Alice L }\n'), '--yes']);
    expect(apply.code).toBe(0);
    expect(writes(w.sandbox)).toEqual(['PATCH admin/users/alice']);
    expect((await users(w)).map((u) => u.login).sort()).toEqual(['alice', 'bob-old', 'keeper', 'mallory', 'root']);
  });

  it('prunes undeclared users, but never the token’s own user nor a protected one, and says which guard kept them', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
policy:
  prune: [users]
  protected_users: [keeper]
users:
  alice: {}
`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.stdout).toContain(`Warning: user "root" is not deleted: it is the token's own user`);
    expect(plan.stdout).toContain('Warning: user "keeper" is not deleted: it is listed in policy.protected_users');
    expect(plan.stdout).toContain('- user "bob-old"');
    expect(plan.stdout).toContain('- user "mallory"');
    expect(plan.stdout).toContain('Plan: 0 to create, 0 to update, 2 to delete, 0 to rename.');
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code).toBe(0);
    expect(writes(w.sandbox).filter((c) => c.startsWith('DELETE')).sort()).toEqual(['DELETE admin/users/bob-old', 'DELETE admin/users/mallory']);
    expect((await users(w)).map((u) => u.login).sort()).toEqual(['alice', 'keeper', 'root']);
  });

  it('refuses to demote the token’s own user or the last site administrator, naming the guard and the place', async () => {
    w = await world({ users: [{ username: 'root', admin: true }, { username: 'boss', admin: true }, { username: 'alice' }] });
    const file = w.config(`version: 1
users:
  root:
    admin: false
  boss:
    admin: false
`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${file}:4:5: user "root": forgeform never demotes this user: it is the token's own user`);
    expect(plan.stderr).toContain(`${file}:6:5: user "boss": forgeform never demotes this user: it is the last site administrator`);
    expect(writes(w.sandbox)).toEqual([]);
    // demoting one of two administrators is fine
    const ok = await w.cli(['apply', '-c', w.config('version: 1\nusers:\n  boss: { admin: false }\n'), '--yes']);
    expect(ok.code).toBe(0);
    expect((await users(w)).find((u) => u.login === 'boss')?.is_admin).toBe(false);
  });

  it('keeps a user who owns a repository, saying why, when the plan is made; purge_users deletes it with ?purge=true', async () => {
    w = await world({ users: [{ username: 'root', admin: true }, { username: 'mallory' }], repos: [{ name: 'mallory/stuff' }] });
    const config = (purge: boolean) => `version: 1\npolicy: { prune: [users], purge_users: ${purge} }\nusers: {}\n`;
    // Issue 27: Gitea refuses to delete a user who owns repositories (services/user/user.go DeleteUser, 422):
    // the plan knows it (one GET of the user's repositories) and keeps the user instead of failing at apply.
    const kept = await w.cli(['apply', '-c', w.config(config(false)), '--yes']);
    expect(kept.code, kept.stdout + kept.stderr).toBe(0);
    expect(kept.stdout).toContain('Warning: user "mallory" is not deleted: it owns repository mallory/stuff, and Gitea refuses to delete a user who owns repositories (422 "user still has ownership of repositories"): move or delete them first, or set policy.purge_users: true to delete it with them');
    expect(writes(w.sandbox).filter((c) => c.startsWith('DELETE /api/v1/admin/users'))).toEqual([]);
    w.sandbox.clearRequests();
    const purged = await w.cli(['apply', '-c', w.config(config(true)), '--yes']);
    expect(purged.stdout).toContain('purged (policy.purge_users)');
    expect(purged.code).toBe(0);
    expect(w.sandbox.requests().find((r) => r.method === 'DELETE')).toMatchObject({ path: '/api/v1/admin/users/mallory', query: { purge: 'true' }, status: 204 });
    expect((await users(w)).map((u) => u.login)).toEqual(['root']);
  });

  it('shows the server’s refusal when a user a saved plan deletes came to own a repository since', async () => {
    w = await world({ users: [{ username: 'root', admin: true }, { username: 'mallory' }] });
    const saved = `${w.dir}/prune.plan.json`;
    const plan = await w.cli(['plan', '-c', w.config('version: 1\npolicy: { prune: [users] }\nusers: {}\n'), '--out', saved]);
    expect(plan.stdout).toContain('- user "mallory"');
    expect((await w.api('POST', 'admin/users/mallory/repos', { name: 'stuff' })).status).toBe(201);
    const refused = await w.cli(['apply', saved]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/✗ - user "mallory" in server: Gitea refused to delete user "mallory": move or delete what it owns first, or set policy.purge_users: true .*422 Unprocessable Entity: user still has ownership of repositories/);
    expect(refused.stderr).not.toMatch(/unexpected error/);
  });

  it('--sync-write-only sends the write-only fields to every declared user; without it they ride along with other edits only', async () => {
    w = await world(seed);
    const file = w.config('version: 1\nusers:\n  alice: { max_repo_creation: 3, allow_create_organization: false }\n  keeper: { max_repo_creation: 3 }\n');
    const quiet = await w.cli(['plan', '-c', file]);
    expect(quiet.stdout).toContain('No changes.');
    const plan = await w.cli(['plan', '-c', file, '--sync-write-only']);
    expect(plan.stdout).toMatch(/~ user "alice"\n\s+\+ max_repo_creation\s+= 3\s+\(write-only/);
    expect(plan.stdout).toContain('Plan: 0 to create, 2 to update, 0 to delete, 0 to rename.');
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes', '--sync-write-only']);
    expect(apply.code).toBe(0);
    expect(bodyOf(w.sandbox, 'PATCH', 'admin/users/alice')).toEqual({ login_name: 'alice', source_id: 0, max_repo_creation: 3, allow_create_organization: false });
    expect(bodyOf(w.sandbox, 'PATCH', 'admin/users/keeper')).toEqual({ login_name: 'keeper', source_id: 0, max_repo_creation: 3 });
    expect(w.sandbox.state.data.users.filter((u) => ['alice', 'keeper'].includes(u.name)).map((u) => u.maxRepoCreation)).toEqual([3, 3]);
  });

  it('keeps a password out of every output and of the plan file; --rotate-secrets sends it again', async () => {
    w = await world(seed);
    const file = w.config('version: 1\nusers:\n  carol: { email: carol@example.com, password: "${CAROL_PASSWORD}" }\n');
    const planFile = `${w.dir}/plan.json`;
    const plan = await w.cli(['plan', '-c', file, '--out', planFile], { CAROL_PASSWORD });
    const json = await w.cli(['plan', '-c', file, '--format', 'json'], { CAROL_PASSWORD });
    const saved = readFileSync(planFile, 'utf8');
    expect(plan.stdout + plan.stderr + json.stdout + json.stderr + saved).not.toContain(CAROL_PASSWORD);
    expect(JSON.parse(saved).changes[0].ops[0].body.password).toEqual({ $env: '${CAROL_PASSWORD}' });
    expect(plan.stdout).toContain('must_change_password is not written: Gitea creates the user with must_change_password: true');
    const apply = await w.cli(['apply', planFile], { CAROL_PASSWORD });
    expect(apply.code).toBe(0);
    expect(bodyOf(w.sandbox, 'POST', 'admin/users')).toMatchObject({ username: 'carol', password: CAROL_PASSWORD });
    // Gitea's default: the new user must change its password before using the API
    expect(w.sandbox.state.data.users.find((u) => u.name === 'carol')?.mustChangePassword).toBe(true);
    expect((await w.cli(['plan', '-c', file], { CAROL_PASSWORD })).stdout).toContain('No changes.');

    w.sandbox.clearRequests();
    const rotate = await w.cli(['apply', '-c', file, '--yes', '--rotate-secrets'], { CAROL_PASSWORD: 'a-brand-new-password' });
    expect(rotate.code).toBe(0);
    expect(rotate.stdout).toMatch(/~ user "carol"\n\s+\+ password = \(sensitive, from \$\{CAROL_PASSWORD\}\)/);
    expect(bodyOf(w.sandbox, 'PATCH', 'admin/users/carol')).toEqual({ login_name: 'carol', source_id: 0, password: 'a-brand-new-password' });

    const literal = await w.cli(['plan', '-c', w.config('version: 1\nusers:\n  dave: { email: d@example.com, password: hunter2-in-the-repo }\n')]);
    expect(literal.code).toBe(1);
    expect(literal.stderr).toMatch(/forgeform\.yaml:3:\d+: password is a secret and must come from an environment variable/);
    expect(literal.stderr).not.toContain('hunter2-in-the-repo');
  });

  it('names the config place of a user that cannot be created', async () => {
    w = await world(seed);
    const file = w.config('version: 1\nusers:\n  Alice: { full_name: A }\n  dave: { full_name: Dave }\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${file}:3:3: user "Alice": the server has a user "alice" and user names are case-insensitive: write "alice"`);
    expect(plan.stderr).toContain(`${file}:4:3: user "dave": a new user needs email`);
    expect(plan.stderr).toContain(`${file}:4:3: user "dave": a new local user needs a password`);
  });

  it('--target user:NAME plans that user only, and prunes nothing else', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
policy: { prune: [users] }
users:
  alice: { full_name: Alice L }
  keeper: { full_name: Keeper K }
`);
    const plan = await w.cli(['plan', '-c', file, '--target', 'user:alice']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('~ user "alice"');
    expect(plan.stdout).not.toMatch(/keeper|mallory|bob-old/);
    expect(plan.stdout).toContain('Plan: 0 to create, 1 to update, 0 to delete, 0 to rename.');
  });

  it('reads many users with one paged list, the pages at once', async () => {
    const many = Array.from({ length: 120 }, (_, i) => ({ username: `user${String(i).padStart(3, '0')}` }));
    w = await world({ users: [{ username: 'root', admin: true }, ...many] });
    const file = w.config(`version: 1\nusers:\n${many.map((u) => `  ${u.username}: { email: ${u.username}@example.com }`).join('\n')}\n`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.stdout).toContain('No changes.');
    const lists = w.sandbox.requests().filter((r) => r.path === '/api/v1/admin/users');
    expect(lists.map((r) => r.query.page).sort()).toEqual(['1', '2', '3']);
    expect(calls(w.sandbox).filter((c) => !c.startsWith('GET admin/users') && c !== 'GET user')).toEqual(['GET version', 'GET /api/forgejo/v1/version']);
  });

  it('export writes the users without passwords, and planning it shows no changes', async () => {
    w = await world(seed);
    const exported = `${w.dir}/users.yaml`;
    const r = await w.cli(['export', '--include', 'users', '-o', exported]);
    expect(r.code).toBe(0);
    const text = readFileSync(exported, 'utf8');
    expect(text).toMatch(/^users:\n {2}alice:\n {4}email: alice@example.com\n {4}full_name: Alice\n/m);
    expect(text).not.toMatch(/password/);
    const plan = await w.cli(['plan', '-c', exported, '--detailed-exitcode']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('No changes.');
  });

  it('the sandbox, like Gitea, rejects an edit body without login_name', async () => {
    w = await world(seed);
    const r = await w.api<{ message: string }>('PATCH', 'admin/users/alice', { full_name: 'x' });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('[LoginName]: Required');
  });
  it('refuses at plan time an SSH key whose title a key the user keeps has, or another declared key has (the server answers 422 "Key title has been used")', async () => {
    w = await world(seed);
    const kept = w.config(`version: 1
users:
  alice:
    ssh_keys:
      - { title: old, key: "${KEY_OLD}" }
      - { title: old, key: "${KEY_NEW}" }
`);
    const plan = await w.cli(['plan', '-c', kept]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/:6:\d+: .*title "old" is also the title of ssh_keys\[0\]/);
    const serverKey = w.config(`version: 1
users:
  alice:
    ssh_keys:
      - { title: laptop, key: "${KEY_OLD}" }
      - { title: old, key: "${KEY_NEW}" }
`);
    const again = await w.cli(['plan', '-c', serverKey]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/:6:\d+: .*title "old" is also the title of the key ssh-ed25519 SHA256:\S+ the user keeps/);
    expect(writes(w.sandbox)).toEqual([]);
  });
});
