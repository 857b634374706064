import { afterEach, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { apiError, boot, SEED, type Harness, notFoundError } from './helpers.js';
import type { ApiLabel } from '../support/api-types.js';

let h: Harness;
afterEach(async () => h?.sb.close());

const L = 'repos/acme/widgets/labels';

describe('repository labels', () => {
  it('lists labels by name with X-Total-Count and no Link; colours without #', async () => {
    h = await boot();
    const res = await h.call<ApiLabel[]>('GET', L, { token: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(res.headers.get('link')).toBeNull();
    expect(res.json.map((l) => `${l.name}:${l.color}`)).toEqual(['bug:ee0701', 'feature:00aabb']);
    const bug = res.json[0]!;
    expect(Object.keys(bug)).toEqual(['id', 'name', 'exclusive', 'is_archived', 'color', 'description', 'url']);
    expect(bug.url).toBe(`${h.url}/api/v1/repos/acme/widgets/labels/${bug.id}`);
  });

  it('pages 120 labels: limit clamped to 50, default 30, page ≤ 0 is 1, past the end []', async () => {
    const many = Array.from({ length: 120 }, (_, i) => ({ name: `l${String(i).padStart(3, '0')}`, color: 'aabbcc' }));
    const seed: SeedFile = { users: SEED.users, orgs: [{ name: 'acme', owners: ['root'] }], repos: [{ name: 'acme/big', labels: many }] };
    h = await boot(seed);
    const p = 'repos/acme/big/labels';
    const first = await h.call<ApiLabel[]>('GET', `${p}?limit=100`);
    expect(first.json).toHaveLength(50);
    expect(first.headers.get('x-total-count')).toBe('120');
    expect(first.headers.get('link')).toBeNull();
    expect(first.headers.get('access-control-expose-headers')).toBe('X-Total-Count');
    expect((await h.call<ApiLabel[]>('GET', p)).json).toHaveLength(30);
    const third = await h.call<ApiLabel[]>('GET', `${p}?limit=50&page=3`);
    expect(third.json.map((l) => l.name)).toEqual(many.slice(100).map((l) => l.name));
    expect((await h.call<ApiLabel[]>('GET', `${p}?limit=50&page=0`)).json[0]!.name).toBe('l000');
    expect((await h.call<ApiLabel[]>('GET', `${p}?limit=50&page=4`)).json).toEqual([]);
    const reversed = await h.call<ApiLabel[]>('GET', `${p}?limit=1&sort=reversealphabetically`);
    expect(reversed.json[0]!.name).toBe('l119');
  });

  it('sorts by issue count with sort=mostissues / leastissues', async () => {
    h = await boot();
    const most = await h.call<ApiLabel[]>('GET', `${L}?sort=mostissues`);
    expect(most.json.map((l) => l.name)).toEqual(['bug', 'feature']);
    const least = await h.call<ApiLabel[]>('GET', `${L}?sort=leastissues`);
    expect(least.json.map((l) => l.name)).toEqual(['feature', 'bug']);
  });

  it('creates labels: colour normalisation, duplicates allowed, is_archived honoured', async () => {
    h = await boot();
    const cases: [string, string][] = [['#ABC', 'aabbcc'], ['abc', 'aabbcc'], ['AABBCC', 'aabbcc'], [' #123456 ', '123456']];
    for (const [input, out] of cases) {
      const res = await h.call<ApiLabel>('POST', L, { body: { name: 'bug', color: input } });
      expect(res.status).toBe(201);
      expect(res.json.color).toBe(out);
    }
    const archived = await h.call<ApiLabel>('POST', L, { body: { name: 'old', color: 'fff', is_archived: true, exclusive: true, description: 'd' } });
    expect(archived.json).toMatchObject({ is_archived: true, exclusive: true, description: 'd' });
    expect((await h.call<ApiLabel[]>('GET', L)).json.filter((l) => l.name === 'bug')).toHaveLength(5);
  });

  it('answers 422 for a bad colour and for missing name or colour', async () => {
    h = await boot();
    const bad = await h.call('POST', L, { body: { name: 'x', color: '#12345g' } });
    expect(bad.status).toBe(422);
    expect(bad.json).toEqual(apiError(h, 'bad color code: #12345g'));
    expect((await h.call('POST', L, { body: { name: 'x', color: 'abcd' } })).json).toEqual(apiError(h, 'bad color code: abcd'));
    expect((await h.call('POST', L, { body: { color: 'abc' } })).json).toEqual(apiError(h, '[Name]: Required'));
    expect((await h.call('POST', L, { body: { name: 'x', color: '' } })).json).toEqual(apiError(h, '[Color]: Required'));
    expect((await h.call('POST', L, { rawBody: '', contentType: 'application/json' })).json).toEqual(apiError(h, '[Name]: Required'));
    expect((await h.call('POST', L, { rawBody: '{"name":', contentType: 'application/json' })).json).toEqual(apiError(h, '[]: unexpected EOF'));
    const noType = await h.call('POST', L, { rawBody: '{"name":"x","color":"abc"}' });
    expect(noType.json).toEqual(apiError(h, '[]: Empty Content-Type'));
  });

  it('accepts a form-encoded body, as the binding library does', async () => {
    h = await boot();
    const res = await h.call<ApiLabel>('POST', L, { rawBody: 'name=formed&color=abc&exclusive=on', contentType: 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: 'formed', color: 'aabbcc', exclusive: true });
  });

  it('needs a token and write access for writes', async () => {
    h = await boot();
    const anon = await h.call('POST', L, { token: null, body: { name: 'x', color: 'abc' } });
    expect(anon.status).toBe(401);
    const reader = await h.call('POST', L, { token: 'rita-token', body: { name: 'x', color: 'abc' } });
    expect(reader.status).toBe(403);
    expect(reader.json).toEqual(apiError(h, 'user should have a permission to write to a repo'));
    const member = await h.call('POST', L, { token: 'mia-token', body: { name: 'x', color: 'abc' } });
    expect(member.status).toBe(403);
    expect((await h.call('POST', L, { token: 'bob-token', body: { name: 'x', color: 'abc' } })).status).toBe(201);
    // no archived check on label writes
    expect((await h.call('POST', 'repos/acme/attic/labels', { body: { name: 'x', color: 'abc' } })).status).toBe(201);
  });

  it('GET by id or exact name; PATCH by name is 404; DELETE by anything is 204', async () => {
    h = await boot();
    const bug = (await h.call<ApiLabel[]>('GET', L)).json[0]!;
    expect((await h.call<ApiLabel>('GET', `${L}/${bug.id}`)).json.name).toBe('bug');
    expect((await h.call<ApiLabel>('GET', `${L}/bug`)).json.id).toBe(bug.id);
    expect((await h.call('GET', `${L}/Bug`)).status).toBe(404);
    expect((await h.call('GET', `${L}/999`)).status).toBe(404);
    const byName = await h.call('PATCH', `${L}/bug`, { body: { color: 'fff' } });
    expect(byName.status).toBe(404);
    expect(byName.json).toEqual(notFoundError(h));
    const other = (await h.call<ApiLabel[]>('GET', 'repos/acme/attic/labels')).json[0]!;
    for (const id of ['999', 'bug', String(other.id)]) expect((await h.call('DELETE', `${L}/${id}`)).status).toBe(204);
    expect((await h.call('GET', 'repos/acme/attic/labels')).json).toHaveLength(1); // another repository's label survives
    expect((await h.call('GET', L)).json).toHaveLength(2);
  });

  it('PATCH: omitted fields unchanged, empty name applied, archived = present-and-true', async () => {
    h = await boot();
    const created = (await h.call<ApiLabel>('POST', L, { body: { name: 'arch', color: 'abc', is_archived: true, description: 'keep' } })).json;
    const patched = await h.call<ApiLabel>('PATCH', `${L}/${created.id}`, { body: { color: '#DEF' } });
    expect(patched.json).toMatchObject({ name: 'arch', color: 'ddeeff', description: 'keep', is_archived: false });
    const again = await h.call<ApiLabel>('PATCH', `${L}/${created.id}`, { body: { is_archived: true, name: '' } });
    expect(again.json).toMatchObject({ name: '', is_archived: true });
    const bad = await h.call('PATCH', `${L}/${created.id}`, { body: { name: 'changed', color: 'nope' } });
    expect(bad.status).toBe(422);
    expect((await h.call<ApiLabel>('GET', `${L}/${created.id}`)).json.name).toBe('');
  });

  it('deleting a label detaches it from every issue', async () => {
    h = await boot();
    const bug = (await h.call<ApiLabel>('GET', `${L}/bug`)).json;
    expect((await h.call('DELETE', `${L}/${bug.id}`)).status).toBe(204);
    const issue = await h.call<{ labels: ApiLabel[] }>('GET', 'repos/acme/widgets/issues/2');
    expect(issue.json.labels.map((l) => l.name)).toEqual(['org-bug']);
  });
});

describe('organisation labels', () => {
  const O = 'orgs/acme/labels';

  it('lists without a token; GET one needs a token; url format', async () => {
    h = await boot();
    const list = await h.call<ApiLabel[]>('GET', O, { token: null });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('1');
    const label = list.json[0]!;
    expect(label.url).toBe(`${h.url}/api/v1/orgs/acme/labels/${label.id}`);
    const anon = await h.call('GET', `${O}/${label.id}`, { token: null });
    expect(anon.status).toBe(401);
    expect(anon.json).toEqual(apiError(h, 'token is required'));
    expect((await h.call<ApiLabel>('GET', `${O}/${label.id}`, { token: 'carol-token' })).json.name).toBe('org-bug');
    expect((await h.call<ApiLabel>('GET', `${O}/org-bug`, { token: 'carol-token' })).json.id).toBe(label.id);
    expect((await h.call('GET', 'orgs/nothing/labels', { token: null })).status).toBe(404);
  });

  it('ignores is_archived on create; owners only may write (members get 403)', async () => {
    h = await boot();
    const res = await h.call<ApiLabel>('POST', O, { body: { name: 'new', color: ' ABC ', is_archived: true } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ color: 'aabbcc', is_archived: false });
    for (const token of ['bob-token', 'mia-token', 'carol-token']) {
      const denied = await h.call('POST', O, { token, body: { name: 'x', color: 'abc' } });
      expect(denied.status).toBe(403);
      expect(denied.json).toEqual(apiError(h, 'Must be an organization owner'));
    }
    expect((await h.call('POST', O, { token: 'olga-token', body: { name: 'x', color: 'abc' } })).status).toBe(201);
    const patched = await h.call<ApiLabel>('PATCH', `${O}/${res.json.id}`, { token: 'olga-token', body: { is_archived: true } });
    expect(patched.json.is_archived).toBe(true);
    expect((await h.call<ApiLabel>('PATCH', `${O}/${res.json.id}`, { body: { description: 'x' } })).json.is_archived).toBe(false);
    expect((await h.call('DELETE', `${O}/${res.json.id}`, { token: 'mia-token' })).status).toBe(403);
    expect((await h.call('DELETE', `${O}/${res.json.id}`)).status).toBe(204);
    expect((await h.call('DELETE', `${O}/${res.json.id}`)).status).toBe(204);
  });
});
