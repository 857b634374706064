import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT_SEED } from './account-fixtures.js';
import { apiError, boot, type Harness, notFoundError } from './helpers.js';
import type { ApiHook } from '../support/api-types.js';

let h: Harness;
afterEach(async () => h?.sb.close());

const ISSUE_EVENTS = ['issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment'];
const PULL_EVENTS = [
  'pull_request', 'pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment', 'pull_request_review',
  'pull_request_review_request', 'pull_request_sync',
];

const sorted = (a: string[]): string[] => [...a].sort();

const BODY = { type: 'gitea', config: { url: 'https://example.com/hook', content_type: 'json', secret: 'top-secret' }, authorization_header: 'Bearer abc' };

describe('POST /admin/hooks', () => {
  it('creates a default, inactive hook; secret and authorization header are never returned', async () => {
    h = await boot(ACCOUNT_SEED);
    const res = await h.call<ApiHook>('POST', 'admin/hooks', { body: BODY });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ type: 'gitea', name: '', branch_filter: '', config: { url: 'https://example.com/hook', content_type: 'json' }, events: ['push'], authorization_header: '', active: false });
    expect(res.json.config).toEqual({ url: 'https://example.com/hook', content_type: 'json' });
    expect(res.text).not.toContain('top-secret');
    expect(res.text).not.toContain('Bearer abc');
    // a default hook: not in the default (system) list, in type=default and type=all
    const system = await h.call<ApiHook[]>('GET', 'admin/hooks');
    expect(system.json.map((x) => x.id)).not.toContain(res.json.id);
    expect((await h.call<ApiHook[]>('GET', 'admin/hooks?type=default')).json.map((x) => x.id)).toContain(res.json.id);
    const got = await h.call<ApiHook>('GET', `admin/hooks/${res.json.id}`);
    expect(got.json).toMatchObject({ id: res.json.id, authorization_header: '', config: { url: 'https://example.com/hook', content_type: 'json' } });
    expect(got.text).not.toContain('top-secret');
  });

  it('creates a system hook when config.is_system_webhook is true; expands issues and pull_request', async () => {
    h = await boot(ACCOUNT_SEED);
    const res = await h.call<ApiHook>('POST', 'admin/hooks', {
      body: { ...BODY, active: true, name: '  nightly  ', branch_filter: '{main,release/*}', events: ['Issues', 'PULL_REQUEST', 'create', 'bogus'], config: { ...BODY.config, is_system_webhook: 'TRUE' } },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ active: true, name: 'nightly', branch_filter: '{main,release/*}' });
    expect(sorted(res.json.events)).toEqual(sorted(['create', ...ISSUE_EVENTS, ...PULL_EVENTS]));
    expect(res.json.config).not.toHaveProperty('is_system_webhook');
    expect((await h.call<ApiHook[]>('GET', 'admin/hooks')).json.map((x) => x.id)).toContain(res.json.id);
    const only = await h.call<ApiHook>('POST', 'admin/hooks', { body: { ...BODY, events: ['issues_only', 'pull_request_only', 'issue_label'] } });
    expect(sorted(only.json.events)).toEqual(['issue_label', 'issues', 'pull_request']);
  });

  it("reports events as each release does: Gitea ≤ 1.23 and Forgejo walk the event checkers (the review as approved + rejected, pull_request_review_comment for pull_request_comment), Gitea 1.24+ the stored keys", async () => {
    const body = { ...BODY, events: ['pull_request_comment', 'pull_request_review', 'push'] };
    for (const flavour of ['gitea@1.21', 'gitea@1.23', 'forgejo@7', 'forgejo@15'] as const) {
      h = await boot({ ...ACCOUNT_SEED, flavour });
      const res = await h.call<ApiHook>('POST', 'admin/hooks', { body });
      // Struct order (models/webhook/webhook.go EventCheckers), every time.
      expect(res.json.events, flavour).toEqual(['push', 'pull_request_comment', 'pull_request_review_approved', 'pull_request_review_rejected', 'pull_request_review_comment']);
      expect((await h.call<ApiHook>('GET', `admin/hooks/${res.json.id}`)).json.events, flavour).toEqual(res.json.events);
      const comment = await h.call<ApiHook>('POST', 'admin/hooks', { body: { ...BODY, events: ['pull_request_comment'] } });
      expect(comment.json.events, flavour).toEqual(['pull_request_comment', 'pull_request_review_comment']);
      await h.sb.close();
    }
    for (const flavour of ['gitea@1.24', 'gitea@1.25'] as const) {
      h = await boot({ ...ACCOUNT_SEED, flavour });
      const res = await h.call<ApiHook>('POST', 'admin/hooks', { body });
      expect(sorted(res.json.events), flavour).toEqual(['pull_request_comment', 'pull_request_review', 'push']);
      await h.sb.close();
    }
  });

  it('keeps slack settings in config', async () => {
    h = await boot(ACCOUNT_SEED);
    const res = await h.call<ApiHook>('POST', 'admin/hooks', { body: { type: 'slack', config: { url: 'https://hooks.slack.com/a', content_type: 'form', channel: ' #dev ', username: 'bot' } } });
    expect(res.status).toBe(201);
    expect(res.json.config).toEqual({ url: 'https://hooks.slack.com/a', content_type: 'form', channel: '#dev', username: 'bot', icon_url: '', color: '' });
  });

  it('validates as the server does (422, and 400 for a bad Slack channel)', async () => {
    h = await boot(ACCOUNT_SEED);
    const post = async (body: unknown): Promise<{ status: number; json: unknown }> => h.call('POST', 'admin/hooks', { body });
    expect((await post({ config: BODY.config })).json).toEqual(apiError(h, '[Type]: Required'));
    expect((await post({ type: 'gitea' })).json).toEqual(apiError(h, '[Config]: Required'));
    expect((await post({ type: 'teams', config: BODY.config })).json).toEqual(apiError(h, 'Invalid hook type: teams'));
    expect((await post({ type: 'gitea', config: {} })).json).toEqual(apiError(h, 'Missing config option: url'));
    expect((await post({ type: 'gitea', config: { url: 'https://x.example' } })).json).toEqual(apiError(h, 'Missing config option: content_type'));
    expect((await post({ type: 'gitea', config: { url: 'https://x.example', content_type: 'xml' } })).json).toEqual(apiError(h, 'Invalid content type'));
    expect((await post({ type: 'gitea', config: { url: 'ftp://x.example', content_type: 'json' } })).json).toEqual(apiError(h, 'Invalid url'));
    expect((await post({ type: 'gitea', config: { url: 'http://x.example:8o', content_type: 'json' } })).json).toEqual(apiError(h, 'Invalid url'));
    expect((await post({ ...BODY, config: { ...BODY.config, is_system_webhook: 'yes' } })).json).toEqual(apiError(h, 'Invalid is_system_webhook value'));
    expect((await post({ type: 'slack', config: BODY.config })).json).toEqual(apiError(h, 'Missing config option: channel'));
    const slack = await post({ type: 'slack', config: { ...BODY.config, channel: 'Not Valid' } });
    expect(slack.status).toBe(400);
    expect(slack.json).toEqual(apiError(h, 'Invalid slack channel name'));
    expect((await post({ ...BODY, branch_filter: '[main' })).json).toEqual(apiError(h, '[BranchFilter]: unterminated character class'));
    expect((await post({ ...BODY, name: 'n'.repeat(256) })).json).toEqual(apiError(h, '[Name]: MaxSize'));
    expect((await h.call<ApiHook[]>('GET', 'admin/hooks?type=all')).json).toHaveLength(2);
  });

  it('logs config keys as known (free-form map) and misspelt top-level keys as unknown', async () => {
    h = await boot(ACCOUNT_SEED);
    h.sb.clearRequests();
    await h.call('POST', 'admin/hooks', { body: { ...BODY, config: { ...BODY.config, anything: 'x' }, evnets: ['push'] } });
    expect(h.sb.requests()[0]!.unknownFields).toEqual(['evnets']);
  });
});

