import { afterEach, describe, expect, it } from 'vitest';
import { apiError, boot, type Harness, notFoundError } from './helpers.js';

type Rule = Record<string, unknown>;

let h: Harness;
afterEach(async () => h?.sb.close());

const BP = 'repos/acme/widgets/branch_protections';

describe('branch protections: access', () => {
  it('needs a token and repository-admin rights for every method, GET included', async () => {
    h = await boot();
    const anon = await h.call('GET', BP, { token: null });
    expect(anon.status).toBe(401);
    expect(anon.json).toEqual(apiError(h, 'token is required'));
    for (const token of ['bob-token', 'rita-token']) {
      const res = await h.call('GET', BP, { token });
      expect(res.status).toBe(403);
      expect(res.json).toEqual(apiError(h, 'user should be an owner or a collaborator with admin write of a repository'));
    }
    expect((await h.call('GET', BP, { token: 'olga-token' })).status).toBe(200); // organisation owner
    expect((await h.call('GET', 'repos/alice/personal/branch_protections', { token: 'alice-token' })).status).toBe(200); // repository owner
    expect((await h.call('GET', 'repos/alice/personal/branch_protections', { token: 'bob-token' })).status).toBe(403); // write collaborator
  });

  it('answers 404 for a missing or invisible repository before asking for a token', async () => {
    h = await boot();
    for (const path of ['repos/acme/nothing/branch_protections', 'repos/acme/secret/branch_protections', 'repos/nobody/x/branch_protections']) {
      const res = await h.call('GET', path, { token: null });
      expect(res.status).toBe(404);
      expect(res.json).toEqual(notFoundError(h));
    }
    expect((await h.call('GET', 'repos/acme/secret/branch_protections', { token: 'carol-token' })).status).toBe(404);
  });
});

