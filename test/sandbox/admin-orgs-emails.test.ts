import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT_SEED } from './account-fixtures.js';
import { apiError, boot, type Harness, notFoundError } from './helpers.js';

let h: Harness;
afterEach(async () => h?.sb.close());

type Org = { id: number; name: string; username: string; full_name: string; email: string; description: string; website: string; location: string; visibility: string; repo_admin_change_team_access: boolean };
type Email = { email: string; verified: boolean; primary: boolean; user_id: number; username: string };

describe('GET /admin/orgs', () => {
  it('lists every organisation (all visibilities) by name, paged with X-Total-Count and Link', async () => {
    h = await boot(ACCOUNT_SEED);
    await h.call('POST', 'admin/users/alice/orgs', { body: { username: 'zeta', visibility: 'private' } });
    await h.call('POST', 'admin/users/alice/orgs', { body: { username: 'beta', visibility: 'limited' } });
    const res = await h.call<Org[]>('GET', 'admin/orgs');
    expect(res.status).toBe(200);
    expect(res.json.map((o) => o.name)).toEqual(['acme', 'beta', 'zeta']);
    expect(Object.keys(res.json[0]!)).toEqual(['id', 'name', 'full_name', 'email', 'avatar_url', 'description', 'website', 'location', 'visibility', 'repo_admin_change_team_access', 'username']);
    expect(res.headers.get('x-total-count')).toBe('3');
    const page = await h.call<Org[]>('GET', 'admin/orgs?limit=1&page=2');
    expect(page.json.map((o) => o.name)).toEqual(['beta']);
    expect(page.headers.get('link')).toBe(
      `<${h.url}/api/v1/admin/orgs?limit=1&page=3>; rel="next",<${h.url}/api/v1/admin/orgs?limit=1&page=3>; rel="last",<${h.url}/api/v1/admin/orgs?limit=1&page=1>; rel="first",<${h.url}/api/v1/admin/orgs?limit=1&page=1>; rel="prev"`,
    );
  });

  it('is admin only', async () => {
    h = await boot(ACCOUNT_SEED);
    expect((await h.call('GET', 'admin/orgs', { token: 'olga-token' })).json).toEqual(apiError(h, 'user should be the site admin'));
    expect((await h.call('GET', 'admin/orgs', { token: null })).status).toBe(401);
  });
});

describe('GET /orgs/{org}', () => {
  it('answers the Organization; no e-mail for anonymous callers; 404 for unknown or invisible ones', async () => {
    h = await boot(ACCOUNT_SEED);
    await h.call('PATCH', 'orgs/acme', { body: { email: 'info@acme.example' } });
    const res = await h.call<Org>('GET', 'orgs/acme', { token: 'carol-token' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: 'acme', username: 'acme', email: 'info@acme.example', visibility: 'public' });
    expect((await h.call<Org>('GET', 'orgs/acme', { token: null })).json.email).toBe('');
    const missing = await h.call('GET', 'orgs/nope');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual(notFoundError(h));
    await h.call('POST', 'admin/users/alice/orgs', { body: { username: 'hidden', visibility: 'private' } });
    expect((await h.call('GET', 'orgs/hidden', { token: 'bob-token' })).status).toBe(404);
    expect((await h.call('GET', 'orgs/hidden', { token: 'alice-token' })).status).toBe(200);
    expect((await h.call('GET', 'orgs/hidden')).status).toBe(200);
  });
});

