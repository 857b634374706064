import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildState, loadSeedFile, SeedError, stateFromJSON, stateToJSON } from '../../src/sandbox/index.js';
import { ACCOUNT_SEED, DORA_KEY, ed25519Key, rsaKey } from './account-fixtures.js';
import { ADMIN_TOKEN, apiError, basic, boot, type Harness, notFoundError, SEED } from './helpers.js';

let h: Harness;
afterEach(async () => h?.sb.close());

const NEW_USER = { username: 'dora', email: 'dora@example.com', password: 'longenough1' };

describe('POST /admin/users', () => {
  it('creates a user (201) with must_change_password true by default, never returned', async () => {
    h = await boot();
    const res = await h.call<Record<string, unknown>>('POST', 'admin/users', { body: { ...NEW_USER, full_name: 'Dora', login_name: 'dora-ldap' } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ login: 'dora', email: 'dora@example.com', full_name: 'Dora', is_admin: false, active: true, login_name: 'dora-ldap', visibility: 'public', restricted: false });
    expect(res.json).not.toHaveProperty('must_change_password');
    expect(typeof res.json.id).toBe('number');
    const blocked = await h.call('GET', 'user', { token: null, headers: { authorization: basic('dora', NEW_USER.password) } });
    expect(blocked.status).toBe(403);
  });

  it('creates a usable user with must_change_password: false; honours visibility and restricted', async () => {
    h = await boot();
    const res = await h.call('POST', 'admin/users', { body: { ...NEW_USER, must_change_password: false, visibility: 'private', restricted: true } });
    expect(res.json).toMatchObject({ visibility: 'private', restricted: true });
    const me = await h.call('GET', 'user', { token: null, headers: { authorization: basic('dora', NEW_USER.password) } });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ login: 'dora' });
  });

  it('answers 422 for duplicates (names and e-mails compared case-insensitively)', async () => {
    h = await boot();
    const name = await h.call('POST', 'admin/users', { body: { ...NEW_USER, username: 'ALICE' } });
    expect(name.status).toBe(422);
    expect(name.json).toEqual(apiError(h, 'user already exists [name: ALICE]'));
    const org = await h.call('POST', 'admin/users', { body: { ...NEW_USER, username: 'acme' } });
    expect(org.json).toEqual(apiError(h, 'user already exists [name: acme]'));
    const email = await h.call('POST', 'admin/users', { body: { ...NEW_USER, email: 'Alice@Example.com' } });
    expect(email.status).toBe(422);
    expect(email.json).toEqual(apiError(h, 'e-mail already in use [email: Alice@Example.com]'));
  });

  it('answers binding errors 422 [GoFieldName]: Rule, a short password 400, reserved names 422', async () => {
    h = await boot();
    const post = (body: unknown): Promise<{ status: number; json: unknown }> => h.call('POST', 'admin/users', { body });
    expect((await post({ email: 'x@example.com', password: 'longenough1' })).json).toEqual(apiError(h, '[Username]: Required'));
    expect((await post({ ...NEW_USER, username: 'bad name' })).json).toEqual(apiError(h, '[Username]: invalid username'));
    expect((await post({ ...NEW_USER, username: 'a--b' })).json).toEqual(apiError(h, '[Username]: invalid username'));
    expect((await post({ ...NEW_USER, email: '' })).json).toEqual(apiError(h, '[Email]: Required'));
    expect((await post({ ...NEW_USER, email: 'not-an-email' })).json).toEqual(apiError(h, '[Email]: Email'));
    expect((await post({ ...NEW_USER, visibility: 'secret' })).json).toEqual(apiError(h, '[Visibility]: In'));
    expect((await post({ ...NEW_USER, username: 'x'.repeat(41) })).json).toEqual(apiError(h, '[Username]: MaxSize'));
    const short = await post({ ...NEW_USER, password: 'short' });
    expect(short.status).toBe(400);
    expect(short.json).toEqual(apiError(h, 'PasswordIsRequired'));
    const reserved = await post({ ...NEW_USER, username: 'Explore' });
    expect(reserved.status).toBe(422);
    expect(reserved.json).toEqual(apiError(h, 'name is reserved [name: explore]'));
    expect((await post({ ...NEW_USER, username: 'me.keys' })).json).toEqual(apiError(h, 'name pattern is not allowed [pattern: *.keys]'));
    expect((await post({ ...NEW_USER, source_id: 7 })).json).toEqual(apiError(h, 'login source does not exist [id: 7]'));
  });

  it('refuses non-admins (403) and anonymous callers (401)', async () => {
    h = await boot();
    const user = await h.call('POST', 'admin/users', { token: 'alice-token', body: NEW_USER });
    expect(user.status).toBe(403);
    expect(user.json).toEqual(apiError(h, 'user should be the site admin'));
    const anon = await h.call('POST', 'admin/users', { token: null, body: NEW_USER });
    expect(anon.status).toBe(401);
    expect(anon.json).toEqual(apiError(h, 'token is required'));
  });
});