describe('branch protections: create', () => {
  it('creates with defaults: a body with only rule_name blocks pushes; no id; null status_check_contexts; priority max+1', async () => {
    h = await boot();
    const res = await h.call<Rule>('POST', BP, { body: { rule_name: 'main' } });
    expect(res.status).toBe(201);
    expect(res.json).not.toHaveProperty('id');
    expect(res.json).toMatchObject({
      branch_name: 'main',
      rule_name: 'main',
      priority: 1,
      enable_push: false,
      enable_push_whitelist: false,
      push_whitelist_usernames: [],
      push_whitelist_teams: [],
      status_check_contexts: null,
      required_approvals: 0,
      approvals_whitelist_username: [],
      enable_deletion: false,
      deletion_allowlist_usernames: [],
      protected_file_patterns: '',
    });
    expect(typeof res.json.created_at).toBe('string');
    const second = await h.call<Rule>('POST', BP, { body: { rule_name: 'dev', priority: 0 } });
    expect(second.json.priority).toBe(2);
    const explicit = await h.call<Rule>('POST', BP, { body: { rule_name: 'x', priority: 2 } });
    expect(explicit.json.priority).toBe(2); // duplicates allowed
  });

  it('answers 403 "Branch protection already exist" for a duplicate and 400 when both names are empty', async () => {
    h = await boot();
    await h.call('POST', BP, { body: { rule_name: 'main' } });
    const dup = await h.call('POST', BP, { body: { rule_name: 'main', enable_push: true } });
    expect(dup.status).toBe(403);
    expect(dup.json).toEqual(apiError(h, 'Branch protection already exist'));
    const none = await h.call('POST', BP, { body: {} });
    expect(none.status).toBe(400);
    expect(none.json).toEqual(apiError(h, 'both rule_name and branch_name are empty'));
    const legacy = await h.call<Rule>('POST', BP, { body: { branch_name: 'legacy' } });
    expect(legacy.status).toBe(201);
    expect(legacy.json.rule_name).toBe('legacy');
  });

  it('gates the whitelist flags on enable_push (and force push on enable_force_push)', async () => {
    h = await boot();
    const gated = await h.call<Rule>('POST', BP, {
      body: { rule_name: 'a', enable_push_whitelist: true, push_whitelist_deploy_keys: true, enable_force_push: true, enable_force_push_allowlist: true, push_whitelist_usernames: ['bob'] },
    });
    expect(gated.json).toMatchObject({ enable_push: false, enable_push_whitelist: false, push_whitelist_deploy_keys: false, enable_force_push: false, enable_force_push_allowlist: false });
    // lists are saved even when their flag is off
    expect(gated.json.push_whitelist_usernames).toEqual(['bob']);
    const open = await h.call<Rule>('POST', BP, {
      body: { rule_name: 'b', enable_push: true, enable_push_whitelist: true, push_whitelist_deploy_keys: true, enable_force_push: true, enable_force_push_allowlist: true, force_push_allowlist_deploy_keys: true },
    });
    expect(open.json).toMatchObject({ enable_push: true, enable_push_whitelist: true, push_whitelist_deploy_keys: true, enable_force_push: true, enable_force_push_allowlist: true, force_push_allowlist_deploy_keys: true });
    const negative = await h.call<Rule>('POST', BP, { body: { rule_name: 'c', required_approvals: -3 } });
    expect(negative.json.required_approvals).toBe(0);
  });

  it('answers 422 for an unknown user or team, and drops users and teams without access silently', async () => {
    h = await boot();
    const user = await h.call('POST', BP, { body: { rule_name: 'u', push_whitelist_usernames: ['bob', 'ghost'] } });
    expect(user.status).toBe(422);
    expect(user.json).toEqual(apiError(h, 'user does not exist [uid: 0, name: ghost]'));
    const team = await h.call('POST', BP, { body: { rule_name: 't', merge_whitelist_teams: ['ghosts'] } });
    expect(team.status).toBe(422);
    expect((team.json as { message: string }).message).toMatch(/^team does not exist \[org_id \d+, team_id 0, name: ghosts\]$/);
    expect((await h.call('GET', BP)).json).toEqual([]);

    const res = await h.call<Rule>('POST', BP, {
      body: {
        rule_name: 'main',
        enable_push: true,
        push_whitelist_usernames: ['BOB', 'carol', 'rita', 'root'],
        approvals_whitelist_username: ['rita', 'carol'],
        push_whitelist_teams: ['devs', 'nobody', 'Readers'],
        deletion_allowlist_usernames: ['bob', 'mia'],
      },
    });
    expect(res.status).toBe(201);
    // carol has no access, rita only reads; root is an owner (explicit access through the Owners team)
    expect(res.json.push_whitelist_usernames).toEqual(['root', 'bob']);
    expect(res.json.approvals_whitelist_username).toEqual(['rita']);
    // "nobody" has no access to widgets; names come back as stored
    expect(res.json.push_whitelist_teams).toEqual(['devs', 'readers']);
    expect(res.json.deletion_allowlist_usernames).toEqual(['bob']);
  });

  it('ignores team lists on repositories owned by a user', async () => {
    h = await boot();
    const res = await h.call<Rule>('POST', 'repos/alice/personal/branch_protections', {
      token: 'alice-token',
      body: { rule_name: 'main', push_whitelist_teams: ['does-not-exist'], push_whitelist_usernames: ['bob', 'alice'] },
    });
    expect(res.status).toBe(201);
    expect(res.json.push_whitelist_teams).toEqual([]);
    // read-back order: explicit readers by id, the owner last
    expect(res.json.push_whitelist_usernames).toEqual(['bob', 'alice']);
  });

  it('answers 423 on writes to an archived repository, after binding; reads still work', async () => {
    h = await boot();
    const path = 'repos/acme/attic/branch_protections';
    expect((await h.call('GET', path)).status).toBe(200);
    const post = await h.call('POST', path, { body: { rule_name: 'x' } });
    expect(post.status).toBe(423);
    expect(post.json).toEqual(apiError(h, 'repo is archived'));
    expect((await h.call('POST', path, { body: { rule_name: 5 } })).status).toBe(422);
    expect((await h.call('PATCH', `${path}/main`, { body: { enable_push: true } })).status).toBe(423);
    expect((await h.call('PATCH', `${path}/missing`, { body: {} })).status).toBe(423);
    expect((await h.call('DELETE', `${path}/main`)).status).toBe(423);
    expect((await h.call('POST', `${path}/priority`, { body: { ids: [] } })).status).toBe(423);
    expect((await h.call('GET', `${path}/main`)).status).toBe(200);
  });

  it('rejects a wrong JSON type with the Go decoder message', async () => {
    h = await boot();
    const res = await h.call('POST', BP, { body: { rule_name: 'x', enable_push: 'yes' } });
    expect(res.status).toBe(422);
    expect(res.json).toEqual(apiError(h, '[]: json: cannot unmarshal string into Go struct field CreateBranchProtectionOption.enable_push of type bool'));
    const ct = await h.call('POST', BP, { rawBody: '{"rule_name":"x"}', contentType: 'text/plain' });
    expect(ct.status).toBe(422);
    expect(ct.json).toEqual(apiError(h, '[]: Unsupported Content-Type'));
  });
});

