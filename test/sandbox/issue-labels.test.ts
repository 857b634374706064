import { afterEach, describe, expect, it } from 'vitest';
import { apiError, boot, type Harness, notFoundError } from './helpers.js';
import { ISSUE_SEED, labelId } from './issues-seed.js';
import type { ApiLabel } from '../support/api-types.js';

let h: Harness;
afterEach(async () => h?.sb.close());

const W = 'acme/widgets';
const L1 = `repos/${W}/issues/1/labels`;
const names = (labels: ApiLabel[]): string[] => labels.map((l) => l.name);

describe('GET /repos/{o}/{r}/issues/{index}/labels', () => {
  it('lists the labels of an issue sorted by name, repository and organisation labels mixed', async () => {
    h = await boot(ISSUE_SEED);
    const res = await h.call<ApiLabel[]>('GET', `repos/${W}/issues/2/labels`, { token: null });
    expect(res.status).toBe(200);
    expect(names(res.json)).toEqual(['bug', 'org-bug']);
    expect(res.json[1]!.url).toMatch(/\/api\/v1\/orgs\/acme\/labels\/\d+$/);
    expect((await h.call('GET', `repos/${W}/issues/99/labels`)).status).toBe(404);
  });
});

describe('POST /repos/{o}/{r}/issues/{index}/labels', () => {
  it('answers 200 (not 201) with every label of the issue sorted by name', async () => {
    h = await boot(ISSUE_SEED);
    const feature = await labelId(h, W, 'feature');
    const res = await h.call<ApiLabel[]>('POST', L1, { token: 'bob-token', body: { labels: [feature] } });
    expect(res.status).toBe(200);
    expect(names(res.json)).toEqual(['bug', 'feature']);
    // Adding a present label again changes nothing.
    expect(names((await h.call<ApiLabel[]>('POST', L1, { body: { labels: [feature] } })).json)).toEqual(['bug', 'feature']);
  });

  it('takes strings as names — "5" is the label named 5 — and ignores unknown names', async () => {
    h = await boot(ISSUE_SEED);
    const res = await h.call<ApiLabel[]>('POST', L1, { body: { labels: ['5', 'feature', 'no-such-label'] } });
    expect(res.status).toBe(200);
    expect(names(res.json)).toEqual(['5', 'bug', 'feature']);
  });

  it('matches names against the organisation labels too, adding every label of a duplicated name', async () => {
    h = await boot(ISSUE_SEED);
    const res = await h.call<ApiLabel[]>('POST', L1, { body: { labels: ['dup', 'org-bug'] } });
    expect(res.status).toBe(200);
    expect(names(res.json)).toEqual(['bug', 'dup', 'dup', 'org-bug']);
    const ids = [await labelId(h, W, 'dup'), await labelId(h, 'acme', 'dup')];
    expect(res.json.filter((l) => l.name === 'dup').map((l) => l.id).sort()).toEqual(ids.sort());
  });

  it('ignores unknown ids and skips labels of other repositories, truncating fractional ids', async () => {
    h = await boot(ISSUE_SEED);
    const foreign = await labelId(h, 'acme/gadgets', 'bug');
    const feature = await labelId(h, W, 'feature');
    const res = await h.call<ApiLabel[]>('POST', L1, { body: { labels: [foreign, 99999, feature + 0.9] } });
    expect(res.status).toBe(200);
    expect(names(res.json)).toEqual(['bug', 'feature']);
  });

  it('answers 400 for ids and names mixed, and for other item types', async () => {
    h = await boot(ISSUE_SEED);
    const feature = await labelId(h, W, 'feature');
    const mixed = await h.call('POST', L1, { body: { labels: [feature, 'bug'] } });
    expect(mixed.status).toBe(400);
    expect(mixed.json).toEqual(apiError(h, 'labels should be an array of strings or integers'));
    for (const bad of [true, null, { id: feature }, [feature]]) {
      const res = await h.call('POST', L1, { body: { labels: ['bug', bad] } });
      expect(res.status).toBe(400);
      expect(res.json).toEqual(apiError(h, 'a label must be an integer or a string'));
    }
    const notList = await h.call('POST', L1, { body: { labels: 'bug' } });
    expect(notList.status).toBe(422);
    expect(notList.json).toEqual(apiError(h, '[]: json: cannot unmarshal string into Go struct field IssueLabelsOption.labels of type []interface {}'));
    expect(names((await h.call<ApiLabel[]>('GET', L1)).json)).toEqual(['bug']);
  });

  it('collapses exclusive scopes: a newly added exclusive label removes the others of its scope, name order deciding', async () => {
    h = await boot(ISSUE_SEED);
    const I3 = `repos/${W}/issues/3/labels`;
    const high = await labelId(h, W, 'priority/high');
    const medium = await labelId(h, W, 'priority/medium');
    // Issue #3 has priority/low; adding priority/high replaces it.
    const res = await h.call<ApiLabel[]>('POST', I3, { body: { labels: [high] } });
    expect(res.status).toBe(200);
    expect(names(res.json)).toEqual(['feature', 'priority/high']);
    // Two of one scope in one request: the labels are applied in name order, so the later name wins
    // whatever the request order.
    const both = await h.call<ApiLabel[]>('POST', I3, { body: { labels: [medium, high] } });
    expect(names(both.json)).toEqual(['feature', 'priority/medium']);
  });

  it('answers 403 with a message for non-writers, 404 for an unknown issue, 401 without a token', async () => {
    h = await boot(ISSUE_SEED);
    // alice authored issue #1 but has no write access.
    const res = await h.call('POST', L1, { token: 'alice-token', body: { labels: ['feature'] } });
    expect(res.status).toBe(403);
    expect(res.json).toEqual(apiError(h, 'write permission is required'));
    expect((await h.call('POST', `repos/${W}/issues/42/labels`, { body: { labels: [] } })).json).toEqual(notFoundError(h));
    expect((await h.call('POST', L1, { token: null, body: { labels: [] } })).status).toBe(401);
  });

  it('has no archived check', async () => {
    h = await boot(ISSUE_SEED);
    const res = await h.call<ApiLabel[]>('POST', 'repos/acme/attic/issues/1/labels', { body: { labels: ['old'] } });
    expect(res.status).toBe(200);
    expect(names(res.json)).toEqual(['old']);
  });
});

