/**
 * The lookup tables beside the state (core/table-index.ts) must never answer from a stale entry:
 * every rename, delete, cascade and state-file reload below is followed by the lookups it affects,
 * through the API (what a client sees) — a stale index would find a gone row, or miss a moved one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TableIndex } from '../../src/sandbox/core/table-index.js';
import { ADMIN_TOKEN, apiError, boot, SEED, type Harness } from './helpers.js';

let h: Harness | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await h?.sb.close();
  h = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const newUser = (username: string, email = `${username}@example.com`) => ({ body: { username, email, password: 'long-enough-1', must_change_password: false } });

describe('index maintenance: renames', () => {
  it('a renamed user is found by the new name only; the old name is free again', async () => {
    h = await boot();
    expect((await h.call('POST', 'admin/users/carol/rename', { body: { new_username: 'caroline' } })).status).toBe(204);
    expect((await h.call<{ login: string }>('PATCH', 'admin/users/caroline', { body: { login_name: 'caroline', full_name: 'Caroline' } })).json.login).toBe('caroline');
    // the old name is only a redirect now: a new account may take it
    expect((await h.call('POST', 'admin/users', newUser('carol', 'carol2@example.com'))).status).toBe(201);
    expect((await h.call<{ login: string; full_name: string }>('PATCH', 'admin/users/carol', { body: { login_name: 'carol', location: 'x' } })).json).toMatchObject({ login: 'carol', full_name: '' });
    // the renamed user's token still authenticates, as the new name
    expect((await h.call<{ login: string }>('GET', 'user', { token: 'carol-token' })).json.login).toBe('caroline');
  });

  it('the user list (sorted once per change of the table) follows renames, creates and deletes', async () => {
    h = await boot();
    const names = async (): Promise<string[]> => (await h!.call<{ login: string }[]>('GET', 'admin/users?limit=50')).json.map((u) => u.login);
    expect(await names()).toEqual(['alice', 'bob', 'carol', 'mia', 'olga', 'rita', 'root']);
    expect((await h.call('POST', 'admin/users/rita/rename', { body: { new_username: 'aaron' } })).status).toBe(204);
    expect(await names()).toEqual(['aaron', 'alice', 'bob', 'carol', 'mia', 'olga', 'root']);
    expect((await h.call('POST', 'admin/users', newUser('zed'))).status).toBe(201);
    expect((await h.call('DELETE', 'admin/users/carol')).status).toBe(204);
    expect(await names()).toEqual(['aaron', 'alice', 'bob', 'mia', 'olga', 'root', 'zed']);
  });

  it('a case-only rename keeps the user found under any case', async () => {
    h = await boot();
    expect((await h.call('POST', 'admin/users/carol/rename', { body: { new_username: 'CAROL' } })).status).toBe(204);
    expect((await h.call<{ login: string }>('PATCH', 'admin/users/carol', { body: { login_name: 'carol', location: 'x' } })).json.login).toBe('CAROL');
    expect((await h.call('POST', 'admin/users', newUser('Carol', 'c3@example.com'))).json).toEqual(apiError(h, 'user already exists [name: Carol]'));
  });

  it('a changed e-mail frees the old address and takes the new one', async () => {
    h = await boot();
    expect((await h.call('PATCH', 'admin/users/alice', { body: { login_name: 'alice', email: 'alice@new.example' } })).status).toBe(200);
    expect((await h.call('POST', 'admin/users', newUser('anna', 'alice@new.example'))).json).toEqual(apiError(h, 'e-mail already in use [email: alice@new.example]'));
    expect((await h.call('POST', 'admin/users', newUser('anna', 'ALICE@example.com'))).status).toBe(201);
  });

  it('a renamed repository is found by the new name only; the old name is free again', async () => {
    h = await boot();
    expect((await h.call('PATCH', 'repos/acme/gadgets', { body: { name: 'gizmos' } })).status).toBe(200);
    expect((await h.call<{ full_name: string }>('GET', 'repos/acme/gizmos')).json.full_name).toBe('acme/gizmos');
    expect((await h.call('GET', 'repos/acme/gadgets')).status).toBe(404);
    expect((await h.call('POST', 'admin/users/acme/repos', { body: { name: 'gadgets' } })).status).toBe(201);
    const names = (await h.call<{ name: string }[]>('GET', 'orgs/acme/repos')).json.map((r) => r.name);
    expect(names).toContain('gizmos');
    expect(names).toContain('gadgets');
  });
});

describe('index maintenance: deletes and cascades', () => {
  it('a deleted label is gone from the list, by id and from its issues', async () => {
    h = await boot();
    const labels = (await h.call<{ id: number; name: string }[]>('GET', 'repos/acme/widgets/labels')).json;
    const bug = labels.find((l) => l.name === 'bug')!;
    expect((await h.call('DELETE', `repos/acme/widgets/labels/${bug.id}`)).status).toBe(204);
    expect((await h.call('GET', `repos/acme/widgets/labels/${bug.id}`)).status).toBe(404);
    expect((await h.call<{ name: string }[]>('GET', 'repos/acme/widgets/labels')).json.map((l) => l.name)).toEqual(['feature']);
    expect((await h.call<{ name: string }[]>('GET', 'repos/acme/widgets/issues/1/labels')).json).toEqual([]);
    // a new label is listed beside the remaining one
    const again = (await h.call<{ id: number }>('POST', 'repos/acme/widgets/labels', { body: { name: 'bug', color: '#00ff00' } })).json;
    expect((await h.call<{ id: number }[]>('GET', 'repos/acme/widgets/labels')).json.map((l) => l.id)).toContain(again.id);
    expect((await h.call<{ name: string }>('GET', `repos/acme/widgets/labels/${again.id}`)).json.name).toBe('bug');
  });

  it('a deleted protection is gone from the list and may be created again', async () => {
    h = await boot();
    expect((await h.call('POST', 'repos/acme/widgets/branch_protections', { body: { rule_name: 'main' } })).status).toBe(201);
    expect((await h.call('POST', 'repos/acme/widgets/branch_protections', { body: { rule_name: 'dev' } })).status).toBe(201);
    expect((await h.call('DELETE', 'repos/acme/widgets/branch_protections/main')).status).toBe(204);
    expect((await h.call<{ rule_name: string }[]>('GET', 'repos/acme/widgets/branch_protections')).json.map((p) => p.rule_name)).toEqual(['dev']);
    expect((await h.call('GET', 'repos/acme/widgets/branch_protections/main')).status).toBe(404);
    expect((await h.call('POST', 'repos/acme/widgets/branch_protections', { body: { rule_name: 'main' } })).status).toBe(201);
  });

  it('deleting a user frees the name and the address and revokes the tokens', async () => {
    h = await boot();
    expect((await h.call('DELETE', 'admin/users/carol')).status).toBe(204);
    expect((await h.call('GET', 'user', { token: 'carol-token' })).status).toBe(401);
    expect((await h.call('POST', 'admin/users', newUser('carol', 'carol@example.com'))).status).toBe(201);
  });

  it('purging a user cascades to their repositories, whose names are free again', async () => {
    h = await boot();
    expect((await h.call('DELETE', 'admin/users/alice?purge=true')).status).toBe(204);
    expect((await h.call('GET', 'repos/alice/personal')).status).toBe(404);
    expect((await h.call('POST', 'admin/users', newUser('alice'))).status).toBe(201);
    expect((await h.call('POST', 'admin/users/alice/repos', { body: { name: 'personal' } })).status).toBe(201);
    expect((await h.call<{ name: string }[]>('GET', 'repos/alice/personal/labels')).json).toEqual([]);
    expect((await h.call<unknown[]>('GET', 'repos/alice/personal/branch_protections')).json).toEqual([]);
  });

  it('a protection lists only readers that still exist after a user is deleted', async () => {
    h = await boot();
    expect((await h.call('POST', 'repos/alice/personal/branch_protections', { body: { rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['bob', 'rita'] } })).status).toBe(201);
    expect((await h.call('DELETE', 'admin/users/rita?purge=true')).status).toBe(204);
    const rule = (await h.call<{ push_whitelist_usernames: string[] }>('GET', 'repos/alice/personal/branch_protections/main')).json;
    expect(rule.push_whitelist_usernames).toEqual(['bob']);
  });
});

describe('index maintenance: the state file', () => {
  it('a reloaded state answers the renames and deletes made before it was saved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ff-indexes-'));
    dirs.push(dir);
    const statePath = join(dir, 'state.json');
    h = await boot(SEED, { statePath });
    expect((await h.call('POST', 'admin/users/carol/rename', { body: { new_username: 'caroline' } })).status).toBe(204);
    expect((await h.call('PATCH', 'repos/acme/gadgets', { body: { name: 'gizmos' } })).status).toBe(200);
    const bug = (await h.call<{ id: number; name: string }[]>('GET', 'repos/acme/widgets/labels')).json.find((l) => l.name === 'bug')!;
    expect((await h.call('DELETE', `repos/acme/widgets/labels/${bug.id}`)).status).toBe(204);
    await h.sb.close();

    h = await boot(undefined, { statePath });
    expect((await h.call<{ login: string }>('GET', 'user', { token: 'carol-token' })).json.login).toBe('caroline');
    expect((await h.call('GET', 'repos/acme/gizmos')).status).toBe(200);
    expect((await h.call('GET', 'repos/acme/gadgets')).status).toBe(404);
    expect((await h.call('GET', `repos/acme/widgets/labels/${bug.id}`)).status).toBe(404);
    expect((await h.call<{ name: string }[]>('GET', 'repos/acme/widgets/labels')).json.map((l) => l.name)).toEqual(['feature']);
    expect((await h.call('GET', 'user', { token: ADMIN_TOKEN })).status).toBe(200);
  });
});

describe('TableIndex', () => {
  interface Row {
    id: number;
    name: string;
    group: number;
  }
  const make = (rows: Row[]) => {
    const data = { rows };
    const index = new TableIndex<Row, 'id' | 'name', 'group'>(
      () => data.rows,
      (r) => (data.rows = r),
      { unique: { id: (r) => r.id, name: (r) => r.name.toLowerCase() }, groups: { group: (r) => r.group } },
    );
    return { data, index };
  };

  it('indexes rows pushed after it was built, in array order', () => {
    const { data, index } = make([{ id: 1, name: 'a', group: 1 }]);
    expect(index.get('id', 1)?.name).toBe('a');
    data.rows.push({ id: 2, name: 'b', group: 1 });
    expect(index.get('name', 'b')?.id).toBe(2);
    expect(index.list('group', 1).map((r) => r.id)).toEqual([1, 2]);
  });

  it('rebuilds when the array is replaced behind its back', () => {
    const { data, index } = make([{ id: 1, name: 'a', group: 1 }, { id: 2, name: 'b', group: 2 }]);
    expect(index.get('id', 1)).toBeDefined();
    data.rows = data.rows.filter((r) => r.id !== 1);
    expect(index.get('id', 1)).toBeUndefined();
    expect(index.list('group', 1)).toEqual([]);
  });

  it('removeWhere drops exactly the removed rows', () => {
    const { data, index } = make([{ id: 1, name: 'a', group: 1 }, { id: 2, name: 'b', group: 1 }, { id: 3, name: 'c', group: 2 }]);
    expect(index.removeWhere((r) => r.group === 1).map((r) => r.id)).toEqual([1, 2]);
    expect(data.rows.map((r) => r.id)).toEqual([3]);
    expect(index.get('name', 'a')).toBeUndefined();
    expect(index.size('group', 1)).toBe(0);
    expect(index.get('id', 3)?.name).toBe('c');
  });

  it('remove deletes one row in place and from every view', () => {
    const { data, index } = make([{ id: 1, name: 'a', group: 1 }, { id: 2, name: 'b', group: 1 }]);
    const a = data.rows[0]!;
    expect(index.remove(a)).toBe(true);
    expect(index.remove(a)).toBe(false);
    expect(data.rows.map((r) => r.id)).toEqual([2]);
    expect(index.get('id', 1)).toBeUndefined();
    expect(index.list('group', 1).map((r) => r.id)).toEqual([2]);
    data.rows.push({ id: 3, name: 'c', group: 1 });
    expect(index.list('group', 1).map((r) => r.id)).toEqual([2, 3]);
  });

  it('change moves the keys of a row; a key taken by another row answers the first in array order', () => {
    const { data, index } = make([{ id: 1, name: 'a', group: 1 }, { id: 2, name: 'b', group: 1 }]);
    const b = data.rows[1]!;
    index.change(b, () => (b.name = 'B2'));
    expect(index.get('name', 'b')).toBeUndefined();
    expect(index.get('name', 'b2')?.id).toBe(2);
    index.change(b, () => (b.name = 'A'));
    expect(index.get('name', 'a')?.id).toBe(1);
    index.removeWhere((r) => r.id === 1);
    expect(index.get('name', 'a')?.id).toBe(2);
  });

  it('a row changing group keeps its group in array order', () => {
    const { data, index } = make([{ id: 1, name: 'a', group: 1 }, { id: 2, name: 'b', group: 2 }, { id: 3, name: 'c', group: 2 }]);
    const a = data.rows[0]!;
    index.change(a, () => (a.group = 2));
    expect(index.list('group', 2).map((r) => r.id)).toEqual([1, 2, 3]);
    expect(index.list('group', 1)).toEqual([]);
  });
});
