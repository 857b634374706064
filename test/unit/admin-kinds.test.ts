import { describe, expect, it } from 'vitest';
import { opsInput } from '../support/ops-input.js';
import type { LoadedConfig } from '../../src/config/types.js';
import type { GiteaClient } from '../../src/gitea/client.js';
import { eventsToConfig, expandEvents, hookKind, normalizeEvents } from '../../src/kinds/hook/index.js';
import { runnerKind } from '../../src/kinds/runner/index.js';
import type { Scope } from '../../src/kinds/types.js';
import { sshKeyIdentity } from '../../src/kinds/user/extras.js';
import { userKind } from '../../src/kinds/user/index.js';
import { diffFields } from '../../src/plan/diff.js';
import { makeKindContext } from '../../src/plan/planner.js';
import { SecretTemplates } from '../../src/secret.js';
import { planRequest } from '../../src/model/index.js';

const secretTemplates = new SecretTemplates();
secretTemplates.record({ file: 'forgeform.yaml', line: 1, col: 1 }, 'pw-from-env', '${PW}');
const loaded = { config: { version: 1 }, secrets: new Map([['PW', 'pw-from-env']]), secretTemplates } as unknown as LoadedConfig;
const ctx = makeKindContext({} as GiteaClient, loaded);
const server: Scope = { type: 'server', name: '' };

describe('hook events', () => {
  it('expand issues and pull_request as Gitea stores them, and default to push', () => {
    expect(expandEvents(['push', 'issues'])).toEqual(['issue_assign', 'issue_comment', 'issue_label', 'issue_milestone', 'issues', 'push']);
    expect(expandEvents(['pull_request_only', 'issues_only'])).toEqual(['issues', 'pull_request']);
    expect(expandEvents(['Pull_Request'])).toContain('pull_request_review');
    expect(expandEvents([])).toEqual(['push']);
  });

  it('compare as sets after the expansion, in any order', () => {
    const current = hookKind.fromServer({ id: 1, type: 'gitea', config: { url: 'https://x', content_type: 'json' }, events: ['issue_label', 'push', 'issues', 'issue_comment', 'issue_milestone', 'issue_assign'] });
    expect(diffFields(hookKind.fields, { events: expandEvents(['issues', 'push']) }, current.fields)).toEqual([]);
    expect(diffFields(hookKind.fields, { events: expandEvents(['issues_only', 'push']) }, current.fields)).toHaveLength(1);
  });

  it('turn back into the config names that select exactly the same events', () => {
    for (const written of [['push'], ['issues', 'create'], ['issues_only', 'pull_request_review'], ['pull_request', 'issue_comment'], ['pull_request_only', 'pull_request_sync']]) {
      const stored = expandEvents(written);
      expect(expandEvents(eventsToConfig(stored))).toEqual(stored);
    }
    expect(eventsToConfig(expandEvents(['issues', 'pull_request']))).toEqual(['issues', 'pull_request']);
    expect(normalizeEvents(['pull_request_review'])).toEqual(['pull_request_review']);
    // Gitea ≤ 1.23 and Forgejo report the review as approved + rejected, and pull_request_review_comment for the pull_request_comment flag.
    expect(normalizeEvents(['pull_request_review_approved', 'pull_request_review_rejected'])).toEqual(['pull_request_review']);
    expect(normalizeEvents(['pull_request_comment', 'pull_request_review_comment'])).toEqual(['pull_request_comment']);
    expect(expandEvents(['pull_request_comment'])).toEqual(normalizeEvents(['pull_request_comment', 'pull_request_review_comment']));
  });
});

describe('hook identity and edits', () => {
  const current = { ...hookKind.fromServer({ id: 9, type: 'slack', config: { url: 'https://s', content_type: 'json', channel: '#a', username: 'bot', icon_url: '', color: 'good' }, events: ['push'], branch_filter: 'main', active: true }) };
  it('is scope + type + url', () => {
    expect(current.key).toBe('system slack https://s');
  });
  it('an edit carries the whole state: the desired fields and the current ones Gitea would reset', async () => {
    const d = await hookKind.desired({ ...planRequest(hookKind, server, ctx), entry: { version: 1, hooks: [{ url: 'https://s', type: 'slack', channel: '#b' }] } });
    const ops = hookKind.ops(opsInput(hookKind, { scope: server, action: 'update', desired: d!.objects[0]!, current, changed: ['channel'], ctx }));
    expect(ops).toEqual([
      {
        method: 'PATCH',
        path: 'admin/hooks/9',
        body: { config: { url: 'https://s', content_type: 'json', channel: '#b', username: 'bot', icon_url: '', color: 'good' }, events: ['push'], branch_filter: 'main', active: true },
        onStatus: { '500': expect.any(String) as unknown },
      },
    ]);
  });
  it('a secret written in the config itself is refused', async () => {
    const d = await hookKind.desired({ ...planRequest(hookKind, server, ctx), entry: { version: 1, hooks: [{ url: 'https://s', secret: 'literal' }, { url: 'https://t', secret: 'pw-from-env' }] } });
    expect(d!.problems.map((p) => p.path)).toEqual([['hooks', 0, 'secret']]);
  });
});

