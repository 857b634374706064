import { afterEach, describe, expect, it } from 'vitest';
import { apiError, boot, type Harness, notFoundError } from './helpers.js';
import { ISSUE_SEED, type ApiIssue } from './issues-seed.js';

let h: Harness;
afterEach(async () => h?.sb.close());

const W = 'repos/acme/widgets/issues';

function milestoneId(h: Harness, repo: string, title: string): number {
  const r = h.sb.state.data.repos.find((x) => x.name === repo)!;
  return h.sb.state.data.milestones.find((m) => m.repoId === r.id && m.title === title)!.id;
}

function projectId(h: Harness, title: string): number {
  return h.sb.state.data.projects.find((p) => p.title === title)!.id;
}

describe('PATCH /repos/{o}/{r}/issues/{index}', () => {
  it('answers 201 with the re-read issue (the upstream TestAPIEditIssue request)', async () => {
    h = await boot(ISSUE_SEED);
    const v2 = milestoneId(h, 'widgets', 'v2');
    const res = await h.call<ApiIssue>('PATCH', `${W}/2`, { body: { state: 'open', unset_due_date: true, milestone: v2, body: 'new body', title: 'New title' } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ number: 2, state: 'open', milestone: { id: v2, title: 'v2' }, body: 'new body', title: 'New title', due_date: null, closed_at: null, content_version: 1 });
    expect((await h.call<ApiIssue>('GET', `${W}/2`)).json).toMatchObject({ title: 'New title', body: 'new body', milestone: { id: v2 } });
  });

  it('answers 403 with an empty body to callers who are neither the author nor writers', async () => {
    h = await boot(ISSUE_SEED);
    const res = await h.call('PATCH', `${W}/1`, { token: 'carol-token', body: { title: 'mine now' } });
    expect(res.status).toBe(403);
    expect(res.text).toBe('');
    expect((await h.call<ApiIssue>('GET', `${W}/1`)).json.title).toBe('Crash on start');
  });

  it("lets a non-writer author edit title, body and state but drops writer-only fields silently (201)", async () => {
    h = await boot(ISSUE_SEED);
    const v1 = milestoneId(h, 'widgets', 'v1');
    const res = await h.call<ApiIssue>('PATCH', `${W}/1`, {
      token: 'alice-token',
      body: { title: 'Crash (alice)', body: 'details', state: 'closed', assignees: ['bob'], milestone: v1, due_date: '2030-01-01T10:00:00Z', projects: [projectId(h, 'Roadmap')] },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ title: 'Crash (alice)', body: 'details', state: 'closed', assignees: null, milestone: null, due_date: null, projects: [] });
    // unset_due_date: false without due_date is not even checked for a non-writer.
    expect((await h.call('PATCH', `${W}/1`, { token: 'alice-token', body: { unset_due_date: false } })).status).toBe(201);
  });

  it('applies fields in order: a later failure (412 unknown state) keeps the earlier changes', async () => {
    h = await boot(ISSUE_SEED);
    const res = await h.call('PATCH', `${W}/4`, { body: { title: 'Docs v2', body: 'changed', state: 'reopened' } });
    expect(res.status).toBe(412);
    expect(res.json).toEqual(apiError(h, 'unknown state: reopened'));
    expect((await h.call<ApiIssue>('GET', `${W}/4`)).json).toMatchObject({ title: 'Docs v2', body: 'changed', state: 'open', content_version: 1 });
  });

  it('ignores an empty title and sets ref', async () => {
    h = await boot(ISSUE_SEED);
    const res = await h.call<ApiIssue>('PATCH', `${W}/4`, { body: { title: '', ref: 'refs/heads/dev' } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ title: 'Docs', ref: 'refs/heads/dev' });
  });

  describe('due date', () => {
    it('is saved as 23:59:59 of the given calendar day in the offset given', async () => {
      h = await boot(ISSUE_SEED);
      const res = await h.call<ApiIssue>('PATCH', `${W}/4`, { body: { due_date: '2030-01-02T01:30:00+02:00' } });
      expect(res.status).toBe(201);
      // 2030-01-02 23:59:59 at +02:00 is 21:59:59 UTC (not the UTC day of the given instant, 2030-01-01).
      expect(res.json.due_date).toBe('2030-01-02T21:59:59Z');
      expect((await h.call<ApiIssue>('PATCH', `${W}/4`, { body: { due_date: '2030-03-04T00:00:00Z' } })).json.due_date).toBe('2030-03-04T23:59:59Z');
    });

    it('is removed by unset_due_date: true (even beside a due_date) and by the zero time', async () => {
      h = await boot(ISSUE_SEED);
      expect((await h.call<ApiIssue>('PATCH', `${W}/2`, { body: { unset_due_date: true, due_date: '2031-01-01T00:00:00Z' } })).json.due_date).toBeNull();
      await h.call('PATCH', `${W}/2`, { body: { due_date: '2031-01-01T00:00:00Z' } });
      expect((await h.call<ApiIssue>('PATCH', `${W}/2`, { body: { due_date: '0001-01-01T00:00:00Z' } })).json.due_date).toBeNull();
    });

    it('answers 400 for unset_due_date: false without a due_date', async () => {
      h = await boot(ISSUE_SEED);
      const res = await h.call('PATCH', `${W}/2`, { body: { unset_due_date: false } });
      expect(res.status).toBe(400);
      expect(res.json).toEqual(apiError(h, 'The due_date cannot be empty'));
    });
  });

  describe('assignees', () => {
    it('replaces the set with assignees; "assignee": "" and [] clear it', async () => {
      h = await boot(ISSUE_SEED);
      const set = await h.call<ApiIssue>('PATCH', `${W}/4`, { token: 'bob-token', body: { assignees: ['root', 'bob'] } });
      expect(set.status).toBe(201);
      expect(set.json.assignees?.map((a) => a.login)).toEqual(['root', 'bob']);
      expect((await h.call<ApiIssue>('PATCH', `${W}/4`, { body: { assignees: ['BOB'] } })).json.assignees?.map((a) => a.login)).toEqual(['bob']);
      const cleared = await h.call<ApiIssue>('PATCH', `${W}/4`, { body: { assignee: '' } });
      expect(cleared.json).toMatchObject({ assignees: null, assignee: null });
      await h.call('PATCH', `${W}/4`, { body: { assignee: 'bob' } });
      expect((await h.call<ApiIssue>('PATCH', `${W}/4`, { body: { assignees: [] } })).json.assignees).toBeNull();
    });

    it('answers 500 for an unknown user (the Go error text only for site admins) and changes nothing', async () => {
      h = await boot(ISSUE_SEED);
      const admin = await h.call('PATCH', `${W}/2`, { body: { assignees: ['ghost'] } });
      expect(admin.status).toBe(500);
      expect(admin.json).toEqual(apiError(h, 'user does not exist [uid: 0, name: ghost]'));
      const writer = await h.call('PATCH', `${W}/2`, { token: 'bob-token', body: { assignees: ['ghost'] } });
      expect(writer.status).toBe(500);
      expect(writer.json).toEqual(apiError(h, ''));
      expect((await h.call<ApiIssue>('GET', `${W}/2`)).json.assignees?.map((a) => a.login)).toEqual(['bob']);
    });

    it('answers 500 for a user who cannot be assigned, after removing the assignees not named', async () => {
      h = await boot(ISSUE_SEED);
      const S = 'repos/acme/secret/issues/1';
      const carol = h.sb.state.userByName('carol')!;
      const secret = h.sb.state.data.repos.find((r) => r.name === 'secret')!;
      await h.call('PATCH', S, { body: { assignees: ['bob'] } });
      const res = await h.call('PATCH', S, { body: { assignees: ['root', 'carol'] } });
      expect(res.status).toBe(500);
      expect(res.json).toEqual(apiError(h, `user doesn't have access to repo [user_id: ${carol.id}, repo_name: secret]`));
      expect((await h.call<ApiIssue>('GET', S)).json.assignees?.map((a) => a.login)).toEqual(['root']);
      // An organisation name resolves (it is a row of the user table) and is then refused.
      const org = await h.call('PATCH', S, { body: { assignees: ['acme'] } });
      expect(org.json).toEqual(apiError(h, `organization can't be added as assignee [user_id: ${h.sb.state.orgByName('acme')!.id}, repo_id: ${secret.id}]`));
    });
  });

  describe('milestone', () => {
    it('sets a milestone by id and removes it with 0', async () => {
      h = await boot(ISSUE_SEED);
      const v1 = milestoneId(h, 'widgets', 'v1');
      expect((await h.call<ApiIssue>('PATCH', `${W}/4`, { body: { milestone: v1 } })).json.milestone).toMatchObject({ id: v1, title: 'v1' });
      const removed = await h.call<ApiIssue>('PATCH', `${W}/4`, { body: { milestone: 0 } });
      expect(removed.status).toBe(201);
      expect(removed.json.milestone).toBeNull();
    });

    it('answers 500 for an unknown milestone or one of another repository, keeping the earlier fields', async () => {
      h = await boot({ ...ISSUE_SEED, repos: [...ISSUE_SEED.repos!, { name: 'acme/other', milestones: [{ title: 'elsewhere' }] }] });
      const unknown = await h.call('PATCH', `${W}/4`, { body: { title: 'Docs!', milestone: 4242 } });
      expect(unknown.status).toBe(500);
      expect(unknown.json).toEqual(apiError(h, "HasMilestoneByRepoID: issue doesn't exist"));
      const foreign = await h.call('PATCH', `${W}/4`, { body: { milestone: milestoneId(h, 'other', 'elsewhere') } });
      expect(foreign.status).toBe(500);
      expect((await h.call<ApiIssue>('GET', `${W}/4`)).json).toMatchObject({ title: 'Docs!', milestone: null });
    });
  });

  describe('content_version', () => {
    it('advances on every body edit and answers 409 {message,url} when stale, after the title was applied', async () => {
      h = await boot(ISSUE_SEED);
      const first = await h.call<ApiIssue>('PATCH', `${W}/4`, { body: { body: 'one', content_version: 0 } });
      expect(first.status).toBe(201);
      expect(first.json.content_version).toBe(1);
      // Same text again still advances the version; title-only edits do not.
      expect((await h.call<ApiIssue>('PATCH', `${W}/4`, { body: { body: 'one' } })).json.content_version).toBe(2);
      expect((await h.call<ApiIssue>('PATCH', `${W}/4`, { body: { title: 'T' } })).json.content_version).toBe(2);
      const stale = await h.call('PATCH', `${W}/4`, { body: { title: 'Docs (stale)', body: 'two', content_version: 1 } });
      expect(stale.status).toBe(409);
      expect(stale.json).toEqual(apiError(h, 'the issue is already changed'));
      expect((await h.call<ApiIssue>('GET', `${W}/4`)).json).toMatchObject({ title: 'Docs (stale)', body: 'one', content_version: 2 });
      // Without a body, content_version is not checked.
      expect((await h.call('PATCH', `${W}/4`, { body: { content_version: 99, title: 'Docs' } })).status).toBe(201);
    });
  });

  describe('projects', () => {
    it('replaces the projects of an issue; [] clears them; an unknown id is 422', async () => {
      h = await boot(ISSUE_SEED);
      const roadmap = projectId(h, 'Roadmap');
      const backlog = projectId(h, 'Backlog');
      const res = await h.call<ApiIssue>('PATCH', `${W}/2`, { body: { projects: [backlog] } });
      expect(res.status).toBe(201);
      expect(res.json.projects.map((p) => p.title)).toEqual(['Backlog']);
      expect((await h.call<ApiIssue>('PATCH', `${W}/2`, { body: { projects: [roadmap, backlog] } })).json.projects.map((p) => p.id)).toEqual([roadmap, backlog]);
      expect((await h.call<ApiIssue>('PATCH', `${W}/2`, { body: { projects: [] } })).json.projects).toEqual([]);
      const unknown = await h.call('PATCH', `${W}/2`, { body: { projects: [777] } });
      expect(unknown.status).toBe(422);
      expect(unknown.json).toEqual(apiError(h, 'projects does not exist [id: 777]'));
    });
  });

  it('reopens and closes; the author may close their own issue', async () => {
    h = await boot(ISSUE_SEED);
    const closed = await h.call<ApiIssue>('PATCH', `${W}/1`, { token: 'alice-token', body: { state: 'closed' } });
    expect(closed.json.state).toBe('closed');
    expect(closed.json.closed_at).not.toBeNull();
    const reopened = await h.call<ApiIssue>('PATCH', `${W}/1`, { token: 'alice-token', body: { state: 'open' } });
    expect(reopened.json).toMatchObject({ state: 'open', closed_at: null });
  });

  it('has no archived check; 404 for an unknown issue; 401 without a token; 422 for a wrong JSON type', async () => {
    h = await boot(ISSUE_SEED);
    expect((await h.call<ApiIssue>('PATCH', 'repos/acme/attic/issues/1', { body: { title: 'Still editable' } })).status).toBe(201);
    expect((await h.call('PATCH', `${W}/99`, { body: { title: 'x' } })).json).toEqual(notFoundError(h));
    expect((await h.call('PATCH', `${W}/1`, { token: null, body: { title: 'x' } })).status).toBe(401);
    const bad = await h.call('PATCH', `${W}/1`, { body: { milestone: 'v1' } });
    expect(bad.status).toBe(422);
    expect(bad.json).toEqual(apiError(h, '[]: json: cannot unmarshal string into Go struct field EditIssueOption.milestone of type int64'));
  });

  it('logs misspelt fields as unknown', async () => {
    h = await boot(ISSUE_SEED);
    h.sb.clearRequests();
    await h.call('PATCH', `${W}/4`, { body: { titel: 'x', due_date: '2030-01-01T00:00:00Z' } });
    expect(h.sb.requests().at(-1)!.unknownFields).toEqual(['titel']);
  });
});