describe('POST /admin/users/{username}/orgs', () => {
  it('creates an organisation owned by the user; e-mail is ignored', async () => {
    h = await boot();
    const res = await h.call('POST', 'admin/users/alice/orgs', { body: { username: 'initech', full_name: 'Initech', description: 'd', email: 'x@initech.example', visibility: 'limited' } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: 'initech', username: 'initech', full_name: 'Initech', description: 'd', email: '', visibility: 'limited' });
    // alice owns it: she may write organisation labels
    expect((await h.call('POST', 'orgs/initech/labels', { token: 'alice-token', body: { name: 'x', color: 'abc' } })).status).toBe(201);
    expect((await h.call('POST', 'orgs/initech/labels', { token: 'bob-token', body: { name: 'x', color: 'abc' } })).status).toBe(403);
  });

  it('answers 422 for a taken name or a binding error, 404 for an unknown user', async () => {
    h = await boot();
    expect((await h.call('POST', 'admin/users/alice/orgs', { body: { username: 'bob' } })).json).toEqual(apiError(h, 'user already exists [name: bob]'));
    expect((await h.call('POST', 'admin/users/alice/orgs', { body: {} })).json).toEqual(apiError(h, '[UserName]: Required'));
    expect((await h.call('POST', 'admin/users/alice/orgs', { body: { username: 'x', visibility: 'hidden' } })).json).toEqual(apiError(h, '[Visibility]: In'));
    expect((await h.call('POST', 'admin/users/alice/orgs', { body: { username: 'x', website: 'not a url' } })).json).toEqual(apiError(h, '[Website]: Url'));
    const missing = await h.call('POST', 'admin/users/nobody/orgs', { body: { username: 'x' } });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual(apiError(h, 'user redirect does not exist [name: nobody]'));
  });
});

describe('POST /admin/users/{username}/repos', () => {
  it('creates a repository for a user or an organisation (201 Repository)', async () => {
    h = await boot();
    const res = await h.call<Record<string, unknown>>('POST', 'admin/users/alice/repos', { body: { name: 'notes', description: 'mine', private: true } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      name: 'notes',
      full_name: 'alice/notes',
      description: 'mine',
      private: true,
      archived: false,
      empty: true,
      default_branch: 'main',
      html_url: `${h.url}/alice/notes`,
      url: `${h.url}/api/v1/repos/alice/notes`,
      owner: { login: 'alice', type: 'User' },
      permissions: { admin: true, push: true, pull: true },
    });
    const org = await h.call('POST', 'admin/users/acme/repos', { body: { name: 'tools', auto_init: true, default_branch: 'trunk' } });
    expect(org.json).toMatchObject({ full_name: 'acme/tools', empty: false, default_branch: 'trunk', owner: { login: 'acme', type: 'Organization' } });
  });

  it('answers 409 for a taken name, 422 for binding errors and an unknown label template', async () => {
    h = await boot();
    const dup = await h.call('POST', 'admin/users/acme/repos', { body: { name: 'Widgets' } });
    expect(dup.status).toBe(409);
    expect(dup.json).toEqual(apiError(h, 'The repository with the same name already exists.'));
    expect((await h.call('POST', 'admin/users/acme/repos', { body: {} })).json).toEqual(apiError(h, '[Name]: Required'));
    expect((await h.call('POST', 'admin/users/acme/repos', { body: { name: 'a b' } })).json).toEqual(apiError(h, '[Name]: AlphaDashDot'));
    expect((await h.call('POST', 'admin/users/acme/repos', { body: { name: 'x.git' } })).json).toEqual(apiError(h, 'name pattern is not allowed [pattern: *.git]'));
    const tmpl = await h.call('POST', 'admin/users/acme/repos', { body: { name: 'x', issue_labels: 'default' } });
    expect(tmpl.status).toBe(422);
    const readme = await h.call('POST', 'admin/users/acme/repos', { body: { name: 'x', auto_init: true, readme: 'Fancy' } });
    expect(readme.status).toBe(400);
    expect(readme.json).toEqual(apiError(h, 'readme template does not exist, available templates: [Default]'));
    // Names are file names: case-sensitive. Without auto_init the name is not used (CreateUserRepo checks it only then).
    expect((await h.call('POST', 'admin/users/acme/repos', { body: { name: 'x', auto_init: true, readme: 'default' } })).status).toBe(400);
    expect((await h.call('POST', 'admin/users/acme/repos', { body: { name: 'x', readme: 'Fancy' } })).status).toBe(201);
  });

  it('takes the readme templates of custom/options/readme (the seed\'s custom_templates), listing them with the built-in one when refusing another', async () => {
    h = await boot({ ...SEED, custom_templates: { readme: ['Company', 'Acme'] } });
    expect((await h.call('POST', 'admin/users/acme/repos', { body: { name: 'x', auto_init: true, readme: 'Company' } })).status).toBe(201);
    const other = await h.call('POST', 'admin/users/acme/repos', { body: { name: 'y', auto_init: true, readme: 'Plain' } });
    expect(other.status).toBe(400);
    expect(other.json).toEqual(apiError(h, 'readme template does not exist, available templates: [Acme Company Default]'));
  });

  it('creates the labels of issue_labels', async () => {
    h = await boot();
    await h.call('POST', 'admin/users/acme/repos', { body: { name: 'fresh', issue_labels: 'Default' } });
    const labels = await h.call<{ name: string }[]>('GET', 'repos/acme/fresh/labels');
    expect(labels.json.map((l) => l.name)).toEqual(['bug', 'duplicate', 'enhancement', 'help wanted', 'invalid', 'question', 'wontfix']);
  });
});

type User = Record<string, unknown> & { id: number; login: string };