describe('PATCH /orgs/{org}', () => {
  it('changes only the given fields, e-mail and repo_admin_change_team_access included', async () => {
    h = await boot(ACCOUNT_SEED);
    const res = await h.call<Org>('PATCH', 'orgs/acme', { token: 'olga-token', body: { full_name: 'ACME Corp', email: 'hi@acme.example', repo_admin_change_team_access: true } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ full_name: 'ACME Corp', email: 'hi@acme.example', repo_admin_change_team_access: true, description: '', visibility: 'public' });
    const next = await h.call<Org>('PATCH', 'orgs/acme', { token: 'olga-token', body: { description: 'Widgets', website: 'https://acme.example', location: 'Earth', visibility: 'limited' } });
    expect(next.json).toMatchObject({ full_name: 'ACME Corp', email: 'hi@acme.example', description: 'Widgets', website: 'https://acme.example', location: 'Earth', visibility: 'limited' });
    // an empty e-mail clears it
    expect((await h.call<Org>('PATCH', 'orgs/acme', { body: { email: '' } })).json.email).toBe('');
  });

  it('needs an owner (403 for members), a token (401), and validates (422)', async () => {
    h = await boot(ACCOUNT_SEED);
    const member = await h.call('PATCH', 'orgs/acme', { token: 'bob-token', body: { full_name: 'x' } });
    expect(member.status).toBe(403);
    expect(member.json).toEqual(apiError(h, 'Must be an organization owner'));
    expect((await h.call('PATCH', 'orgs/acme', { token: null, body: {} })).json).toEqual(apiError(h, 'token is required'));
    expect((await h.call('PATCH', 'orgs/nope', { token: null, body: {} })).status).toBe(404);
    expect((await h.call('PATCH', 'orgs/acme', { body: { website: 'nope' } })).json).toEqual(apiError(h, '[Website]: Url'));
    expect((await h.call('PATCH', 'orgs/acme', { body: { visibility: 'secret' } })).json).toEqual(apiError(h, '[Visibility]: In'));
    expect((await h.call('PATCH', 'orgs/acme', { body: { location: 'x'.repeat(51) } })).json).toEqual(apiError(h, '[Location]: MaxSize'));
    const bad = await h.call('PATCH', 'orgs/acme', { body: { email: 'not-an-email' } });
    expect(bad.status).toBe(422);
    expect(bad.json).toEqual(apiError(h, 'e-mail invalid [email: not-an-email]'));
  });
});

describe('GET /admin/emails and /admin/emails/search', () => {
  it('lists every address of individual users by address, primary and secondary, paged', async () => {
    h = await boot(ACCOUNT_SEED);
    const res = await h.call<Email[]>('GET', 'admin/emails?limit=50');
    expect(res.status).toBe(200);
    const addresses = res.json.map((e) => e.email);
    expect(addresses).toEqual([...addresses].sort());
    expect(res.headers.get('x-total-count')).toBe(String(addresses.length));
    const dora = res.json.filter((e) => e.username === 'dora');
    expect(dora).toEqual([
      { email: 'dora@corp.example', verified: true, primary: false, user_id: dora[0]!.user_id, username: 'dora' },
      { email: 'dora@example.com', verified: true, primary: true, user_id: dora[0]!.user_id, username: 'dora' },
      { email: 'dora@old.example', verified: false, primary: false, user_id: dora[0]!.user_id, username: 'dora' },
    ]);
    // an inactive user's primary address is not activated
    expect(res.json.find((e) => e.username === 'fred')).toMatchObject({ email: 'fred@example.com', verified: false, primary: true });
    const page = await h.call<Email[]>('GET', 'admin/emails?limit=2&page=2');
    expect(page.json.map((e) => e.email)).toEqual(addresses.slice(2, 4));
    expect(page.headers.get('link')).toContain('rel="prev"');
  });

  it('search matches the address, the user name and the full name (trimmed, case-insensitive)', async () => {
    h = await boot(ACCOUNT_SEED);
    const search = async (q: string): Promise<string[]> => (await h.call<Email[]>('GET', `admin/emails/search?q=${encodeURIComponent(q)}`)).json.map((e) => e.email);
    expect(await search(' CORP.example ')).toEqual(['dora@corp.example']);
    expect(await search('explorer')).toEqual(['dora@corp.example', 'dora@example.com', 'dora@old.example']);
    expect(await search('ALICE')).toEqual(['alice@example.com']);
    expect(await search('')).toHaveLength((await h.call<Email[]>('GET', 'admin/emails?limit=50')).json.length);
    // GET /admin/emails ignores q
    expect((await h.call<Email[]>('GET', 'admin/emails?q=alice&limit=50')).json.length).toBeGreaterThan(1);
  });

  it('follows user changes: a new primary replaces the old row; deleted users leave no rows', async () => {
    h = await boot(ACCOUNT_SEED);
    await h.call('PATCH', 'admin/users/carol', { body: { login_name: 'carol', email: 'carol@new.example' } });
    await h.call('DELETE', 'admin/users/gus');
    const all = (await h.call<Email[]>('GET', 'admin/emails?limit=50')).json;
    expect(all.filter((e) => e.username === 'carol').map((e) => e.email)).toEqual(['carol@new.example']);
    expect(all.some((e) => e.username === 'gus')).toBe(false);
  });

  it('is admin only', async () => {
    h = await boot(ACCOUNT_SEED);
    expect((await h.call('GET', 'admin/emails', { token: 'alice-token' })).status).toBe(403);
    expect((await h.call('GET', 'admin/emails/search?q=a', { token: null })).status).toBe(401);
  });
});
