import { afterEach, describe, expect, it } from 'vitest';
import { apiError, basic, boot, type Harness } from './helpers.js';

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
  });

  it('creates the labels of issue_labels', async () => {
    h = await boot();
    await h.call('POST', 'admin/users/acme/repos', { body: { name: 'fresh', issue_labels: 'Default' } });
    const labels = await h.call<{ name: string }[]>('GET', 'repos/acme/fresh/labels');
    expect(labels.json.map((l) => l.name)).toEqual(['bug', 'duplicate', 'enhancement', 'help wanted', 'invalid', 'question', 'wontfix']);
  });
});
