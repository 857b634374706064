import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, apiError, basic, boot, type Harness, notFoundError } from './helpers.js';

let h: Harness;
afterEach(async () => h?.sb.close());

describe('public endpoints', () => {
  it('GET /version answers a Gitea-like version without authentication, as Go writes JSON', async () => {
    h = await boot();
    const res = await h.call('GET', 'version', { token: null });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ version: '1.27.0+forgeform-sandbox' });
    expect(res.headers.get('content-type')).toBe('application/json;charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('max-age=0, private, must-revalidate');
    expect(res.text.endsWith('}\n')).toBe(true);
  });

  it('answers 401 to a wrong credential on every route, /version included', async () => {
    h = await boot();
    for (const headers of [{ authorization: 'token nope' }, { authorization: 'Bearer nope' }, { authorization: basic('root', 'wrong') }, { authorization: basic('nobody', 'x') }]) {
      const res = await h.call('GET', 'version', { token: null, headers });
      expect(res.status).toBe(401);
      expect(res.json).toEqual(apiError(h, 'invalid username, password or token'));
    }
    const q = await h.call('GET', 'version?token=nope', { token: null });
    expect(q.status).toBe(401);
  });

  it('accepts token, Bearer (any case), Basic with a password or a token, and ?token= with a warning', async () => {
    h = await boot();
    const login = async (headers: Record<string, string>, path = 'user'): Promise<unknown> => (await h.call<{ login: string }>('GET', path, { token: null, headers })).json;
    expect(await login({ authorization: 'token alice-token' })).toMatchObject({ login: 'alice' });
    expect(await login({ authorization: 'BEARER alice-token' })).toMatchObject({ login: 'alice' });
    expect(await login({ authorization: basic('alice', 'alicepass1') })).toMatchObject({ login: 'alice' });
    expect(await login({ authorization: basic('alice@example.com', 'alicepass1') })).toMatchObject({ login: 'alice' });
    expect(await login({ authorization: basic('whoever', 'alice-token') })).toMatchObject({ login: 'alice' });
    expect(await login({ authorization: basic('alice-token', 'x-oauth-basic') })).toMatchObject({ login: 'alice' });
    const q = await h.call('GET', 'user?token=alice-token', { token: null });
    expect(q.json).toMatchObject({ login: 'alice' });
    expect(q.headers.get('x-gitea-warning')).toMatch(/deprecated/);
    // a header that is not two fields is no credential at all
    expect((await h.call('GET', 'version', { token: null, headers: { authorization: 'token a b' } })).status).toBe(200);
  });

  it('GET /settings/api reports the paging limits in use', async () => {
    h = await boot();
    const res = await h.call('GET', 'settings/api', { token: null });
    expect(res.json).toMatchObject({ max_response_items: 50, default_paging_num: 30 });
  });

  it('GET /user needs a token and shows the caller, admin-only fields for themself', async () => {
    h = await boot();
    const anon = await h.call('GET', 'user', { token: null });
    expect(anon.status).toBe(401);
    expect(anon.json).toEqual(apiError(h, 'token is required'));
    const me = await h.call<Record<string, unknown>>('GET', 'user');
    expect(me.json).toMatchObject({ login: 'root', is_admin: true, email: 'root@example.com', active: true });
    expect(me.json).not.toHaveProperty('must_change_password');
    // `username` is there: `User.MarshalJSON` adds it for backward compatibility (modules/structs/user.go).
    expect(me.json).toHaveProperty('username', 'root');
  });

  it('serves the label templates: the list, exact labels and colours, case-sensitive names', async () => {
    h = await boot();
    expect((await h.call('GET', 'label/templates', { token: null })).json).toEqual(['Advanced', 'Default']);
    const def = await h.call<{ name: string; color: string; exclusive: boolean; description: string }[]>('GET', 'label/templates/Default', { token: null });
    expect(def.json).toHaveLength(7);
    expect(def.json[0]).toEqual({ name: 'bug', exclusive: false, color: 'ee0701', description: 'Something is not working' });
    expect(def.json.map((l) => `${l.name}:${l.color}`)).toEqual([
      'bug:ee0701', 'duplicate:cccccc', 'enhancement:84b6eb', 'help wanted:128a0c', 'invalid:e6e6e6', 'question:cc317c', 'wontfix:ffffff',
    ]);
    const adv = await h.call<{ name: string; color: string; exclusive: boolean }[]>('GET', 'label/templates/Advanced', { token: null });
    expect(adv.json).toHaveLength(18);
    expect(adv.json.find((l) => l.name === 'Compat/Breaking')).toMatchObject({ color: 'c62828', exclusive: false });
    expect(adv.json.find((l) => l.name === "Reviewed/Won't Fix")).toMatchObject({ color: 'eeeeee', exclusive: true });
    expect(adv.json.find((l) => l.name === 'Priority/Low')).toMatchObject({ color: '4caf50', exclusive: true });
    const lower = await h.call('GET', 'label/templates/default', { token: null });
    expect(lower.status).toBe(404);
    expect(lower.json).toEqual(notFoundError(h));
  });
});

