import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { apiError, boot, SEED, type Harness } from './helpers.js';

let h: Harness;
afterEach(async () => h?.sb.close());

const NOTIFY_SEED: SeedFile = {
  ...SEED,
  users: [...SEED.users!, { username: 'nina', tokens: [{ token: 'nina-repo-token', scopes: ['read:repository'] }] }],
  notifications: [
    { user: 'alice', repo: 'acme/widgets', type: 'issue', issue: 1, status: 'unread', updated_at: '2024-01-01T10:00:00Z' },
    { user: 'alice', repo: 'acme/widgets', type: 'pull', issue: 2, status: 'read', updated_at: '2024-01-02T10:00:00Z' },
    { user: 'alice', repo: 'alice/personal', type: 'commit', commit: 'c'.repeat(40), status: 'pinned', updated_at: '2024-01-03T10:00:00Z' },
    { user: 'alice', repo: 'alice/personal', type: 'repository', updated_at: '2024-01-04T10:00:00Z' },
    { user: 'bob', repo: 'acme/widgets', issue: 1, updated_at: '2024-01-05T10:00:00Z' },
  ],
};

/**
 * fetch (undici) drops the body of a 205 (a "null body status" in the Fetch standard), while Go's
 * server — and the sandbox — send one: read it over node:http.
 */
function call205<T>(method: string, path: string, token: string): Promise<{ status: number; json: T }> {
  const url = new URL(`${h.url}/api/v1/${path}`);
  return new Promise((resolve, reject) => {
    const req = request({ hostname: url.hostname, port: url.port, path: url.pathname + url.search, method, headers: { authorization: `token ${token}` } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as T }));
    });
    req.on('error', reject);
    req.end();
  });
}

type Thread = { id: number; unread: boolean; pinned: boolean; updated_at: string; url: string; repository: { full_name: string }; subject: Record<string, string> };