describe('branch protections: names with slashes and globs', () => {
  it('creates, reads, patches and deletes release/* by its escaped and raw name; branch_name is "" for globs', async () => {
    h = await boot();
    const created = await h.call<Rule>('POST', BP, { body: { rule_name: 'release/*', enable_push: true } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ rule_name: 'release/*', branch_name: '' });
    const escaped = await h.call<Rule>('GET', `${BP}/release%2F*`);
    expect(escaped.status).toBe(200);
    expect(escaped.json.rule_name).toBe('release/*');
    const raw = await h.call<Rule>('GET', `${BP}/release/*`);
    expect(raw.status).toBe(200);
    const lower = await h.call<Rule>('GET', `${BP}/RELEASE%2F*`);
    expect(lower.status).toBe(404); // exact, case-sensitive lookup
    const patched = await h.call<Rule>('PATCH', `${BP}/release%2F*`, { body: { required_approvals: 2 } });
    expect(patched.json).toMatchObject({ rule_name: 'release/*', required_approvals: 2, enable_push: true });
    expect((await h.call('DELETE', `${BP}/release%2F*`)).status).toBe(204);
    expect((await h.call('GET', `${BP}/release/*`)).status).toBe(404);
    expect((await h.call('DELETE', `${BP}/release/*`)).status).toBe(404);
  });

  it('lists rules unpaged by priority, plain names before globs, then creation; the priority endpoint', async () => {
    h = await boot();
    for (const name of ['z/*', 'main', 'dev', 'a*']) await h.call('POST', BP, { body: { rule_name: name, priority: name === 'dev' ? 9 : 1 } });
    const list = await h.call<Rule[]>('GET', `${BP}?limit=1&page=2`);
    expect(list.headers.get('x-total-count')).toBeNull();
    expect(list.headers.get('link')).toBeNull();
    expect(list.json.map((r) => r.rule_name)).toEqual(['main', 'z/*', 'a*', 'dev']);
    const ids = h.sb.state.data.branchProtections.filter((p) => p.repoId === h.sb.state.repoByName(h.sb.state.orgByName('acme')!.id, 'widgets')!.id).map((p) => p.id);
    const [zId, mainId, devId] = ids;
    const prio = await h.call('POST', `${BP}/priority`, { body: { ids: [devId, 9999, zId] } });
    expect(prio.status).toBe(204);
    const after = (await h.call<Rule[]>('GET', BP)).json;
    expect(after.map((r) => `${String(r.rule_name)}:${String(r.priority)}`)).toEqual(['main:1', 'dev:1', 'a*:1', 'z/*:3']);
    expect(mainId).toBeDefined();
    // GET …/priority addresses a rule named "priority"
    expect((await h.call('GET', `${BP}/priority`)).status).toBe(404);
  });
});