/** A request that does not follow redirects (fetch follows 307 by default). */
async function raw(method: string, path: string, init: { token?: string; body?: unknown } = {}): Promise<Response> {
  const headers: Record<string, string> = { authorization: `token ${init.token ?? ADMIN_TOKEN}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${h.url}/api/v1/${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body), redirect: 'manual' });
}

// (`username` is returned: `User.MarshalJSON` adds it "for backward compatibility", modules/structs/user.go.)
const NEVER_RETURNED = ['max_repo_creation', 'allow_git_hook', 'allow_import_local', 'allow_create_organization', 'must_change_password', 'keep_email_private', 'password'];

describe('the User object and account states', () => {
  it('has login and the admin fields for admins, never the write-only flags', async () => {
    h = await boot(ACCOUNT_SEED);
    const res = await h.call<User[]>('GET', 'admin/users?q=dora');
    const dora = res.json[0]!;
    expect(Object.keys(dora)).toEqual([
      'id', 'login', 'username', 'login_name', 'source_id', 'full_name', 'email', 'avatar_url', 'html_url', 'language', 'is_admin', 'last_login', 'created', 'restricted',
      'active', 'prohibit_login', 'location', 'website', 'description', 'visibility', 'followers_count', 'following_count', 'starred_repos_count', 'type',
    ]);
    expect(dora).toMatchObject({ login: 'dora', login_name: 'dora.ldap', source_id: 2, full_name: 'Dora Explorer', email: 'dora@example.com', active: true, type: 'User' });
    for (const k of NEVER_RETURNED) expect(dora).not.toHaveProperty(k);
  });

  it('refuses every call of a must_change_password user with 403 {message} (no url), admin routes included', async () => {
    h = await boot(ACCOUNT_SEED);
    const msg = { message: `You must change your password. Change it at: ${h.url}//user/change_password` };
    for (const [method, path] of [['GET', 'user'], ['GET', 'version'], ['GET', 'admin/users'], ['GET', 'users/erin/keys'], ['GET', 'repos/acme/widgets']] as const) {
      const res = await h.call(method, path, { token: 'erin-token' });
      expect(res.status, path).toBe(403);
      expect(res.json, path).toEqual(msg);
    }
    const pw = await h.call('GET', 'user', { token: null, headers: { authorization: basic('erin', 'erinpass12') } });
    expect(pw.status).toBe(403);
    // clearing the flag makes the account usable
    expect((await h.call('PATCH', 'admin/users/erin', { body: { login_name: 'erin', must_change_password: false } })).status).toBe(200);
    expect((await h.call('GET', 'user', { token: 'erin-token' })).status).toBe(200);
  });

  it('refuses inactive and login-prohibited accounts with 403 {message}', async () => {
    h = await boot(ACCOUNT_SEED);
    for (const token of ['fred-token', 'gus-token']) {
      const res = await h.call('GET', 'user', { token });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ message: 'This account is prohibited from signing in, please contact your site administrator.' });
    }
  });

  it('answers 403 user should be the site admin on every /admin user route, 401 without a token', async () => {
    h = await boot(ACCOUNT_SEED);
    const routes: [string, string][] = [
      ['GET', 'admin/users'], ['PATCH', 'admin/users/dora'], ['DELETE', 'admin/users/dora'], ['POST', 'admin/users/dora/rename'], ['GET', 'admin/users/dora/badges'],
      ['POST', 'admin/users/dora/badges'], ['DELETE', 'admin/users/dora/badges'], ['POST', 'admin/users/dora/keys'], ['DELETE', 'admin/users/dora/keys/1'],
      ['GET', 'admin/users/nobody/badges'],
    ];
    for (const [method, path] of routes) {
      const body = method === 'GET' ? undefined : {};
      const res = await h.call(method, path, { token: 'alice-token', body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json).toEqual(apiError(h, 'user should be the site admin'));
      expect((await h.call(method, path, { token: null, body })).json).toEqual(apiError(h, 'token is required'));
    }
    const scoped = await h.call('GET', 'admin/users', { token: 'mia-read-token' });
    expect(scoped.status).toBe(403);
    expect((scoped.json as { message: string }).message).toMatch(/required=\[read:admin\]/);
  });
});

describe('GET /admin/users', () => {
  it('lists individual users by name, paged with X-Total-Count and Link', async () => {
    h = await boot(ACCOUNT_SEED);
    const all = await h.call<User[]>('GET', 'admin/users');
    expect(all.status).toBe(200);
    const names = all.json.map((u) => u.login);
    expect(names).toEqual([...names].sort());
    expect(names).not.toContain('acme');
    expect(all.headers.get('x-total-count')).toBe(String(names.length));
    const page = await h.call<User[]>('GET', 'admin/users?limit=2&page=2');
    expect(page.json.map((u) => u.login)).toEqual(names.slice(2, 4));
    expect(page.headers.get('link')).toBe(
      `<${h.url}/api/v1/admin/users?limit=2&page=3>; rel="next",<${h.url}/api/v1/admin/users?limit=2&page=${Math.ceil(names.length / 2)}>; rel="last",<${h.url}/api/v1/admin/users?limit=2&page=1>; rel="first",<${h.url}/api/v1/admin/users?limit=2&page=1>; rel="prev"`,
    );
  });

  it('filters by q, login_name, source_id, visibility and the boolean flags; sorts', async () => {
    h = await boot(ACCOUNT_SEED);
    const logins = async (q: string): Promise<string[]> => (await h.call<User[]>('GET', `admin/users?${q}`)).json.map((u) => u.login);
    expect(await logins('q=EXPLORER')).toEqual(['dora']);
    expect(await logins('q=corp')).toEqual([]); // secondary addresses are not searched
    expect(await logins('login_name=dora.ldap')).toEqual(['dora']);
    expect(await logins('source_id=2')).toEqual(['dora']);
    expect(await logins('visibility=limited')).toEqual(['gus']);
    expect(await logins('is_admin=true')).toEqual(['root', 'vera']);
    expect(await logins('is_active=false')).toEqual(['fred']);
    expect(await logins('is_prohibit_login=on')).toEqual(['gus']);
    expect(await logins('is_restricted=1')).toEqual(['vera']);
    expect(await logins('is_2fa_enabled=true')).toEqual([]);
    // anything but a Go boolean or "on" means false
    expect(await logins('is_admin=yes')).not.toContain('root');
    expect((await logins('sort=id&order=desc'))[0]).toBe('vera');
    expect(await logins('sort=name&order=desc')).toEqual([...(await logins(''))].reverse());
    // order without sort is ignored
    expect(await logins('order=bogus')).toEqual(await logins(''));
  });

  it('answers 422 for a bad sort, order or visibility', async () => {
    h = await boot(ACCOUNT_SEED);
    expect((await h.call('GET', 'admin/users?sort=email')).json).toEqual(apiError(h, 'Invalid sort mode: "email"'));
    expect((await h.call('GET', 'admin/users?sort=id&order=up')).json).toEqual(apiError(h, 'Invalid sort order: "up"'));
    const vis = await h.call('GET', 'admin/users?visibility=hidden');
    expect(vis.status).toBe(422);
    expect(vis.json).toEqual(apiError(h, 'Invalid visibility: "hidden"'));
  });
});