describe('users', () => {
  it('identify SSH keys by type and key material, not by comment', () => {
    const a = sshKeyIdentity('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINqTQkNGARZ35lWV7p0/JmhtEM5fyqkOTOKq7lBVaSLl alice@laptop');
    expect(a).toBe(sshKeyIdentity('  ssh-ed25519   AAAAC3NzaC1lZDI1NTE5AAAAINqTQkNGARZ35lWV7p0/JmhtEM5fyqkOTOKq7lBVaSLl other comment'));
    expect(a).toMatch(/^ssh-ed25519 SHA256:[A-Za-z0-9+/]{43}$/);
  });

  it('compare e-mails case-insensitively and read is_admin as admin', () => {
    const current = userKind.fromServer({ id: 3, login: 'alice', login_name: '', source_id: 0, email: 'Alice@Example.com', is_admin: true });
    expect(current.fields).toMatchObject({ admin: true, email: 'Alice@Example.com' });
    const d = { key: 'alice', fields: { email: 'alice@example.com' }, path: [] };
    expect(diffFields(userKind.fields, d.fields, current.fields, (f) => userKind.compare!(f, { desired: d, current, prepared: undefined }))).toEqual([]);
  });

  it('an edit sends login_name and source_id, then only the changed fields', () => {
    const current = userKind.fromServer({ id: 3, login: 'alice', login_name: 'alice.ldap', source_id: 2, email: 'a@x', full_name: 'A' });
    const ops = userKind.ops(opsInput(userKind, { scope: server, action: 'update', desired: { key: 'alice', fields: { full_name: 'B', email: 'a@x', max_repo_creation: 4 }, path: [] }, current, changed: ['full_name', 'max_repo_creation'], ctx }));
    expect(ops).toEqual([{ method: 'PATCH', path: 'admin/users/alice', body: { login_name: 'alice.ldap', source_id: 2, full_name: 'B', max_repo_creation: 4 } }]);
  });

  it('a create sends what POST takes, then one PATCH for what Gitea cannot set on create', () => {
    const ops = userKind.ops(opsInput(userKind, { scope: server, action: 'create', desired: { key: 'bot', fields: { email: 'b@x', password: 'pw', admin: true, active: true, allow_git_hook: false }, path: [] }, changed: [], ctx }));
    expect(ops.map((o) => [o.method, o.path, o.body])).toEqual([
      // Marked unfinished until the PATCH, which replaces the login name (issue 18 §4).
      ['POST', 'admin/users', { username: 'bot', email: 'b@x', password: 'pw', login_name: 'forgeform:unfinished' }],
      ['PATCH', 'admin/users/bot', { login_name: 'bot', source_id: 0, admin: true, allow_git_hook: false }],
    ]);
  });

  it('a create with nothing left for a PATCH, or with a declared login name, is not marked', () => {
    const plain = userKind.ops(opsInput(userKind, { scope: server, action: 'create', desired: { key: 'bot', fields: { email: 'b@x', password: 'pw', admin: false }, path: [] }, changed: [], ctx }));
    expect(plain.map((o) => [o.method, o.body])).toEqual([['POST', { username: 'bot', email: 'b@x', password: 'pw' }]]);
    const named = userKind.ops(opsInput(userKind, { scope: server, action: 'create', desired: { key: 'bot', fields: { email: 'b@x', login_name: 'b.ldap', admin: true }, path: [] }, changed: [], ctx }));
    expect(named[0]!.body).toEqual({ username: 'bot', email: 'b@x', login_name: 'b.ldap' });
  });

  it('an unfinished user reads what only the PATCH sets as unknown, and its edit replaces the mark', () => {
    const current = userKind.fromServer({ id: 4, login: 'bot', login_name: 'forgeform:unfinished', source_id: 0, email: 'b@x' });
    expect(current.fields).toMatchObject({ max_repo_creation: null, allow_git_hook: null });
    const finished = userKind.fromServer({ id: 4, login: 'bot', login_name: 'bot', source_id: 0, email: 'b@x' });
    expect('max_repo_creation' in finished.fields).toBe(false);
    const ops = userKind.ops(opsInput(userKind, { scope: server, action: 'update', desired: { key: 'bot', fields: { email: 'b@x', max_repo_creation: 3 }, path: [] }, current, changed: ['max_repo_creation'], ctx }));
    expect(ops.map((o) => o.body)).toEqual([{ login_name: 'bot', source_id: 0, max_repo_creation: 3 }]);
  });
});

describe('runners', () => {
  it('always send disabled, and keep the online status out of the stale-plan digest', () => {
    const current = runnerKind.fromServer({ id: 5, name: 'r', status: 'offline', busy: false, disabled: false });
    expect(runnerKind.ops(opsInput(runnerKind, { scope: server, action: 'update', desired: { key: 'r', fields: { disabled: true }, path: [] }, current, changed: ['disabled'], ctx }))).toEqual([
      { method: 'PATCH', path: 'admin/actions/runners/5', body: { disabled: true } },
    ]);
    expect(runnerKind.guardedByServer).toContain('status');
  });
});