describe('GET /admin/hooks', () => {
  it('filters by type (system by default, also for unknown values) and pages with headers', async () => {
    h = await boot(ACCOUNT_SEED);
    const system = await h.call<ApiHook[]>('GET', 'admin/hooks');
    expect(system.status).toBe(200);
    expect(system.json.map((x) => x.config.url)).toEqual(['https://ci.example.com/system']);
    expect((await h.call<ApiHook[]>('GET', 'admin/hooks?type=bogus')).json.map((x) => x.config.url)).toEqual(['https://ci.example.com/system']);
    const def = await h.call<ApiHook[]>('GET', 'admin/hooks?type=default');
    expect(def.json).toHaveLength(1);
    expect(def.json[0]).toMatchObject({ type: 'slack', branch_filter: 'main', active: false, config: { channel: '#ops' } });
    expect(sorted(def.json[0]!.events)).toEqual(sorted(ISSUE_EVENTS));
    const all = await h.call<ApiHook[]>('GET', 'admin/hooks?type=all&limit=1');
    expect(all.json).toHaveLength(1);
    expect(all.headers.get('x-total-count')).toBe('2');
    expect(all.headers.get('link')).toContain('rel="next"');
    expect(JSON.stringify((await h.call('GET', 'admin/hooks?type=all')).json)).not.toMatch(/sys-secret|def-secret/);
  });

  it('is admin only', async () => {
    h = await boot(ACCOUNT_SEED);
    expect((await h.call('GET', 'admin/hooks', { token: 'alice-token' })).json).toEqual(apiError(h, 'user should be the site admin'));
    expect((await h.call('POST', 'admin/hooks', { token: 'alice-token', body: BODY })).status).toBe(403);
    expect((await h.call('PATCH', 'admin/hooks/1', { token: 'alice-token', body: {} })).status).toBe(403);
    expect((await h.call('DELETE', 'admin/hooks/1', { token: null })).status).toBe(401);
  });
});

