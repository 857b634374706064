import { afterEach, describe, expect, it } from 'vitest';
import { apiError, boot, type Harness } from './helpers.js';

interface Issue {
  id: number;
  number: number;
  title: string;
  body: string;
  state: string;
  labels: { id: number; name: string; url: string }[];
  milestone: { id: number; title: string } | null;
  assignees: { login: string }[] | null;
  assignee: { login: string } | null;
  due_date: string | null;
  content_version: number;
  user: { login: string };
  closed_at: string | null;
}

let h: Harness;
afterEach(async () => h?.sb.close());

const I = 'repos/acme/widgets/issues';

describe('GET /repos/{o}/{r}/issues/{index}', () => {
  it('returns seeded issues, numbered in order, labels sorted by name', async () => {
    h = await boot();
    const first = await h.call<Issue>('GET', `${I}/1`, { token: null });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ number: 1, title: 'First', body: 'one', state: 'open', user: { login: 'bob' }, milestone: null, assignees: null, assignee: null, due_date: null, content_version: 0 });
    expect(first.json.labels.map((l) => l.name)).toEqual(['bug']);
    const second = await h.call<Issue>('GET', `${I}/2`);
    expect(second.json).toMatchObject({ number: 2, state: 'closed', milestone: { title: 'v1' }, assignees: [{ login: 'bob' }], assignee: { login: 'bob' } });
    expect(second.json.closed_at).not.toBeNull();
    expect(second.json.labels.map((l) => l.name)).toEqual(['bug', 'org-bug']);
    expect(second.json.labels[1]!.url).toMatch(/\/api\/v1\/orgs\/acme\/labels\/\d+$/);
    const missing = await h.call('GET', `${I}/99`);
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual(apiError(h, 'not found'));
    expect((await h.call('GET', `${I}/abc`)).status).toBe(404);
  });
});

describe('POST /repos/{o}/{r}/issues', () => {
  it('creates an issue (201) with labels, milestone, assignees and due date for writers', async () => {
    h = await boot();
    const labels = (await h.call<{ id: number; name: string }[]>('GET', 'repos/acme/widgets/labels')).json;
    const orgLabel = (await h.call<{ id: number }[]>('GET', 'orgs/acme/labels')).json[0]!;
    const foreign = (await h.call<{ id: number }[]>('GET', 'repos/acme/attic/labels')).json[0]!;
    const milestone = h.sb.state.data.milestones[0]!;
    const res = await h.call<Issue>('POST', I, {
      token: 'bob-token',
      body: { title: 'Third', body: 'text', labels: [labels[1]!.id, orgLabel.id, foreign.id, 9999], milestone: milestone.id, assignees: ['bob', 'root'], due_date: '2030-01-02T10:00:00+02:00' },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ number: 3, title: 'Third', body: 'text', state: 'open', user: { login: 'bob' }, milestone: { id: milestone.id }, due_date: '2030-01-02T08:00:00Z' });
    expect(res.json.labels.map((l) => l.name)).toEqual(['feature', 'org-bug']);
    expect(res.json.assignees?.map((a) => a.login)).toEqual(['bob', 'root']);
    expect((await h.call<Issue>('GET', `${I}/3`)).json.title).toBe('Third');
    const closed = await h.call<Issue>('POST', I, { body: { title: 'Done', closed: true, milestone: 4242 } });
    expect(closed.json).toMatchObject({ number: 4, state: 'closed', milestone: null });
  });

  it('drops writer-only fields silently for readers', async () => {
    h = await boot();
    const bug = (await h.call<{ id: number }>('GET', 'repos/acme/widgets/labels/bug')).json;
    const res = await h.call<Issue>('POST', I, { token: 'carol-token', body: { title: 'From outside', labels: [bug.id], assignees: ['bob'], due_date: '2030-01-01T00:00:00Z' } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ labels: [], assignees: null, due_date: null, user: { login: 'carol' } });
  });

  it('answers 422 for a missing title or an unknown assignee, 401 without a token, 423 when archived', async () => {
    h = await boot();
    expect((await h.call('POST', I, { body: { body: 'x' } })).json).toEqual(apiError(h, '[Title]: Required'));
    expect((await h.call('POST', I, { body: { title: 'x', assignees: ['ghost'] } })).json).toEqual(
      apiError(h, 'Assignee does not exist: [name: user does not exist [uid: 0, name: ghost]]'),
    );
    expect((await h.call('POST', I, { body: { title: 'x', labels: ['bug'] } })).json).toEqual(
      apiError(h, '[]: json: cannot unmarshal string into Go struct field CreateIssueOption.labels of type int64'),
    );
    expect((await h.call('POST', I, { token: null, body: { title: 'x' } })).status).toBe(401);
    const archived = await h.call('POST', 'repos/acme/attic/issues', { body: { title: 'x' } });
    expect(archived.status).toBe(423);
    expect(archived.json).toEqual(apiError(h, 'repo is archived'));
    expect((await h.call('POST', 'repos/acme/secret/issues', { token: null, body: { title: 'x' } })).status).toBe(404);
  });

  it('answers 404 on issue routes of a repository with issues and pull requests disabled', async () => {
    h = await boot({ users: [{ username: 'root', admin: true }], repos: [{ name: 'root/quiet', has_issues: false, has_pull_requests: false }] });
    expect((await h.call('POST', 'repos/root/quiet/issues', { body: { title: 'x' } })).status).toBe(404);
    expect((await h.call('GET', 'repos/root/quiet/labels')).status).toBe(200);
  });
});
