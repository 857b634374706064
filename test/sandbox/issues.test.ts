import { afterEach, describe, expect, it } from 'vitest';
import { buildState } from '../../src/sandbox/index.js';
import { apiError, boot, type Harness, notFoundError } from './helpers.js';
import { ISSUE_SEED, type ApiIssue } from './issues-seed.js';

let h: Harness;
afterEach(async () => h?.sb.close());

const I = 'repos/acme/widgets/issues';

describe('GET /repos/{o}/{r}/issues/{index}', () => {
  it('returns seeded issues, numbered in order, labels sorted by name', async () => {
    h = await boot();
    const first = await h.call<ApiIssue>('GET', `${I}/1`, { token: null });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ number: 1, title: 'First', body: 'one', state: 'open', user: { login: 'bob' }, milestone: null, assignees: null, assignee: null, due_date: null, content_version: 0 });
    expect(first.json.labels.map((l) => l.name)).toEqual(['bug']);
    const second = await h.call<ApiIssue>('GET', `${I}/2`);
    expect(second.json).toMatchObject({ number: 2, state: 'closed', milestone: { title: 'v1' }, assignees: [{ login: 'bob' }], assignee: { login: 'bob' } });
    expect(second.json.closed_at).not.toBeNull();
    expect(second.json.labels.map((l) => l.name)).toEqual(['bug', 'org-bug']);
    expect(second.json.labels[1]!.url).toMatch(/\/api\/v1\/orgs\/acme\/labels\/\d+$/);
    const missing = await h.call('GET', `${I}/99`);
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual(notFoundError(h));
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
    const res = await h.call<ApiIssue>('POST', I, {
      token: 'bob-token',
      body: { title: 'Third', body: 'text', labels: [labels[1]!.id, orgLabel.id, foreign.id, 9999], milestone: milestone.id, assignees: ['bob', 'root'], due_date: '2030-01-02T10:00:00+02:00' },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ number: 3, title: 'Third', body: 'text', state: 'open', user: { login: 'bob' }, milestone: { id: milestone.id }, due_date: '2030-01-02T08:00:00Z' });
    expect(res.json.labels.map((l) => l.name)).toEqual(['feature', 'org-bug']);
    expect(res.json.assignees?.map((a) => a.login)).toEqual(['bob', 'root']);
    expect((await h.call<ApiIssue>('GET', `${I}/3`)).json.title).toBe('Third');
    const closed = await h.call<ApiIssue>('POST', I, { body: { title: 'Done', closed: true, milestone: 4242 } });
    expect(closed.json).toMatchObject({ number: 4, state: 'closed', milestone: null });
  });

  it('drops writer-only fields silently for readers', async () => {
    h = await boot();
    const bug = (await h.call<{ id: number }>('GET', 'repos/acme/widgets/labels/bug')).json;
    const res = await h.call<ApiIssue>('POST', I, { token: 'carol-token', body: { title: 'From outside', labels: [bug.id], assignees: ['bob'], due_date: '2030-01-01T00:00:00Z' } });
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

// ---- lists, search, milestones and the seed keys (ISSUE_SEED) ------------------------------------

const W = 'repos/acme/widgets';
const titles = (issues: { title: string }[]): string[] => issues.map((i) => i.title);

describe('GET /repos/{o}/{r}/issues', () => {
  it('lists open issues newest first by default, with X-Total-Count; state=closed|all', async () => {
    h = await boot(ISSUE_SEED);
    const res = await h.call<ApiIssue[]>('GET', `${W}/issues`, { token: null });
    expect(res.status).toBe(200);
    expect(titles(res.json)).toEqual(['Docs', 'Feature request', 'Crash on start']);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(res.headers.get('link')).toBeNull();
    expect(titles((await h.call<ApiIssue[]>('GET', `${W}/issues?state=closed`)).json)).toEqual(['Old crash']);
    expect((await h.call('GET', `${W}/issues?state=all`)).headers.get('x-total-count')).toBe('4');
  });

  it('filters by label names: repository labels only, all of them required, unknown names dropped', async () => {
    h = await boot(ISSUE_SEED);
    expect(titles((await h.call<ApiIssue[]>('GET', `${W}/issues?state=all&labels=bug`)).json)).toEqual(['Old crash', 'Crash on start']);
    // org-bug is an organisation label: not a filter of this list.
    expect(titles((await h.call<ApiIssue[]>('GET', `${W}/issues?state=all&labels=bug,org-bug`)).json)).toEqual(['Old crash', 'Crash on start']);
    expect((await h.call<ApiIssue[]>('GET', `${W}/issues?state=all&labels=bug,feature`)).json).toEqual([]);
    // Only unknown names: no label filter at all.
    expect((await h.call('GET', `${W}/issues?labels=nope`)).headers.get('x-total-count')).toBe('3');
  });

  it('filters by milestone names or ids, type, q and created_by / assigned_by', async () => {
    h = await boot(ISSUE_SEED);
    const v2 = h.sb.state.data.milestones.find((m) => m.title === 'v2')!.id;
    expect(titles((await h.call<ApiIssue[]>('GET', `${W}/issues?state=all&milestones=v1`)).json)).toEqual(['Old crash']);
    expect(titles((await h.call<ApiIssue[]>('GET', `${W}/issues?milestones=${v2}`)).json)).toEqual(['Feature request']);
    expect((await h.call<ApiIssue[]>('GET', `${W}/issues?type=pulls`)).json).toEqual([]);
    expect(titles((await h.call<ApiIssue[]>('GET', `${W}/issues?state=all&q=CRASH`)).json)).toEqual(['Old crash', 'Crash on start']);
    expect(titles((await h.call<ApiIssue[]>('GET', `${W}/issues?created_by=bob`)).json)).toEqual(['Docs', 'Feature request']);
    expect(titles((await h.call<ApiIssue[]>('GET', `${W}/issues?state=all&assigned_by=bob`)).json)).toEqual(['Old crash']);
    expect((await h.call('GET', `${W}/issues?created_by=ghost`)).status).toBe(404);
    const since = await h.call('GET', `${W}/issues?since=yesterday`);
    expect(since.status).toBe(422);
    expect((await h.call<ApiIssue[]>('GET', `${W}/issues?since=2999-01-01T00:00:00Z`)).json).toEqual([]);
  });

  it('pages with limit/page, X-Total-Count and Link', async () => {
    h = await boot(ISSUE_SEED);
    const res = await h.call<ApiIssue[]>('GET', `${W}/issues?limit=1&page=2`);
    expect(titles(res.json)).toEqual(['Feature request']);
    expect(res.headers.get('x-total-count')).toBe('3');
    const base = `${h.url}/api/v1/${W}/issues`;
    expect(res.headers.get('link')).toBe(
      `<${base}?limit=1&page=3>; rel="next",<${base}?limit=1&page=3>; rel="last",<${base}?limit=1&page=1>; rel="first",<${base}?limit=1&page=1>; rel="prev"`,
    );
  });
});

describe('GET /repos/issues/search', () => {
  it('counts the issues carrying a label with limit=1 through X-Total-Count (repositories the caller can read)', async () => {
    h = await boot(ISSUE_SEED);
    const carol = await h.call<ApiIssue[]>('GET', 'repos/issues/search?labels=bug&limit=1', { token: 'carol-token' });
    expect(carol.status).toBe(200);
    expect(carol.json).toHaveLength(1);
    // widgets#1, gadgets#1, notes#1 — not the private acme/secret, not the closed widgets#2.
    expect(carol.headers.get('x-total-count')).toBe('3');
    expect(carol.headers.get('link')).toContain('rel="next"');
    expect((await h.call('GET', 'repos/issues/search?labels=bug&limit=1')).headers.get('x-total-count')).toBe('4');
    expect((await h.call('GET', 'repos/issues/search?labels=bug&limit=1&state=all')).headers.get('x-total-count')).toBe('5');
    expect((await h.call('GET', 'repos/issues/search?labels=org-bug&state=all', { token: null })).headers.get('x-total-count')).toBe('1');
  });

  it('matches any of several label names; only unknown names mean no label filter', async () => {
    h = await boot(ISSUE_SEED);
    const any = await h.call<ApiIssue[]>('GET', 'repos/issues/search?labels=feature,org-bug&state=all&owner=acme');
    expect(titles(any.json)).toEqual(['Feature request', 'Old crash']);
    expect((await h.call('GET', 'repos/issues/search?labels=nope', { token: 'carol-token' })).headers.get('x-total-count')).toBe('6');
  });

  it('filters by owner (400 for an unknown one), q, milestones, created, assigned and mentioned', async () => {
    h = await boot(ISSUE_SEED);
    expect(titles((await h.call<ApiIssue[]>('GET', 'repos/issues/search?owner=alice')).json)).toEqual(['Note crash']);
    const ghost = await h.call('GET', 'repos/issues/search?owner=ghost');
    expect(ghost.status).toBe(400);
    expect(ghost.json).toEqual(apiError(h, 'user does not exist [uid: 0, name: ghost]'));
    expect((await h.call('GET', 'repos/issues/search?team=devs')).json).toEqual(apiError(h, 'Owner organisation is required for filtering on team'));
    expect((await h.call('GET', 'repos/issues/search?q=crash', { token: 'carol-token' })).headers.get('x-total-count')).toBe('3');
    expect(titles((await h.call<ApiIssue[]>('GET', 'repos/issues/search?milestones=V1&state=all')).json)).toEqual(['Old crash']);
    expect(titles((await h.call<ApiIssue[]>('GET', 'repos/issues/search?created=true', { token: 'bob-token' })).json)).toEqual(['Docs', 'Feature request']);
    expect(titles((await h.call<ApiIssue[]>('GET', 'repos/issues/search?assigned=true&state=all', { token: 'bob-token' })).json)).toEqual(['Old crash']);
    expect(titles((await h.call<ApiIssue[]>('GET', 'repos/issues/search?mentioned=true', { token: 'alice-token' })).json)).toEqual(['Feature request']);
  });

  it('defaults to 20 items per page', async () => {
    const many = { ...ISSUE_SEED, repos: [{ name: 'acme/busy', issues: Array.from({ length: 25 }, (_, i) => ({ title: `Issue ${i + 1}` })) }] };
    h = await boot(many);
    const res = await h.call<ApiIssue[]>('GET', 'repos/issues/search');
    expect(res.json).toHaveLength(20);
    expect(res.headers.get('x-total-count')).toBe('25');
    expect((await h.call<ApiIssue[]>('GET', 'repos/acme/busy/issues')).json).toHaveLength(25);
  });
});

interface Milestone {
  id: number;
  title: string;
  description: string;
  state: string;
  open_issues: number;
  closed_issues: number;
  closed_at: string | null;
  due_on: string | null;
}

describe('milestones', () => {
  it('lists open milestones by due date (none last) with X-Total-Count only; state and name filters', async () => {
    h = await boot(ISSUE_SEED);
    const res = await h.call<Milestone[]>('GET', `${W}/milestones`, { token: null });
    expect(res.status).toBe(200);
    expect(titles(res.json)).toEqual(['v2', 'v1', 'someday']);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(res.headers.get('link')).toBeNull();
    expect(res.json[1]).toMatchObject({ title: 'v1', state: 'open', open_issues: 0, closed_issues: 1, due_on: '2030-06-01T00:00:00Z', closed_at: null });
    expect(res.json[2]!.due_on).toBeNull();
    expect(titles((await h.call<Milestone[]>('GET', `${W}/milestones?state=all`)).json)).toEqual(['old', 'v2', 'v1', 'someday']);
    expect(titles((await h.call<Milestone[]>('GET', `${W}/milestones?state=closed`)).json)).toEqual(['old']);
    expect(titles((await h.call<Milestone[]>('GET', `${W}/milestones?name=V`)).json)).toEqual(['v2', 'v1']);
    const paged = await h.call<Milestone[]>('GET', `${W}/milestones?limit=1&page=2`);
    expect(titles(paged.json)).toEqual(['v1']);
    expect(paged.headers.get('x-total-count')).toBe('3');
  });

  it('gets a milestone by id, or by exact title when no milestone has that id', async () => {
    h = await boot(ISSUE_SEED);
    const v1 = h.sb.state.data.milestones.find((m) => m.title === 'v1')!;
    expect((await h.call<Milestone>('GET', `${W}/milestones/${v1.id}`)).json.title).toBe('v1');
    expect((await h.call<Milestone>('GET', `${W}/milestones/0x${v1.id.toString(16)}`)).json.title).toBe('v1');
    expect((await h.call<Milestone>('GET', `${W}/milestones/someday`)).json.title).toBe('someday');
    const missing = await h.call('GET', `${W}/milestones/Someday`);
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual(notFoundError(h));
  });

  it('creates milestones (201): due_on as given, none = null, state closed honoured', async () => {
    h = await boot(ISSUE_SEED);
    const res = await h.call<Milestone>('POST', `${W}/milestones`, { token: 'bob-token', body: { title: 'v3', description: 'next', due_on: '2031-01-01T10:00:00+02:00', state: 'closed' } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ title: 'v3', description: 'next', state: 'closed', due_on: '2031-01-01T08:00:00Z', open_issues: 0, closed_issues: 0 });
    expect(res.json.closed_at).not.toBeNull();
    const plain = await h.call<Milestone>('POST', `${W}/milestones`, { body: { title: 'v4', state: 'bogus' } });
    expect(plain.json).toMatchObject({ title: 'v4', state: 'open', due_on: null, closed_at: null });
    expect((await h.call<Milestone>('GET', `${W}/milestones/v4`)).json.id).toBe(plain.json.id);
  });

  it('answers 403 to non-writers and 401 without a token; is served with issues and pulls disabled', async () => {
    h = await boot(ISSUE_SEED);
    const refused = await h.call('POST', `${W}/milestones`, { token: 'alice-token', body: { title: 'x' } });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual(apiError(h, 'user should have a permission to write to a repo'));
    expect((await h.call('POST', `${W}/milestones`, { token: null, body: { title: 'x' } })).status).toBe(401);
    await h.sb.close();
    h = await boot({ users: [{ username: 'root', admin: true }], repos: [{ name: 'root/quiet', has_issues: false, has_pull_requests: false, milestones: [{ title: 'm' }] }] });
    expect(titles((await h.call<Milestone[]>('GET', 'repos/root/quiet/milestones')).json)).toEqual(['m']);
  });
});

describe('seed: milestones, projects, issue fields', () => {
  it('stores seeded issues with labels, milestone, assignees, due date, projects, ref and author', async () => {
    h = await boot(ISSUE_SEED);
    const issue = (await h.call<ApiIssue>('GET', `${W}/issues/2`)).json;
    expect(issue).toMatchObject({ state: 'closed', milestone: { title: 'v1' }, assignees: [{ login: 'bob' }], due_date: '2030-02-03T12:00:00Z', user: { login: 'root' } });
    expect(issue.projects).toEqual([
      expect.objectContaining({ title: 'Roadmap', description: 'the plan', owner_id: 0, state: 'open', type: 'repository', num_issues: 1, num_closed_issues: 1 }),
    ]);
    expect((await h.call<ApiIssue>('GET', `${W}/issues/4`)).json).toMatchObject({ ref: 'main', user: { login: 'bob' }, projects: [] });
  });

  it('rejects an unknown project title', () => {
    const bad = { ...ISSUE_SEED, repos: [{ name: 'acme/x', issues: [{ title: 'y', projects: ['Nope'] }] }] };
    expect(() => buildState(bad)).toThrow('repos[0].issues[0].projects[0]: no project "Nope" in acme/x');
  });
});
