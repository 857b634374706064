// The guards of a kind judge with facts its prepare looked up for the run (issue 20): where those
// facts are missing, a guard refuses with the reason instead of allowing (it fails closed).
import { describe, expect, it } from 'vitest';
import { guardOf } from '../support/ops-input.js';
import type { GiteaClient } from '../../src/gitea/client.js';
import { branchProtectionKind } from '../../src/kinds/branch_protection/index.js';
import { userKind } from '../../src/kinds/user/index.js';
import { requestOf, copyChangeId, copyIn, intentOf, isRenamedName, plannedFields, SERVER_SCOPE, type Change, type CurrentObject, type PlanPolicy } from '../../src/model/index.js';
import { makeScopeContext } from '../../src/plan/planner.js';

const policy: PlanPolicy = { prune: ['users'], max_deletes: 10, max_delete_fraction: 1, protected_users: [], purge_users: false };

/** A client that answers the user list and the token's own user, and counts the requests. */
function client(users: Record<string, unknown>[], self = 'root'): GiteaClient & { asked: string[] } {
  const asked: string[] = [];
  const fake = {
    asked,
    list: async (path: string) => (asked.push(path), path === 'admin/users' ? users : []),
    get: async (path: string) => (asked.push(path), path === 'user' ? { login: self } : undefined),
  };
  return fake as unknown as GiteaClient & { asked: string[] };
}

const admin = (login: string, id: number) => ({ id, login, email: `${login}@example.com`, is_admin: true, active: true });
const deleting = (key: string): Change => ({ id: `user/server:/${key}`, kind: 'user', scope: 'server:', key, action: 'delete', fields: [], precondition: { digest: 'x' }, depends_on: [], ops: [] });
const current = (key: string): CurrentObject => ({ key, id: 2, fields: { admin: true, active: true } });

describe('the user guards', () => {
  it('refuse to delete an administrator when the users were not read for this run (fail closed), naming why', () => {
    const ctx = makeScopeContext(client([]), policy);
    const why = guardOf(userKind, deleting('alice'), current('alice'), ctx, [deleting('alice')]);
    expect(why).toBe("forgeform never deletes this user: forgeform could not read the users, so it cannot tell what this would do to the site administrators and the token's own user");
  });

  it('judge the last administrator from the users prepare read, at apply too', async () => {
    const alone = makeScopeContext(client([admin('root', 1), admin('alice', 2)]), policy);
    await userKind.prepare!({ ...requestOf(userKind, SERVER_SCOPE, alone), desired: [], current: [] });
    // root is the token's own user, alice the other administrator: deleting alice leaves root.
    expect(guardOf(userKind, deleting('alice'), current('alice'), alone, [deleting('alice')])).toBeUndefined();
    expect(guardOf(userKind, deleting('root'), current('root'), alone, [deleting('root')])).toBe("forgeform never deletes this user: it is the token's own user");
    const last = makeScopeContext(client([admin('alice', 2), { id: 3, login: 'bob', email: 'b@example.com', is_admin: false }], 'bot'), policy);
    await userKind.prepare!({ ...requestOf(userKind, SERVER_SCOPE, last), desired: [], current: [] });
    expect(guardOf(userKind, deleting('alice'), current('alice'), last, [deleting('alice')])).toBe('forgeform never deletes this user: it is the last site administrator');
  });

  it('keep their facts per run: a new run has none until its own prepare', async () => {
    const c = client([admin('root', 1), admin('alice', 2)]);
    await userKind.prepare!({ ...requestOf(userKind, SERVER_SCOPE, makeScopeContext(c, policy)), desired: [], current: [] });
    const next = makeScopeContext(c, policy);
    expect(guardOf(userKind, deleting('alice'), current('alice'), next, [deleting('alice')])).toMatch(/could not read the users/);
  });
});

describe('the branch protection guard', () => {
  const rule: Change = {
    id: 'branch_protection/repo:acme/widgets/main',
    kind: 'branch_protection',
    scope: 'repo:acme/widgets',
    key: 'main',
    action: 'create',
    fields: [{ path: 'push_whitelist_usernames', after: ['alice'] }],
    precondition: { digest: null },
    depends_on: [],
    ops: [],
  };

  it('refuses a rule whose accounts were not looked up for this run (fail closed)', () => {
    const ctx = makeScopeContext(client([]), policy);
    expect(guardOf(branchProtectionKind, rule, undefined, ctx, [rule])).toBe('the users and teams it names were not looked up on the server, so forgeform cannot tell that Gitea would take the rule');
  });
});

describe('the intent of a change', () => {
  const change = (over: Partial<Change>): Change => ({ id: 'repo_label/repo:acme/widgets/bug', kind: 'repo_label', scope: 'repo:acme/widgets', key: 'bug', action: 'update', fields: [], precondition: { digest: 'x' }, depends_on: [], ops: [], ...over });

  it('gives the fields a change sets, without its context values or a rename\'s new name, and the copy a delete addresses', () => {
    const rename = change({ action: 'rename', from: 'bugs', fields: [{ path: 'name', before: 'bugs', after: 'bug' }, { path: 'color', after: 'ee0701' }, { path: 'purge', after: true, context: true }] });
    expect(intentOf(rename)).toEqual({ fields: { color: 'ee0701' }, changed: ['color'], from: 'bugs' });
    expect(intentOf(change({ action: 'delete', id: copyChangeId('repo_label/repo:acme/widgets/bug', 7) })).copy).toBe('7');
    // A name with # in it is no copy.
    expect(intentOf(change({ action: 'delete', key: 'v#2', id: 'repo_label/repo:acme/widgets/v#2' })).copy).toBeUndefined();
  });

  it('leaves out only a rename\'s name: a field called name of another change (a hook\'s) is one of its fields', () => {
    const update = change({ action: 'update', fields: [{ path: 'name', before: 'a', after: 'b' }] });
    expect(intentOf(update)).toEqual({ fields: { name: 'b' }, changed: ['name'] });
    expect(plannedFields(update)).toEqual(update.fields);
    expect(isRenamedName('rename', 'name')).toBe(true);
    expect(isRenamedName('update', 'name')).toBe(false);
  });

  it('reads a copy back from the id copyChangeId wrote, and only from it', () => {
    const own = 'repo_label/repo:acme/widgets/bug';
    expect(copyIn(copyChangeId(own, 42), own)).toBe('42');
    expect(copyIn(own, own)).toBeUndefined();
    expect(copyIn(`${own}s#3`, own)).toBeUndefined();
  });
});