describe('GET /notifications', () => {
  it("lists the caller's unread and pinned threads, newest first, with Link and X-Total-Count", async () => {
    h = await boot(NOTIFY_SEED);
    const res = await h.call<Thread[]>('GET', 'notifications', { token: 'alice-token' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(res.json.map((t) => t.id)).toEqual([4, 3, 1]);
    expect(res.json[2]).toMatchObject({
      id: 1,
      unread: true,
      pinned: false,
      updated_at: '2024-01-01T10:00:00Z',
      url: `${h.url}/api/v1/notifications/threads/1`,
      repository: { full_name: 'acme/widgets' },
      subject: {
        title: 'First',
        url: `${h.url}/api/v1/repos/acme/widgets/issues/1`,
        html_url: `${h.url}/acme/widgets/issues/1`,
        latest_comment_url: '',
        latest_comment_html_url: '',
        type: 'Issue',
        state: 'open',
      },
    });
    expect(res.json[1]).toMatchObject({ unread: false, pinned: true, subject: { type: 'Commit', title: 'c'.repeat(40), url: `${h.url}/alice/personal/commit/${'c'.repeat(40)}` } });
    expect(res.json[0]).toMatchObject({ subject: { type: 'Repository', title: 'alice/personal', url: '/alice/personal', html_url: `${h.url}/alice/personal` } });
    const paged = await h.call<Thread[]>('GET', 'notifications?limit=2', { token: 'alice-token' });
    expect(paged.json).toHaveLength(2);
    expect(paged.headers.get('link')).toBe(`<${h.url}/api/v1/notifications?limit=2&page=2>; rel="next",<${h.url}/api/v1/notifications?limit=2&page=2>; rel="last"`);
  });

  it('all=true includes read threads; status-types (repeatable) and subject-type filter', async () => {
    h = await boot(NOTIFY_SEED);
    const ids = async (q: string): Promise<number[]> => (await h.call<Thread[]>('GET', `notifications?${q}`, { token: 'alice-token' })).json.map((t) => t.id);
    expect(await ids('all=true')).toEqual([4, 3, 2, 1]);
    expect(await ids('status-types=read')).toEqual([2]);
    expect(await ids('status-types=read&status-types=pinned')).toEqual([3, 2]);
    expect(await ids('all=true&status-types=read')).toEqual([4, 3, 2, 1]);
    expect(await ids('all=true&subject-type=pull')).toEqual([2]);
    expect(await ids('subject-type=issue&subject-type=repository')).toEqual([4, 1]);
    expect(await ids('subject-type=release')).toEqual([4, 3, 1]);
    const pull = (await h.call<Thread[]>('GET', 'notifications?all=true&subject-type=pull', { token: 'alice-token' })).json[0]!;
    expect(pull.subject).toMatchObject({ type: 'Pull', html_url: `${h.url}/acme/widgets/pulls/2`, state: 'closed' });
  });

  it('since and before bound updated_at; a bad time is 422 with Go\'s parse error', async () => {
    h = await boot(NOTIFY_SEED);
    const ids = async (q: string): Promise<number[]> => (await h.call<Thread[]>('GET', `notifications?all=true&${q}`, { token: 'alice-token' })).json.map((t) => t.id);
    expect(await ids('since=2024-01-02T10:00:00Z')).toEqual([4, 3, 2]);
    expect(await ids('before=2024-01-02T10:00:00Z')).toEqual([2, 1]);
    expect(await ids('since=2024-01-02T00:00:00%2B00:00&before=2024-01-03T12:00:00Z')).toEqual([3, 2]);
    const bad = await h.call('GET', 'notifications?since=yesterday', { token: 'alice-token' });
    expect(bad.status).toBe(422);
    expect(bad.json).toEqual(apiError(h, 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'));
  });

  it('needs a token (401) and the notification scope (403)', async () => {
    h = await boot(NOTIFY_SEED);
    const anon = await h.call('GET', 'notifications', { token: null });
    expect(anon.status).toBe(401);
    expect(anon.json).toEqual(apiError(h, 'token is required'));
    const scoped = await h.call('GET', 'notifications', { token: 'nina-repo-token' });
    expect(scoped.status).toBe(403);
    expect((scoped.json as { message: string }).message).toContain('required=[read:notification]');
  });
});

describe('PUT /notifications', () => {
  it('marks unread threads read and answers 205 with the changed threads', async () => {
    h = await boot(NOTIFY_SEED);
    const res = await call205<Thread[]>('PUT', 'notifications', 'alice-token');
    expect(res.status).toBe(205);
    expect(res.json.map((t) => [t.id, t.unread, t.pinned])).toEqual([
      [4, false, false],
      [1, false, false],
    ]);
    const left = await h.call<Thread[]>('GET', 'notifications', { token: 'alice-token' });
    expect(left.json.map((t) => t.id)).toEqual([3]);
    // bob's thread is untouched
    expect((await h.call<Thread[]>('GET', 'notifications', { token: 'bob-token' })).json.map((t) => t.unread)).toEqual([true]);
  });

  it('honours status-types, to-status and last_read_at; a bad last_read_at is 400', async () => {
    h = await boot(NOTIFY_SEED);
    const pin = await call205<Thread[]>('PUT', 'notifications?status-types=read&to-status=pinned', 'alice-token');
    expect(pin.status).toBe(205);
    expect(pin.json.map((t) => [t.id, t.pinned])).toEqual([[2, true]]);
    const old = await call205<Thread[]>('PUT', 'notifications?last_read_at=2024-01-02T00:00:00Z', 'alice-token');
    expect(old.json.map((t) => t.id)).toEqual([1]);
    const bad = await h.call('PUT', 'notifications?last_read_at=soon', { token: 'alice-token' });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual(apiError(h, 'parsing time "soon" as "2006-01-02T15:04:05Z07:00": cannot parse "soon" as "2006"'));
  });
});

describe('notification count and threads', () => {
  it('GET /notifications/new counts unread threads', async () => {
    h = await boot(NOTIFY_SEED);
    const res = await h.call('GET', 'notifications/new', { token: 'alice-token' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ new: 2 });
  });

  it('GET and PATCH /notifications/threads/{id}: 205 on change, 404 unknown, 403 for another user', async () => {
    h = await boot(NOTIFY_SEED);
    const got = await h.call<Thread>('GET', 'notifications/threads/1', { token: 'alice-token' });
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ id: 1, unread: true });
    const patched = await call205<Thread>('PATCH', 'notifications/threads/1', 'alice-token');
    expect(patched.status).toBe(205);
    expect(patched.json).toMatchObject({ id: 1, unread: false });
    const unread = await call205<Thread>('PATCH', 'notifications/threads/1?to-status=unread', 'alice-token');
    expect(unread.json.unread).toBe(true);
    expect((await h.call('GET', 'notifications/threads/99', { token: 'alice-token' })).status).toBe(404);
    const other = await h.call('GET', 'notifications/threads/5', { token: 'alice-token' });
    expect(other.status).toBe(403);
    expect(other.json).toEqual(apiError(h, 'only user itself and admin are allowed to read/change this thread 5'));
  });
});

describe('notifications seed', () => {
  it('rejects references that do not exist', async () => {
    const { buildState } = await import('../../src/sandbox/index.js');
    expect(() => buildState({ ...SEED, notifications: [{ user: 'alice', repo: 'acme/widgets', issue: 42 }] })).toThrow(/notifications\[0\]\.issue: no issue #42/);
    expect(() => buildState({ ...SEED, notifications: [{ user: 'zed', repo: 'acme/widgets', issue: 1 }] })).toThrow(/notifications\[0\]\.user: no user/);
    expect(() => buildState({ ...SEED, notifications: [{ user: 'alice', repo: 'acme/widgets', type: 'commit' }] })).toThrow(/commit: required/);
  });
});