describe('GET/PATCH/DELETE /admin/hooks/{id}', () => {
  it('GET and DELETE answer 404 for an unknown or non-numeric id; PATCH answers 500', async () => {
    h = await boot(ACCOUNT_SEED);
    for (const id of ['999', 'abc']) {
      const res = await h.call('GET', `admin/hooks/${id}`);
      expect(res.status).toBe(404);
      expect(res.json).toEqual(notFoundError(h));
      expect((await h.call('DELETE', `admin/hooks/${id}`)).status).toBe(404);
    }
    const patch = await h.call('PATCH', 'admin/hooks/999', { body: { events: ['push'] } });
    expect(patch.status).toBe(500);
    expect(patch.json).toEqual(apiError(h, 'webhook does not exist [id: 999]'));
  });

  it('PATCH resets omitted events to push and clears branch_filter and authorization_header; keeps active and name', async () => {
    h = await boot(ACCOUNT_SEED);
    const created = await h.call<ApiHook>('POST', 'admin/hooks', { body: { ...BODY, active: true, name: 'n', events: ['create', 'issues'], branch_filter: 'main' } });
    const id = created.json.id;
    const res = await h.call<ApiHook>('PATCH', `admin/hooks/${id}`, { body: { config: { url: 'https://example.com/new', secret: 'changed' } } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id, events: ['push'], branch_filter: '', active: true, name: 'n', config: { url: 'https://example.com/new', content_type: 'json' } });
    expect((await h.call<ApiHook>('GET', `admin/hooks/${id}`)).json).toMatchObject({ events: ['push'], branch_filter: '' });
    const again = await h.call<ApiHook>('PATCH', `admin/hooks/${id}`, { body: { events: ['release'], branch_filter: 'dev', active: false, name: '' } });
    expect(again.json).toMatchObject({ events: ['release'], branch_filter: 'dev', active: false, name: '' });
  });

  it('PATCH validates url and content type (422, nothing saved) and cannot turn a hook into a system hook', async () => {
    h = await boot(ACCOUNT_SEED);
    const created = await h.call<ApiHook>('POST', 'admin/hooks', { body: { ...BODY, events: ['fork'] } });
    const id = created.json.id;
    expect((await h.call('PATCH', `admin/hooks/${id}`, { body: { config: { url: 'nope' } } })).json).toEqual(apiError(h, 'Invalid url'));
    expect((await h.call('PATCH', `admin/hooks/${id}`, { body: { config: { url: 'https://ok.example', content_type: 'yaml' } } })).json).toEqual(apiError(h, 'Invalid content type'));
    expect((await h.call('PATCH', `admin/hooks/${id}`, { body: { branch_filter: '{a' } })).status).toBe(422);
    expect((await h.call<ApiHook>('GET', `admin/hooks/${id}`)).json).toMatchObject({ events: ['fork'], config: { url: 'https://example.com/hook' } });
    await h.call('PATCH', `admin/hooks/${id}`, { body: { config: { is_system_webhook: 'true' } } });
    expect((await h.call<ApiHook[]>('GET', 'admin/hooks')).json.map((x) => x.id)).not.toContain(id);
  });

  it('DELETE answers 204', async () => {
    h = await boot(ACCOUNT_SEED);
    const [hook] = (await h.call<ApiHook[]>('GET', 'admin/hooks')).json;
    const res = await h.call('DELETE', `admin/hooks/${hook!.id}`);
    expect(res.status).toBe(204);
    expect((await h.call('GET', `admin/hooks/${hook!.id}`)).status).toBe(404);
  });
});