describe('routing', () => {
  it('answers a path no route matches with plain-text 404 and a known path with another method with 405', async () => {
    h = await boot();
    const res = await h.call('GET', 'no/such/route');
    expect(res.status).toBe(404);
    expect(res.text).toBe('404 page not found\n');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const wrong = await h.call('PUT', 'repos/acme/widgets/labels');
    expect(wrong.status).toBe(405);
    expect(wrong.text).toBe('');
  });

  it('serves HEAD as GET without a body', async () => {
    h = await boot();
    const res = await fetch(`${h.url}/api/v1/version`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});

describe('accounts, sudo and token scopes', () => {
  it('refuses every call of a user who must change their password, with {message} only', async () => {
    h = await boot();
    const created = await h.call('POST', 'admin/users', { body: { username: 'newbie', email: 'newbie@example.com', password: 'longenough1' } });
    expect(created.status).toBe(201);
    const res = await h.call('GET', 'version', { token: null, headers: { authorization: basic('newbie', 'longenough1') } });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ message: `You must change your password. Change it at: ${h.url}//user/change_password` });
  });

  it('refuses inactive and prohibited accounts', async () => {
    h = await boot({ users: [{ username: 'root', admin: true }, { username: 'gone', active: false, token: 'gone-token' }, { username: 'banned', prohibit_login: true, token: 'banned-token' }] });
    for (const token of ['gone-token', 'banned-token']) {
      const res = await h.call('GET', 'user', { token });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ message: 'This account is prohibited from signing in, please contact your site administrator.' });
    }
  });

  it('lets site admins act as another user with sudo, and refuses it to others', async () => {
    h = await boot();
    expect((await h.call('GET', 'user?sudo=alice')).json).toMatchObject({ login: 'alice' });
    expect((await h.call('GET', 'user', { headers: { sudo: 'bob' } })).json).toMatchObject({ login: 'bob' });
    const denied = await h.call('GET', 'user?sudo=bob', { token: 'alice-token' });
    expect(denied.status).toBe(403);
    expect(denied.json).toEqual({ message: 'Only administrators allowed to sudo.' });
    expect((await h.call('GET', 'user?sudo=nobody')).status).toBe(404);
  });

  it('answers 403 to a token without the needed scope, before the token and permission checks', async () => {
    h = await boot();
    const read = await h.call('GET', 'repos/acme/widgets', { token: 'mia-read-token' });
    expect(read.status).toBe(200);
    const write = await h.call('PATCH', 'repos/acme/widgets', { token: 'mia-read-token', body: { description: 'x' } });
    expect(write.status).toBe(403);
    expect(write.json).toEqual(apiError(h, 'token does not have at least one of required scope(s), required=[write:repository], token scope=read:repository,read:organization'));
    const labels = await h.call('GET', 'repos/acme/widgets/labels', { token: 'mia-read-token' });
    expect(labels.status).toBe(403);
    expect((labels.json as { message: string }).message).toContain('required=[read:issue]');
  });
});

