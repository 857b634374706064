import { afterEach, describe, expect, it } from 'vitest';
import { apiError, boot, type Harness } from './helpers.js';
import { ISSUE_SEED } from './issues-seed.js';

let h: Harness;
afterEach(async () => h?.sb.close());

const W = 'repos/acme/widgets/issues';

interface ApiComment {
  id: number;
  body: string;
  html_url: string;
  issue_url: string;
  pull_request_url: string;
  user: { login: string } | null;
  created_at: string;
  updated_at: string;
}

describe('issue comments', () => {
  it('creates a comment (201) that the list returns, with the issue counting it', async () => {
    h = await boot(ISSUE_SEED);
    const res = await h.call<ApiComment>('POST', `${W}/1/comments`, { token: 'bob-token', body: { body: 'hello' } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ body: 'hello', user: { login: 'bob' }, issue_url: `${h.url}/acme/widgets/issues/1`, pull_request_url: '' });
    expect(res.json.html_url).toBe(`${h.url}/acme/widgets/issues/1#issuecomment-${res.json.id}`);
    const list = await h.call<ApiComment[]>('GET', `${W}/1/comments`);
    expect(list.status).toBe(200);
    expect(list.json.map((c) => c.body)).toEqual(['hello']);
    expect(list.headers.get('x-total-count')).toBe('1');
    expect((await h.call<{ comments: number }>('GET', `${W}/1`)).json.comments).toBe(1);
  });

  it('lists every comment whatever page and limit say (Gitea does not page this list), oldest first', async () => {
    h = await boot(ISSUE_SEED);
    for (let i = 1; i <= 4; i++) expect((await h.call('POST', `${W}/2/comments`, { body: { body: `c${i}` } })).status).toBe(201);
    await h.call('POST', `${W}/1/comments`, { body: { body: 'elsewhere' } });
    const page2 = await h.call<ApiComment[]>('GET', `${W}/2/comments?page=2&limit=2`);
    expect(page2.json.map((c) => c.body)).toEqual(['c1', 'c2', 'c3', 'c4']);
    expect(page2.headers.get('x-total-count')).toBe('4');
  });

  it('filters on since/before and answers 422 to a time that is not RFC 3339', async () => {
    h = await boot(ISSUE_SEED);
    await h.call('POST', `${W}/1/comments`, { body: { body: 'x' } });
    expect((await h.call<ApiComment[]>('GET', `${W}/1/comments?since=2999-01-01T00:00:00Z`)).json).toEqual([]);
    expect((await h.call<ApiComment[]>('GET', `${W}/1/comments?before=2999-01-01T00:00:00Z`)).json).toHaveLength(1);
    expect((await h.call('GET', `${W}/1/comments?since=yesterday`)).status).toBe(422);
  });

  it('edits a comment in place (200) and deletes it (204)', async () => {
    h = await boot(ISSUE_SEED);
    const made = (await h.call<ApiComment>('POST', `${W}/1/comments`, { token: 'alice-token', body: { body: 'v1' } })).json;
    const edited = await h.call<ApiComment>('PATCH', `repos/acme/widgets/issues/comments/${made.id}`, { token: 'alice-token', body: { body: 'v2' } });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ id: made.id, body: 'v2' });
    expect((await h.call<ApiComment>('GET', `repos/acme/widgets/issues/comments/${made.id}`)).json.body).toBe('v2');
    expect((await h.call<ApiComment[]>('GET', `${W}/1/comments`)).json.map((c) => c.body)).toEqual(['v2']);

    const del = await h.call('DELETE', `repos/acme/widgets/issues/comments/${made.id}`, { token: 'alice-token' });
    expect(del.status).toBe(204);
    expect((await h.call<ApiComment[]>('GET', `${W}/1/comments`)).json).toEqual([]);
    expect((await h.call<{ comments: number }>('GET', `${W}/1`)).json.comments).toBe(0);
  });

  it('answers 403 (empty body) when neither the author nor a writer edits or deletes', async () => {
    h = await boot(ISSUE_SEED);
    const made = (await h.call<ApiComment>('POST', `${W}/1/comments`, { token: 'bob-token', body: { body: 'mine' } })).json;
    const edit = await h.call('PATCH', `repos/acme/widgets/issues/comments/${made.id}`, { token: 'carol-token', body: { body: 'theirs' } });
    expect(edit.status).toBe(403);
    expect(edit.text).toBe('');
    expect((await h.call('DELETE', `repos/acme/widgets/issues/comments/${made.id}`, { token: 'carol-token' })).status).toBe(403);
    // bob (a writer) may edit alice's comment
    const alices = (await h.call<ApiComment>('POST', `${W}/1/comments`, { token: 'alice-token', body: { body: 'a' } })).json;
    expect((await h.call('PATCH', `repos/acme/widgets/issues/comments/${alices.id}`, { token: 'bob-token', body: { body: 'b' } })).status).toBe(200);
  });

  it('answers 404 (empty) for a comment of another repository and 404 for an unknown id', async () => {
    h = await boot(ISSUE_SEED);
    const made = (await h.call<ApiComment>('POST', 'repos/acme/gadgets/issues/1/comments', { body: { body: 'g' } })).json;
    const other = await h.call('PATCH', `repos/acme/widgets/issues/comments/${made.id}`, { body: { body: 'x' } });
    expect(other.status).toBe(404);
    expect(other.text).toBe('');
    const unknown = await h.call('GET', 'repos/acme/widgets/issues/comments/999');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual(apiError(h, 'comment does not exist [id: 999, issue_id: 0]'));
  });

  it('requires a body (422), a token (401), an existing issue (500) and a live repository (423)', async () => {
    h = await boot(ISSUE_SEED);
    expect((await h.call('POST', `${W}/1/comments`, { body: { body: '' } })).status).toBe(422);
    expect((await h.call('POST', `${W}/1/comments`, { token: null, body: { body: 'x' } })).status).toBe(401);
    const missing = await h.call('POST', `${W}/99/comments`, { body: { body: 'x' } });
    expect(missing.status).toBe(500);
    expect((await h.call('GET', `${W}/99/comments`)).status).toBe(500);
    expect((await h.call('POST', 'repos/acme/attic/issues/1/comments', { body: { body: 'x' } })).status).toBe(423);
  });
});
