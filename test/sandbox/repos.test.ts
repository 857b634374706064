import { afterEach, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { apiError, boot, SEED, type Harness, notFoundError } from './helpers.js';

interface Repo {
  id: number;
  name: string;
  full_name: string;
  private: boolean;
  archived: boolean;
  archived_at: string;
  description: string;
  owner: { id: number; login: string };
  permissions: { admin: boolean; push: boolean; pull: boolean };
}

let h: Harness;
afterEach(async () => h?.sb.close());

describe('GET /repos/{owner}/{repo}', () => {
  it('returns the repository with the caller permissions', async () => {
    h = await boot();
    const res = await h.call<Repo>('GET', 'repos/acme/widgets', { token: 'bob-token' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: 'widgets', full_name: 'acme/widgets', private: false, archived: false, default_branch: 'main', owner: { login: 'acme' } });
    expect(res.json.permissions).toEqual({ admin: false, push: true, pull: true });
    expect((await h.call<Repo>('GET', 'repos/acme/widgets', { token: null })).json.permissions).toEqual({ admin: false, push: false, pull: true });
    expect((await h.call<Repo>('GET', 'repos/ACME/Widgets')).json.name).toBe('widgets');
  });

  it('answers 404 for missing and private repositories the caller cannot see', async () => {
    h = await boot();
    const anon = await h.call('GET', 'repos/acme/secret', { token: null });
    expect(anon.status).toBe(404);
    expect(anon.json).toEqual(notFoundError(h));
    expect((await h.call('GET', 'repos/acme/secret', { token: 'carol-token' })).status).toBe(404);
    expect((await h.call('GET', 'repos/acme/secret', { token: 'mia-token' })).status).toBe(404); // member without a team
    expect((await h.call('GET', 'repos/acme/secret', { token: 'bob-token' })).status).toBe(200); // devs include all repositories
    expect((await h.call('GET', 'repos/acme/none')).status).toBe(404);
  });
});

describe('GET /repos/{owner}/{repo}/collaborators/{user}/permission', () => {
  it("answers the user's access as GetUserRepoPermission names it, to admins and the user alone", async () => {
    h = await boot();
    const permission = async (user: string, token?: string) => {
      const res = await h.call<{ permission: string; role_name: string; user: { login: string } }>('GET', `repos/acme/widgets/collaborators/${user}/permission`, token ? { token } : {});
      return res.status === 200 ? `${res.json.permission} ${res.json.role_name} ${res.json.user.login}` : res.status;
    };
    expect(await permission('bob')).toBe('write write bob'); // devs include all repositories
    expect(await permission('mia')).toBe('read read mia'); // member without a team, public repository
    expect(await permission('ghost')).toBe(404);
    expect(await permission('mia', 'mia-token')).toBe('read read mia');
    expect(await permission('bob', 'mia-token')).toBe(403);
  });
});

describe('PATCH /repos/{owner}/{repo}', () => {
  it('changes archived, description and private for repository admins', async () => {
    h = await boot();
    const res = await h.call<Repo>('PATCH', 'repos/acme/widgets', { token: 'olga-token', body: { archived: true, description: 'old', private: true } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ archived: true, description: 'old', private: true });
    expect(res.json.archived_at).not.toBe('1970-01-01T00:00:00Z');
    expect((await h.call('POST', 'repos/acme/widgets/branch_protections', { body: { rule_name: 'x' } })).status).toBe(423);
    const back = await h.call<Repo>('PATCH', 'repos/acme/widgets', { body: { archived: false } });
    expect(back.json).toMatchObject({ archived: false, description: 'old', private: true, archived_at: '1970-01-01T00:00:00Z' });
  });

  it('needs a token (after the repository lookup) and admin rights', async () => {
    h = await boot();
    expect((await h.call('PATCH', 'repos/acme/secret', { token: null, body: {} })).status).toBe(404);
    const anon = await h.call('PATCH', 'repos/acme/widgets', { token: null, body: {} });
    expect(anon.status).toBe(401);
    const writer = await h.call('PATCH', 'repos/acme/widgets', { token: 'bob-token', body: { description: 'x' } });
    expect(writer.status).toBe(403);
    expect(writer.json).toEqual(apiError(h, 'user should be an owner or a collaborator with admin write of a repository'));
  });

  it('renames, and answers 422 when the new name is taken', async () => {
    h = await boot();
    expect((await h.call('PATCH', 'repos/acme/widgets', { body: { name: 'gadgets' } })).json).toEqual(apiError(h, 'repository already exists [uname: acme, name: gadgets]'));
    expect((await h.call<Repo>('PATCH', 'repos/acme/widgets', { body: { name: 'sprockets' } })).json.full_name).toBe('acme/sprockets');
    expect((await h.call('GET', 'repos/acme/sprockets/labels')).status).toBe(200);
  });
});

describe('repository lists', () => {
  const many: SeedFile = {
    users: SEED.users,
    orgs: [{ name: 'acme', owners: ['root'], teams: [{ name: 'devs', permission: 'write', members: ['bob'], repos: ['r02'] }] }],
    repos: Array.from({ length: 7 }, (_, i) => ({ name: `acme/r${String(i).padStart(2, '0')}`, private: i % 3 === 2 })),
  };

  it('GET /orgs/{org}/repos pages with X-Total-Count and Link (next, last, first, prev; no spaces)', async () => {
    h = await boot(many);
    const res = await h.call<Repo[]>('GET', 'orgs/acme/repos?limit=2&page=2');
    expect(res.json.map((r) => r.name)).toEqual(['r02', 'r03']);
    expect(res.headers.get('x-total-count')).toBe('7');
    const base = `${h.url}/api/v1/orgs/acme/repos`;
    expect(res.headers.get('link')).toBe(
      `<${base}?limit=2&page=3>; rel="next",<${base}?limit=2&page=4>; rel="last",<${base}?limit=2&page=1>; rel="first",<${base}?limit=2&page=1>; rel="prev"`,
    );
    const first = await h.call<Repo[]>('GET', 'orgs/acme/repos?page=0&limit=100');
    expect(first.json).toHaveLength(7);
    expect(first.headers.get('link')).toBeNull();
  });

  it('shows anonymous callers only public repositories, members what they can read', async () => {
    h = await boot(many);
    const anon = await h.call<Repo[]>('GET', 'orgs/acme/repos', { token: null });
    expect(anon.json.map((r) => r.name)).toEqual(['r00', 'r01', 'r03', 'r04', 'r06']);
    expect(anon.headers.get('x-total-count')).toBe('5');
    const bob = await h.call<Repo[]>('GET', 'orgs/acme/repos', { token: 'bob-token' });
    expect(bob.json.map((r) => r.name)).toEqual(['r00', 'r01', 'r02', 'r03', 'r04', 'r06']);
    expect((await h.call('GET', 'orgs/acme/repos?type=bogus')).status).toBe(422);
    expect((await h.call<Repo[]>('GET', 'orgs/acme/repos?type=private')).json.map((r) => r.name)).toEqual(['r02', 'r05']);
    expect((await h.call('GET', 'orgs/nope/repos')).status).toBe(404);
  });

  it('GET /users/{username}/repos lists a user’s repositories', async () => {
    h = await boot();
    const res = await h.call<Repo[]>('GET', 'users/alice/repos', { token: null });
    expect(res.json.map((r) => r.full_name)).toEqual(['alice/personal']);
    expect(res.headers.get('x-total-count')).toBe('1');
    expect((await h.call('GET', 'users/nobody/repos')).status).toBe(404);
  });
});