describe('request log', () => {
  it('records /api/v1 requests only, with status, query, body and unknown fields; served over HTTP', async () => {
    h = await boot();
    const asAdmin = { headers: { authorization: `token ${ADMIN_TOKEN}` } };
    await fetch(`${h.url}/_sandbox/requests`, asAdmin);
    await h.call('GET', 'repos/acme/widgets/labels?limit=5&page=1');
    await h.call('POST', 'repos/acme/widgets/labels', { body: { name: 'x', color: 'aabbcc', descripton: 'typo' } });
    await h.call('PATCH', 'repos/acme/widgets', { body: { archived: false, internal_tracker: { enable_time_tracker: true, bogus: 1 } } });
    await h.call('DELETE', 'repos/acme/widgets/branch_protections/none', { body: { stray: true } });
    await h.call('GET', 'nowhere');
    const log = h.sb.requests();
    expect(log.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'GET /api/v1/repos/acme/widgets/labels 200',
      'POST /api/v1/repos/acme/widgets/labels 201',
      'PATCH /api/v1/repos/acme/widgets 200',
      'DELETE /api/v1/repos/acme/widgets/branch_protections/none 404',
      'GET /api/v1/nowhere 404',
    ]);
    expect(log[0]!.query).toEqual({ limit: '5', page: '1' });
    expect(log[1]!.body).toEqual({ name: 'x', color: 'aabbcc', descripton: 'typo' });
    expect(log[1]!.unknownFields).toEqual(['descripton']);
    expect(log[2]!.unknownFields).toEqual(['internal_tracker.bogus']);
    expect(log[3]!.unknownFields).toEqual(['stray']);
    const over = (await (await fetch(`${h.url}/_sandbox/requests`, asAdmin)).json()) as unknown[];
    expect(over).toHaveLength(5);
    expect((await fetch(`${h.url}/_sandbox/requests`, { method: 'DELETE', ...asAdmin })).status).toBe(204);
    expect(h.sb.requests()).toEqual([]);
  });

  it('matches JSON keys case-insensitively, as Go does: a mis-cased key is not unknown', async () => {
    h = await boot();
    const res = await h.call<{ name: string }>('POST', 'repos/acme/widgets/labels', { body: { Name: 'cased', COLOR: 'abc' } });
    expect(res.status).toBe(201);
    expect(res.json.name).toBe('cased');
    expect(h.sb.requests()[0]!.unknownFields).toEqual([]);
  });
});

describe('fault injection and latency', () => {
  it('answers a share of requests with 500/502/503/429 (Retry-After: 1) or a dropped connection', async () => {
    h = await boot(undefined, { faultRate: 1 });
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      try {
        const res = await fetch(`${h.url}/api/v1/version`, { headers: { connection: 'close' } });
        seen.add(String(res.status));
        if (res.status === 429) expect(res.headers.get('retry-after')).toBe('1');
        expect([500, 502, 503, 429]).toContain(res.status);
        await res.text();
      } catch {
        seen.add('drop');
      }
    }
    expect(seen.size).toBeGreaterThanOrEqual(3);
    expect([...seen].some((s) => s.startsWith('5'))).toBe(true);
  });

  it('delays responses by latencyMs', async () => {
    h = await boot(undefined, { latencyMs: 120 });
    const t = Date.now();
    await h.call('GET', 'version');
    expect(Date.now() - t).toBeGreaterThanOrEqual(110);
  });
});

describe('admin token', () => {
  it('belongs to the first site admin; without a seed a site admin "root" owns it', async () => {
    h = await boot();
    expect(h.sb.state.data.users.find((u) => u.isAdmin)?.name).toBe('root');
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const sb = await startSandbox({ port: 0 });
    try {
      expect(sb.token).toMatch(/^[0-9a-f]{40}$/);
      const res = await fetch(`${sb.url}/api/v1/user`, { headers: { authorization: `token ${sb.token}` } });
      expect(await res.json()).toMatchObject({ login: 'root', is_admin: true });
      expect((await fetch(`${h.url}/api/v1/user`, { headers: { authorization: `token ${ADMIN_TOKEN}` } })).status).toBe(200);
    } finally {
      await sb.close();
    }
  });
});