describe('POST /admin/users with login sources and redirects', () => {
  it('creates an LDAP user without a password; an unknown source is 422', async () => {
    h = await boot(ACCOUNT_SEED);
    const res = await h.call('POST', 'admin/users', { body: { username: 'lars', email: 'lars@example.com', source_id: 2, login_name: 'lars.l' } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ login: 'lars', source_id: 2, login_name: 'lars.l' });
    expect((await h.call('POST', 'admin/users', { body: { username: 'x1', email: 'x1@example.com', source_id: 9 } })).json).toEqual(apiError(h, 'login source does not exist [id: 9]'));
  });

  it('refuses an address that is any user\'s secondary e-mail', async () => {
    h = await boot(ACCOUNT_SEED);
    const res = await h.call('POST', 'admin/users', { body: { username: 'x1', email: 'DORA@corp.example', password: 'longenough1' } });
    expect(res.status).toBe(422);
    expect(res.json).toEqual(apiError(h, 'e-mail already in use [email: DORA@corp.example]'));
  });
});

describe('PATCH /admin/users/{username}', () => {
  it('changes only the given fields and always writes login_name', async () => {
    h = await boot(ACCOUNT_SEED);
    const before = (await h.call<User[]>('GET', 'admin/users?q=alice')).json[0]!;
    const res = await h.call<User>('PATCH', 'admin/users/alice', { body: { login_name: 'alice-sso', full_name: 'Alice A.', website: 'https://alice.example', restricted: true } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ login: 'alice', id: before.id, login_name: 'alice-sso', full_name: 'Alice A.', website: 'https://alice.example', restricted: true });
    expect(res.json).toMatchObject({ email: before.email, location: before.location, visibility: before.visibility, is_admin: false });
    for (const k of NEVER_RETURNED) expect(res.json).not.toHaveProperty(k);
    // a second PATCH: login_name is required again and overwrites
    expect((await h.call<User>('PATCH', 'admin/users/alice', { body: { login_name: 'alice' } })).json).toMatchObject({ login_name: 'alice', full_name: 'Alice A.' });
  });

  it('answers 422 [LoginName]: Required without login_name, and other binding errors', async () => {
    h = await boot(ACCOUNT_SEED);
    const res = await h.call('PATCH', 'admin/users/alice', { body: { full_name: 'x' } });
    expect(res.status).toBe(422);
    expect(res.json).toEqual(apiError(h, '[LoginName]: Required'));
    expect((await h.call('PATCH', 'admin/users/alice', { body: { login_name: '' } })).json).toEqual(apiError(h, '[LoginName]: Required'));
    expect((await h.call('PATCH', 'admin/users/alice', { body: { login_name: 'a', website: 'not a url' } })).json).toEqual(apiError(h, '[Website]: Url'));
    expect((await h.call('PATCH', 'admin/users/alice', { body: { login_name: 'a', visibility: 'secret' } })).json).toEqual(apiError(h, '[Visibility]: In'));
    expect((await h.call('PATCH', 'admin/users/alice', { body: { login_name: 'a', active: 'yes' } })).json).toEqual(
      apiError(h, '[]: json: cannot unmarshal string into Go struct field EditUserOption.active of type bool'),
    );
    // nothing changed
    expect((await h.call<User[]>('GET', 'admin/users?q=alice')).json[0]).toMatchObject({ full_name: '', login_name: '' });
  });

  it('e-mail rules: case-only change is a no-op, empty or used is 400, success replaces the primary', async () => {
    h = await boot(ACCOUNT_SEED);
    const same = await h.call<User>('PATCH', 'admin/users/alice', { body: { login_name: 'alice', email: 'ALICE@example.com' } });
    expect(same.json.email).toBe('alice@example.com');
    const empty = await h.call('PATCH', 'admin/users/alice', { body: { login_name: 'alice', email: '' } });
    expect(empty.status).toBe(400);
    expect(empty.json).toEqual(apiError(h, 'e-mail invalid [email: ]'));
    const used = await h.call('PATCH', 'admin/users/alice', { body: { login_name: 'alice', email: 'bob@example.com' } });
    expect(used.status).toBe(400);
    expect(used.json).toEqual(apiError(h, 'e-mail already in use [email: bob@example.com]'));
    // the user's own secondary address counts as used too
    expect((await h.call('PATCH', 'admin/users/dora', { body: { login_name: 'dora.ldap', email: 'dora@corp.example' } })).status).toBe(400);
    const ok = await h.call<User>('PATCH', 'admin/users/alice', { body: { login_name: 'alice', email: 'alice@new.example' } });
    expect(ok.json.email).toBe('alice@new.example');
    const emails = await h.call<{ email: string; username: string; primary: boolean }[]>('GET', 'admin/emails/search?q=alice');
    expect(emails.json).toEqual([{ email: 'alice@new.example', verified: true, primary: true, user_id: ok.json.id, username: 'alice' }]);
  });

  it('is not atomic: the auth fields and e-mail stay changed when a later step fails', async () => {
    h = await boot(ACCOUNT_SEED);
    // demoting the last admin fails after login_name and e-mail were saved
    const solo = await boot({ users: [{ username: 'root', admin: true, email: 'root@example.com' }, { username: 'zed' }] });
    try {
      const res = await solo.call('PATCH', 'admin/users/root', { body: { login_name: 'boss', email: 'boss@example.com', admin: false, full_name: 'Boss' } });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ message: 'can not delete the last admin user [uid: 1]', url: `${solo.url}/api/swagger` });
      const me = await solo.call<User>('GET', 'user');
      expect(me.json).toMatchObject({ login_name: 'boss', email: 'boss@example.com', full_name: '', is_admin: true });
    } finally {
      await solo.sb.close();
    }
  });

  it('demoting an admin works while another admin exists; unknown source_id is 500; a short password is 400', async () => {
    h = await boot(ACCOUNT_SEED);
    expect((await h.call<User>('PATCH', 'admin/users/vera', { body: { login_name: 'vera', admin: false } })).json).toMatchObject({ is_admin: false });
    const src = await h.call('PATCH', 'admin/users/alice', { body: { login_name: 'alice', source_id: 42 } });
    expect(src.status).toBe(500);
    expect(src.json).toEqual(apiError(h, 'login source does not exist [id: 42]'));
    const pw = await h.call('PATCH', 'admin/users/alice', { body: { login_name: 'alice', password: 'short' } });
    expect(pw.status).toBe(400);
    expect(pw.json).toEqual(apiError(h, 'password must be at least 8 characters'));
    expect((await h.call('PATCH', 'admin/users/alice', { body: { login_name: 'alice', password: 'brand-new-pass' } })).status).toBe(200);
    expect((await h.call('GET', 'user', { token: null, headers: { authorization: basic('alice', 'brand-new-pass') } })).status).toBe(200);
    // LDAP users: a password is ignored silently
    expect((await h.call('PATCH', 'admin/users/dora', { body: { login_name: 'dora.ldap', password: 'x' } })).status).toBe(200);
  });

  it('can set the never-returned flags (they take effect, they are not shown)', async () => {
    h = await boot(ACCOUNT_SEED);
    const res = await h.call('PATCH', 'admin/users/alice', { body: { login_name: 'alice', allow_create_organization: false, max_repo_creation: 0 } });
    expect(res.status).toBe(200);
    expect(res.json).not.toHaveProperty('allow_create_organization');
    const org = await h.call('POST', 'admin/users/alice/orgs', { body: { username: 'alice-org' } });
    expect(org.status).toBe(500);
    expect(org.json).toEqual(apiError(h, 'user is not allowed to create organizations'));
  });

  it('answers 404 for an unknown user', async () => {
    h = await boot(ACCOUNT_SEED);
    const res = await h.call('PATCH', 'admin/users/Nobody', { body: { login_name: 'x' } });
    expect(res.status).toBe(404);
    expect(res.json).toEqual(apiError(h, 'user redirect does not exist [name: nobody]'));
  });
});