describe('branch protections: PATCH', () => {
  it('leaves omitted and null fields unchanged, applies false/0/"", clears lists with []', async () => {
    h = await boot();
    await h.call('POST', BP, {
      body: { rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['bob'], required_approvals: 2, enable_status_check: true, status_check_contexts: ['ci'], protected_file_patterns: '*.lock' },
    });
    const nulls = await h.call<Rule>('PATCH', `${BP}/main`, { body: { required_approvals: null, push_whitelist_usernames: null, status_check_contexts: null } });
    expect(nulls.json).toMatchObject({ required_approvals: 2, push_whitelist_usernames: ['bob'], status_check_contexts: ['ci'] });
    const zero = await h.call<Rule>('PATCH', `${BP}/main`, { body: { required_approvals: 0, protected_file_patterns: '', enable_status_check: false, status_check_contexts: [], push_whitelist_usernames: [] } });
    expect(zero.json).toMatchObject({ required_approvals: 0, protected_file_patterns: '', enable_status_check: false, status_check_contexts: [], push_whitelist_usernames: [] });
    const prio = await h.call<Rule>('PATCH', `${BP}/main`, { body: { priority: 0 } });
    expect(prio.json.priority).toBe(0);
    const neg = await h.call<Rule>('PATCH', `${BP}/main`, { body: { required_approvals: 3 } });
    expect((await h.call<Rule>('PATCH', `${BP}/main`, { body: { required_approvals: -1 } })).json.required_approvals).toBe(neg.json.required_approvals);
    const missing = await h.call('PATCH', `${BP}/nope`, { body: {} });
    expect(missing.status).toBe(404);
  });

  it('applies the flag hierarchy: whitelist flags count only with enable_push: true in the same body', async () => {
    h = await boot();
    await h.call('POST', BP, { body: { rule_name: 'main', enable_push: true } });
    const ignored = await h.call<Rule>('PATCH', `${BP}/main`, { body: { enable_push_whitelist: true, push_whitelist_deploy_keys: true } });
    expect(ignored.json).toMatchObject({ enable_push: true, enable_push_whitelist: false, push_whitelist_deploy_keys: false });
    const applied = await h.call<Rule>('PATCH', `${BP}/main`, { body: { enable_push: true, enable_push_whitelist: true, push_whitelist_deploy_keys: true } });
    expect(applied.json).toMatchObject({ enable_push_whitelist: true, push_whitelist_deploy_keys: true });
    const off = await h.call<Rule>('PATCH', `${BP}/main`, { body: { enable_push: false } });
    expect(off.json).toMatchObject({ enable_push: false, enable_push_whitelist: false, push_whitelist_deploy_keys: false });
    const force = await h.call<Rule>('PATCH', `${BP}/main`, { body: { enable_force_push: true, enable_force_push_allowlist: true } });
    expect(force.json).toMatchObject({ enable_force_push: true, enable_force_push_allowlist: true });
    const unforced = await h.call<Rule>('PATCH', `${BP}/main`, { body: { enable_force_push: false } });
    expect(unforced.json).toMatchObject({ enable_force_push: false, enable_force_push_allowlist: false });
  });

  it('reproduces the ≤ v1.25 force-push user list bug', async () => {
    h = await boot();
    await h.call('POST', BP, { body: { rule_name: 'main', force_push_allowlist_usernames: ['bob'] } });
    const ignored = await h.call<Rule>('PATCH', `${BP}/main`, { body: { force_push_allowlist_usernames: ['root'] } });
    expect(ignored.json.force_push_allowlist_usernames).toEqual(['bob']);
    const cleared = await h.call<Rule>('PATCH', `${BP}/main`, { body: { force_push_allowlist_deploy_keys: false } });
    expect(cleared.json.force_push_allowlist_usernames).toEqual([]);
    const set = await h.call<Rule>('PATCH', `${BP}/main`, { body: { force_push_allowlist_usernames: ['root'], force_push_allowlist_deploy_keys: false } });
    expect(set.json.force_push_allowlist_usernames).toEqual(['root']);
  });

  it('answers 422 for an unknown user on PATCH and leaves the rule unchanged', async () => {
    h = await boot();
    await h.call('POST', BP, { body: { rule_name: 'main', merge_whitelist_usernames: ['bob'] } });
    const res = await h.call('PATCH', `${BP}/main`, { body: { enable_merge_whitelist: true, merge_whitelist_usernames: ['nobody'] } });
    expect(res.status).toBe(422);
    const rule = (await h.call<Rule>('GET', `${BP}/main`)).json;
    expect(rule).toMatchObject({ enable_merge_whitelist: false, merge_whitelist_usernames: ['bob'] });
  });

  it('copies the bypass and deletion allowlist fields', async () => {
    h = await boot();
    await h.call('POST', BP, { body: { rule_name: 'main', enable_deletion: true, enable_bypass_allowlist: true, bypass_allowlist_usernames: ['bob'], bypass_allowlist_teams: ['devs'] } });
    const res = await h.call<Rule>('PATCH', `${BP}/main`, { body: { enable_deletion_allowlist: true, deletion_allowlist_usernames: ['root'], deletion_allowlist_teams: ['devs'] } });
    expect(res.json).toMatchObject({
      enable_deletion: true,
      enable_deletion_allowlist: true,
      deletion_allowlist_usernames: ['root'],
      deletion_allowlist_teams: ['devs'],
      enable_bypass_allowlist: true,
      bypass_allowlist_usernames: ['bob'],
      bypass_allowlist_teams: ['devs'],
    });
  });

  it('deletes rules (204) and answers 404 for unknown ones', async () => {
    h = await boot();
    await h.call('POST', BP, { body: { rule_name: 'main' } });
    expect((await h.call('DELETE', `${BP}/main`)).status).toBe(204);
    const again = await h.call('DELETE', `${BP}/main`);
    expect(again.status).toBe(404);
    expect(again.json).toEqual(notFoundError(h));
  });
});

describe('branch protections: seeds', () => {
  it('stores seeded rules as a create would', async () => {
    h = await boot();
    const rule = (await h.call<Rule>('GET', 'repos/acme/attic/branch_protections/main')).json;
    expect(rule).toMatchObject({ rule_name: 'main', enable_push: false, priority: 1, status_check_contexts: null });
  });
});