describe('PUT /repos/{o}/{r}/issues/{index}/labels', () => {
  it('replaces the labels; [] and a missing list clear them', async () => {
    h = await boot(ISSUE_SEED);
    const I2 = `repos/${W}/issues/2/labels`;
    const res = await h.call<ApiLabel[]>('PUT', I2, { body: { labels: ['feature', 'dup'] } });
    expect(res.status).toBe(200);
    expect(names(res.json)).toEqual(['dup', 'dup', 'feature']);
    expect((await h.call<ApiLabel[]>('PUT', I2, { body: { labels: [] } })).json).toEqual([]);
    await h.call('PUT', I2, { body: { labels: ['bug'] } });
    const cleared = await h.call<ApiLabel[]>('PUT', I2, { body: {} });
    expect(cleared.status).toBe(200);
    expect(cleared.json).toEqual([]);
  });

  it('keeps only the last label of each exclusive scope (in name order)', async () => {
    h = await boot(ISSUE_SEED);
    const res = await h.call<ApiLabel[]>('PUT', L1, { body: { labels: ['priority/medium', 'bug', 'priority/high', 'priority/low'] } });
    expect(res.status).toBe(200);
    expect(names(res.json)).toEqual(['bug', 'priority/medium']);
  });

  it('answers 400 for mixed ids and names like POST', async () => {
    h = await boot(ISSUE_SEED);
    const res = await h.call('PUT', L1, { body: { labels: ['bug', 1] } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual(apiError(h, 'labels should be an array of strings or integers'));
  });
});

describe('DELETE /repos/{o}/{r}/issues/{index}/labels', () => {
  it('clears every label (204); non-writers get 403 with an empty body', async () => {
    h = await boot(ISSUE_SEED);
    const refused = await h.call('DELETE', L1, { token: 'alice-token' });
    expect(refused.status).toBe(403);
    expect(refused.text).toBe('');
    const res = await h.call('DELETE', `repos/${W}/issues/2/labels`, { token: 'bob-token' });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await h.call('GET', `repos/${W}/issues/2/labels`)).json).toEqual([]);
  });
});

describe('DELETE /repos/{o}/{r}/issues/{index}/labels/{id}', () => {
  it('removes an attached label (204), and answers 204 for a label that is not attached or lives elsewhere', async () => {
    h = await boot(ISSUE_SEED);
    const bug = await labelId(h, W, 'bug');
    const feature = await labelId(h, W, 'feature');
    const foreign = await labelId(h, 'acme/gadgets', 'bug');
    expect((await h.call('DELETE', `${L1}/${bug}`)).status).toBe(204);
    expect((await h.call('GET', L1)).json).toEqual([]);
    expect((await h.call('DELETE', `${L1}/${feature}`)).status).toBe(204);
    expect((await h.call('DELETE', `${L1}/${foreign}`)).status).toBe(204);
  });

  it('answers 422 when no label has that id (a name parses as 0)', async () => {
    h = await boot(ISSUE_SEED);
    const missing = await h.call('DELETE', `${L1}/99999`);
    expect(missing.status).toBe(422);
    expect(missing.json).toEqual(apiError(h, 'label does not exist [label_id: 0]'));
    expect((await h.call('DELETE', `${L1}/bug`)).json).toEqual(apiError(h, 'label does not exist [label_id: 0]'));
    expect((await h.call('DELETE', `${L1}/-3`)).json).toEqual(apiError(h, 'label does not exist [label_id: -3]'));
  });

  it('answers 403 with an empty body for non-writers (before the label lookup)', async () => {
    h = await boot(ISSUE_SEED);
    const res = await h.call('DELETE', `${L1}/99999`, { token: 'alice-token' });
    expect(res.status).toBe(403);
    expect(res.text).toBe('');
  });
});
