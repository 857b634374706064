/** `GET`/`POST /users/{username}/tokens`, `DELETE …/tokens/{id}` with Basic authentication (issue 9). */
import { afterEach, describe, expect, it } from 'vitest';
import { apiError, basic, boot, type Harness } from './helpers.js';

let h: Harness;
afterEach(async () => h?.sb.close());

type Token = { id: number; name: string; sha1: string; token_last_eight: string; scopes: string[] };
const alice = { token: null, headers: { authorization: basic('alice', 'alicepass1') } };

describe('user access tokens', () => {
  it('a user bootstraps a token with a password, then uses it; the list never shows the token again', async () => {
    h = await boot();
    const created = await h.call<Token>('POST', 'users/alice/tokens', { ...alice, body: { name: 'forgeform', scopes: ['read:repository', 'write:repository', 'read:user'] } });
    expect(created.status).toBe(201);
    expect(created.json.sha1).toMatch(/^[0-9a-f]{40}$/);
    expect(created.json).toMatchObject({ name: 'forgeform', token_last_eight: created.json.sha1.slice(-8), scopes: ['write:repository', 'read:user'] });
    expect((await h.call<{ login: string }>('GET', 'user', { token: created.json.sha1 })).json.login).toBe('alice');

    const list = await h.call<Token[]>('GET', 'users/alice/tokens', alice);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe(String(list.json.length));
    const mine = list.json.find((t) => t.name === 'forgeform')!;
    expect(mine).toMatchObject({ id: created.json.id, sha1: '', token_last_eight: created.json.sha1.slice(-8) });
    expect(list.text).not.toContain(created.json.sha1);
  });

  it('needs Basic authentication, and the user themself or a site admin', async () => {
    h = await boot();
    const body = { name: 'x', scopes: ['all'] };
    const withToken = await h.call('POST', 'users/alice/tokens', { token: 'alice-token', body });
    expect(withToken.status).toBe(401);
    expect(withToken.json).toEqual(apiError(h, 'auth required'));
    // Basic with a token as the password is still Basic authentication.
    const other = await h.call('POST', 'users/alice/tokens', { token: null, headers: { authorization: basic('bob', 'bob-token') }, body });
    expect(other.status).toBe(403);
    expect(other.json).toEqual(apiError(h, 'doer should be the site admin or be same as the contextUser'));
    const admin = await h.call<Token>('POST', 'users/alice/tokens', { token: null, headers: { authorization: basic('root', 'rootpass1') }, body });
    expect(admin.status).toBe(201);
    expect(admin.json.scopes).toEqual(['all']);
  });

  it('refuses a used name, an unknown scope and no scope with 400', async () => {
    h = await boot();
    expect((await h.call('POST', 'users/alice/tokens', { ...alice, body: { name: 'a', scopes: ['all'] } })).status).toBe(201);
    const cases: [unknown, string][] = [
      [{ name: 'a', scopes: ['all'] }, 'access token name has been used already'],
      [{ name: 'b', scopes: ['write:everything'] }, 'invalid access token scope provided: invalid access token scope: write:everything'],
      [{ name: 'c' }, 'access token must have a scope'],
    ];
    for (const [body, message] of cases) {
      const res = await h.call('POST', 'users/alice/tokens', { ...alice, body });
      expect(res.status).toBe(400);
      expect(res.json).toEqual(apiError(h, message));
    }
  });

  it('deletes by id or by name; the token stops working; an unknown one is 404', async () => {
    h = await boot();
    const a = await h.call<Token>('POST', 'users/alice/tokens', { ...alice, body: { name: 'first', scopes: ['all'] } });
    const b = await h.call<Token>('POST', 'users/alice/tokens', { ...alice, body: { name: 'second', scopes: ['all'] } });
    expect((await h.call('DELETE', 'users/alice/tokens/first', alice)).status).toBe(204);
    expect((await h.call('DELETE', `users/alice/tokens/${b.json.id}`, alice)).status).toBe(204);
    expect((await h.call('GET', 'user', { token: a.json.sha1 })).status).toBe(401);
    expect((await h.call('GET', 'user', { token: b.json.sha1 })).status).toBe(401);
    expect((await h.call('DELETE', 'users/alice/tokens/first', alice)).status).toBe(404);
  });
});