describe('DELETE /admin/users/{username}', () => {
  it('refuses a repository owner (422), then purges (204) with the repositories', async () => {
    h = await boot(ACCOUNT_SEED);
    const res = await h.call('DELETE', 'admin/users/alice');
    expect(res.status).toBe(422);
    const alice = (await h.call<User[]>('GET', 'admin/users?q=alice')).json[0]!;
    expect(res.json).toEqual(apiError(h, `user still has ownership of repositories [uid: ${alice.id}]`));
    const purge = await h.call('DELETE', 'admin/users/alice?purge=true');
    expect(purge.status).toBe(204);
    expect(purge.text).toBe('');
    expect((await h.call('GET', 'repos/alice/personal')).status).toBe(404);
    expect((await h.call('GET', 'user', { token: 'alice-token' })).status).toBe(401);
    expect((await h.call('DELETE', 'admin/users/alice')).status).toBe(404);
  });

  it('refuses an organisation member (422); purge deletes the organisations they alone own', async () => {
    h = await boot(ACCOUNT_SEED);
    const bob = (await h.call<User[]>('GET', 'admin/users?q=bob')).json[0]!;
    expect((await h.call('DELETE', 'admin/users/bob')).json).toEqual(apiError(h, `user still has membership of organizations [uid: ${bob.id}]`));
    await h.call('POST', 'admin/users/bob/orgs', { body: { username: 'bobcorp' } });
    await h.call('POST', 'admin/users/bobcorp/repos', { body: { name: 'tool' } });
    expect((await h.call('DELETE', 'admin/users/bob?purge=on')).status).toBe(204);
    expect((await h.call('GET', 'orgs/bobcorp')).status).toBe(404);
    expect((await h.call('GET', 'repos/bobcorp/tool')).status).toBe(404);
    // acme survives (bob was a member, not its last owner)
    expect((await h.call('GET', 'orgs/acme')).status).toBe(200);
    // a plain user with nothing is deleted without purge
    expect((await h.call('DELETE', 'admin/users/carol')).status).toBe(204);
  });

  it('refuses a package owner (422); purge deletes the packages', async () => {
    h = await boot({ ...ACCOUNT_SEED, packages: [{ owner: 'carol', type: 'npm', name: 'left-pad', version: '1.0.0' }] });
    const carol = (await h.call<User[]>('GET', 'admin/users?q=carol')).json[0]!;
    const res = await h.call('DELETE', 'admin/users/carol');
    expect(res.status).toBe(422);
    expect(res.json).toEqual(apiError(h, `user still has ownership of packages [uid: ${carol.id}]`));
    expect((await h.call('DELETE', 'admin/users/carol?purge=1')).status).toBe(204);
    expect((await h.call<unknown[]>('GET', 'admin/packages')).json).toEqual([]);
  });

  it('refuses yourself, an organisation and the last admin', async () => {
    h = await boot(ACCOUNT_SEED);
    expect((await h.call('DELETE', 'admin/users/root')).json).toEqual(apiError(h, 'you cannot delete yourself'));
    expect((await h.call('DELETE', 'admin/users/acme')).json).toEqual(apiError(h, 'acme is an organization not a user'));
    const solo = await boot({ users: [{ username: 'root', admin: true }, { username: 'helper', admin: true, token: 'helper-token' }] });
    try {
      await solo.call('PATCH', 'admin/users/helper', { body: { login_name: 'helper', admin: false } });
      await solo.call('PATCH', 'admin/users/helper', { body: { login_name: 'helper', admin: true } });
      // helper deletes root: root is not the last admin
      expect((await solo.call('DELETE', 'admin/users/root', { token: 'helper-token' })).status).toBe(204);
    } finally {
      await solo.sb.close();
    }
  });
});

describe('POST /admin/users/{username}/rename', () => {
  // erin: a local user (a user of an external login source cannot be renamed: flavours-behaviours.test.ts).
  it('keeps the id; the old name answers 307 with Location to the new name, query kept', async () => {
    h = await boot(ACCOUNT_SEED);
    const before = (await h.call<User[]>('GET', 'admin/users?q=erin')).json[0]!;
    const res = await h.call('POST', 'admin/users/erin/rename', { body: { new_username: 'erin-renamed' } });
    expect(res.status).toBe(204);
    const after = (await h.call<User[]>('GET', 'admin/users?q=erin-renamed')).json[0]!;
    expect(after.id).toBe(before.id);
    const get = await raw('GET', 'admin/users/erin/badges?x=1&y=a%20b');
    expect(get.status).toBe(307);
    expect(get.headers.get('location')).toBe('/api/v1/admin/users/erin-renamed/badges?x=1&y=a%20b');
    expect(await get.text()).toContain('Temporary Redirect');
    const patch = await raw('PATCH', 'admin/users/Erin', { body: { login_name: 'x' } });
    expect(patch.status).toBe(307);
    expect(patch.headers.get('location')).toBe('/api/v1/admin/users/erin-renamed');
    expect(await patch.text()).toBe('');
    // the redirect comes before the body binding, after the admin check
    expect((await raw('PATCH', 'admin/users/erin', { body: {} })).status).toBe(307);
    expect((await raw('PATCH', 'admin/users/erin', { token: 'alice-token', body: {} })).status).toBe(403);
    // public {username} routes redirect too
    expect((await raw('GET', 'users/erin/keys')).status).toBe(307);
    // followed, the request reaches the renamed account
    const followed = await h.call<User>('PATCH', 'admin/users/erin', { body: { login_name: 'erin', full_name: 'D.' } });
    expect(followed.json).toMatchObject({ login: 'erin-renamed', full_name: 'D.' });
  });

  it('is 204 for the same name, renames case-only without a redirect, 422 for taken and bad names', async () => {
    h = await boot(ACCOUNT_SEED);
    expect((await h.call('POST', 'admin/users/alice/rename', { body: { new_username: 'alice' } })).status).toBe(204);
    expect((await h.call('POST', 'admin/users/alice/rename', { body: { new_username: 'Alice' } })).status).toBe(204);
    expect((await h.call<User[]>('GET', 'admin/users?q=alice')).json[0]!.login).toBe('Alice');
    const taken = await h.call('POST', 'admin/users/alice/rename', { body: { new_username: 'Bob' } });
    expect(taken.status).toBe(422);
    expect(taken.json).toEqual(apiError(h, 'user already exists [name: Bob]'));
    expect((await h.call('POST', 'admin/users/alice/rename', { body: { new_username: 'acme' } })).json).toEqual(apiError(h, 'user already exists [name: acme]'));
    expect((await h.call('POST', 'admin/users/alice/rename', { body: { new_username: 'explore' } })).json).toEqual(apiError(h, 'name is reserved [name: explore]'));
    expect((await h.call('POST', 'admin/users/alice/rename', { body: { new_username: 'a..b' } })).json).toEqual(
      apiError(h, 'name is invalid [a..b]: must be valid alpha or numeric or dash(-_) or dot characters'),
    );
    expect((await h.call('POST', 'admin/users/alice/rename', { body: {} })).json).toEqual(apiError(h, '[NewName]: Required'));
    // the form key is new_name
    const form = await h.call('POST', 'admin/users/alice/rename', { rawBody: 'new_name=alicia', contentType: 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(204);
    expect((await h.call('POST', 'admin/users/acme/rename', { body: { new_username: 'acme2' } })).json).toEqual(apiError(h, 'acme is an organization not a user'));
  });

  it('creating a user with an old name removes the redirect', async () => {
    h = await boot(ACCOUNT_SEED);
    await h.call('POST', 'admin/users/carol/rename', { body: { new_username: 'caroline' } });
    expect((await raw('GET', 'admin/users/carol/badges')).status).toBe(307);
    const created = await h.call<User>('POST', 'admin/users', { body: { username: 'carol', email: 'new-carol@example.com', password: 'longenough1' } });
    expect(created.status).toBe(201);
    const badges = await raw('GET', 'admin/users/carol/badges');
    expect(badges.status).toBe(200);
    // renaming back drops the redirect from the new name and adds one from the old
    await h.call('POST', 'admin/users/caroline/rename', { body: { new_username: 'carrie' } });
    expect((await raw('GET', 'admin/users/caroline/badges')).headers.get('location')).toBe('/api/v1/admin/users/carrie/badges');
  });
});

describe('badges', () => {
  it('GET lists the user\'s badges (the model as Go encodes it) with X-Total-Count', async () => {
    h = await boot(ACCOUNT_SEED);
    const res = await h.call('GET', 'admin/users/dora/badges');
    expect(res.status).toBe(200);
    expect(res.json).toEqual([{ ID: 1, Slug: 'early', Description: 'Early adopter', ImageURL: 'https://example.com/early.png' }]);
    expect(res.headers.get('x-total-count')).toBe('1');
    expect(res.headers.get('link')).toBeNull();
    expect((await h.call('GET', 'admin/users/alice/badges')).json).toEqual([]);
  });

  it('POST adds all or nothing: an unknown or already-assigned slug is 500', async () => {
    h = await boot(ACCOUNT_SEED);
    const dora = (await h.call<User[]>('GET', 'admin/users?q=dora')).json[0]!;
    expect((await h.call('POST', 'admin/users/dora/badges', { body: { badge_slugs: [] } })).status).toBe(204);
    const unknown = await h.call('POST', 'admin/users/dora/badges', { body: { badge_slugs: ['helper', 'nope'] } });
    expect(unknown.status).toBe(500);
    expect(unknown.json).toEqual(apiError(h, 'badge does not exist [slug: nope]'));
    const dup = await h.call('POST', 'admin/users/dora/badges', { body: { badge_slugs: ['helper', 'early'] } });
    expect(dup.status).toBe(500);
    expect(dup.json).toEqual(apiError(h, `user badge already exists [user_id: ${dora.id}, badge_id: 1]`));
    expect((await h.call<unknown[]>('GET', 'admin/users/dora/badges')).json).toHaveLength(1);
    expect((await h.call('POST', 'admin/users/dora/badges', { body: { badge_slugs: ['helper', 'plain'] } })).status).toBe(204);
    expect((await h.call<{ Slug: string }[]>('GET', 'admin/users/dora/badges')).json.map((b) => b.Slug)).toEqual(['early', 'helper', 'plain']);
    expect((await h.call('POST', 'admin/users/dora/badges', { body: {} })).json).toEqual(apiError(h, '[BadgeSlugs]: Required'));
    expect((await h.call('POST', 'admin/users/dora/badges', { body: { badge_slugs: null } })).status).toBe(422);
  });

  it('DELETE takes a JSON body, removes what matches and is always 204', async () => {
    h = await boot(ACCOUNT_SEED);
    expect((await h.call('DELETE', 'admin/users/dora/badges', { body: { badge_slugs: ['nope', 'early'] } })).status).toBe(204);
    expect((await h.call('GET', 'admin/users/dora/badges')).json).toEqual([]);
    expect((await h.call('DELETE', 'admin/users/dora/badges', { body: { badge_slugs: ['early'] } })).status).toBe(204);
    expect((await h.call('DELETE', 'admin/users/dora/badges', { body: { badge_slugs: [] } })).status).toBe(204);
    expect((await h.call('DELETE', 'admin/users/dora/badges', { body: {} })).json).toEqual(apiError(h, '[BadgeSlugs]: Required'));
  });
});

describe('SSH keys', () => {
  type Key = { id: number; key: string; title: string; fingerprint: string; url: string; key_type?: string; user?: User; read_only?: boolean };

  it('POST /admin/users/{username}/keys creates a key (201 PublicKey) readable with GET /users/{username}/keys', async () => {
    h = await boot(ACCOUNT_SEED);
    const line = ed25519Key('alice@box');
    const res = await h.call<Key>('POST', 'admin/users/alice/keys', { body: { title: 'laptop', key: `  ${line}\n`, read_only: true } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ key: line, title: 'laptop', url: `${h.url}/api/v1/user/keys/${res.json.id}`, key_type: 'user', user: { login: 'alice', is_admin: false } });
    expect(res.json.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    // user keys are never read-only: the (omitempty) field is not sent
    expect(res.json).not.toHaveProperty('read_only');
    expect(Object.keys(res.json)).toEqual(['id', 'key', 'url', 'title', 'fingerprint', 'created_at', 'last_used_at', 'user', 'key_type']);
    const list = await h.call<Key[]>('GET', 'users/alice/keys', { token: 'bob-token' });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('1');
    // another user sees no owner and no key type
    expect(list.json).toEqual([{ id: res.json.id, key: line, url: res.json.url, title: 'laptop', fingerprint: res.json.fingerprint, created_at: expect.any(String), last_used_at: expect.any(String) }]);
    expect((await h.call<Key[]>('GET', `users/alice/keys?fingerprint=${encodeURIComponent(res.json.fingerprint)}`)).json).toHaveLength(1);
    expect((await h.call<Key[]>('GET', 'users/alice/keys?fingerprint=SHA256:nope')).json).toEqual([]);
    const seeded = await h.call<Key[]>('GET', 'users/dora/keys', { token: 'dora-token' });
    expect(seeded.json).toMatchObject([{ key: DORA_KEY, title: 'dora@laptop', key_type: 'user', user: { login: 'dora', login_name: 'dora.ldap' } }]);
  });

  it('answers 422 for a duplicate or malformed key and a used title', async () => {
    h = await boot(ACCOUNT_SEED);
    const dup = await h.call('POST', 'admin/users/alice/keys', { body: { title: 'again', key: DORA_KEY } });
    expect(dup.status).toBe(422);
    expect(dup.json).toEqual(apiError(h, 'Key content has been used as non-deploy key'));
    const bad = await h.call('POST', 'admin/users/alice/keys', { body: { title: 'x', key: 'not a key' } });
    expect(bad.status).toBe(422);
    expect((bad.json as { message: string }).message).toMatch(/^Invalid key content: /);
    expect((await h.call('POST', 'admin/users/alice/keys', { body: { title: 'x', key: 'ssh-rsa ' + DORA_KEY.split(' ')[1] } })).json).toEqual(
      apiError(h, 'Invalid key content: key type and content does not match: ssh-rsa - ssh-ed25519'),
    );
    expect((await h.call('POST', 'admin/users/alice/keys', { body: { title: 'x', key: rsaKey(2048) } })).json).toEqual(
      apiError(h, 'Invalid key content: key length is not enough: got 2048, needs 3071'),
    );
    expect((await h.call('POST', 'admin/users/dora/keys', { body: { title: 'dora@laptop', key: ed25519Key() } })).json).toEqual(apiError(h, 'Key title has been used'));
    expect((await h.call('POST', 'admin/users/alice/keys', { body: { key: ed25519Key() } })).json).toEqual(apiError(h, '[Title]: Required'));
    expect((await h.call('POST', 'admin/users/alice/keys', { body: { title: 't' } })).json).toEqual(apiError(h, '[Key]: Required'));
  });

  it('DELETE /admin/users/{username}/keys/{id}: 204, then 404; 403 for another user\'s key', async () => {
    h = await boot(ACCOUNT_SEED);
    const mine = await h.call<Key>('POST', 'admin/users/alice/keys', { body: { title: 'k', key: ed25519Key() } });
    const other = await h.call('DELETE', `admin/users/bob/keys/${mine.json.id}`);
    expect(other.status).toBe(403);
    expect(other.json).toEqual(apiError(h, 'You do not have access to this key'));
    expect((await h.call('DELETE', `admin/users/alice/keys/${mine.json.id}`)).status).toBe(204);
    const gone = await h.call('DELETE', `admin/users/alice/keys/${mine.json.id}`);
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual(notFoundError(h));
    expect((await h.call('DELETE', 'admin/users/alice/keys/abc')).status).toBe(404);
    expect((await h.call('GET', 'users/alice/keys')).json).toEqual([]);
  });

  it('GET /users/{username}/keys needs a token and pages', async () => {
    h = await boot(ACCOUNT_SEED);
    for (let i = 0; i < 3; i++) await h.call('POST', 'admin/users/bob/keys', { body: { title: `k${i}`, key: ed25519Key() } });
    const page = await h.call<Key[]>('GET', 'users/bob/keys?limit=2&page=2');
    expect(page.json.map((k) => k.title)).toEqual(['k2']);
    expect(page.headers.get('x-total-count')).toBe('3');
    expect((await h.call('GET', 'users/bob/keys', { token: null })).json).toEqual(apiError(h, 'token is required'));
    expect((await h.call('GET', 'users/nobody/keys')).status).toBe(404);
  });
});

describe('seed keys of the account endpoints', () => {
  it('loads auth_sources, badges, hooks and the per-user keys from YAML; they survive the state file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'forgeform-accounts-'));
    const file = join(dir, 'seed.yaml');
    writeFileSync(
      file,
      `auth_sources: [{ id: 3, name: sso, type: oauth2 }]
badges: [early, { slug: mentor, description: Mentor, image_url: "https://example.com/m.png" }]
users:
  - { username: root, admin: true }
  - username: ann
    source_id: 3
    login_name: ann@sso
    emails: [ann@second.example]
    keys: [{ title: work, key: "${ed25519Key()}" }]
    badges: [mentor, early]
    max_repo_creation: 0
    allow_git_hook: true
hooks:
  - { type: gitea, config: { url: "https://ci.example.com", content_type: form, secret: s, is_system_webhook: true }, events: [push, release], active: true }
`,
    );
    const state = buildState(loadSeedFile(file));
    const ann = state.userByName('ann')!;
    expect(ann).toMatchObject({ sourceId: 3, loginName: 'ann@sso', maxRepoCreation: 0, allowGitHook: true });
    expect(state.data.emails.filter((e) => e.userId === ann.id).map((e) => [e.email, e.isPrimary])).toEqual([
      ['ann@example.com', true],
      ['ann@second.example', false],
    ]);
    expect(state.data.publicKeys).toMatchObject([{ ownerId: ann.id, name: 'work' }]);
    expect(state.data.userBadges.map((b) => b.badgeId)).toEqual([2, 1]);
    expect(state.data.adminHooks).toMatchObject([{ isSystem: true, secret: 's', contentType: 'form', active: true }]);
    const copy = stateFromJSON(stateToJSON(state));
    // The state file keeps hook secrets hashed (never returned, so nothing is lost), and never hashes twice.
    expect(copy.data.adminHooks).toEqual([{ ...state.data.adminHooks[0], secret: expect.stringMatching(/^sandbox-hashed:/) as unknown }]);
    expect(stateFromJSON(stateToJSON(copy)).data.adminHooks).toEqual(copy.data.adminHooks);
    expect(copy.data.userBadges).toEqual(state.data.userBadges);
  });

  it('reports bad account keys with their path', () => {
    const bad = (seed: object): string => {
      try {
        buildState(seed);
      } catch (err) {
        expect(err).toBeInstanceOf(SeedError);
        return (err as Error).message;
      }
      throw new Error('no error');
    };
    expect(bad({ users: [{ username: 'a', badges: ['nope'] }] })).toBe('users[0].badges: badge does not exist [slug: nope]');
    expect(bad({ users: [{ username: 'a', source_id: 4 }] })).toBe('users[0].source_id: no login source 4 in auth_sources');
    expect(bad({ users: [{ username: 'a', keys: ['garbage'] }] })).toMatch(/^users\[0\]\.keys\[0\]: Invalid key content: /);
    expect(bad({ users: [{ username: 'a', emails: ['b@example.com'] }, { username: 'b' }] })).toBe('users[1]: e-mail already in use [email: b@example.com]');
    expect(bad({ users: [{ username: 'a', emails: [{ email: 'x@example.com', primary: true }] }] })).toMatch(/^users\[0\]\.emails\[0\]\.primary: unknown key/);
    expect(bad({ hooks: [{ type: 'gitea', config: { url: 'https://x.example' } }] })).toBe('hooks[0]: Missing config option: content_type');
    expect(bad({ hooks: [{ type: 'gitea', config: {}, evnts: [] }] })).toMatch(/^hooks\[0\]\.evnts: unknown key/);
    expect(bad({ badges: ['a', 'a'] })).toBe('badges[1].slug: duplicate badge "a"');
    expect(bad({ auth_sources: [{ id: 0 }] })).toBe('auth_sources[0].id: required, a number above 0');
  });
});
