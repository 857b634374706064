import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { apiError, boot, SEED, type Harness } from './helpers.js';
import type { ApiRunner } from '../support/api-types.js';

let h: Harness;
afterEach(async () => h?.sb.close());

const ACTIONS_SEED: SeedFile = {
  ...SEED,
  actions: {
    registration_token: 'seeded-registration-token-0000000000000',
    runners: [
      { name: 'busy-runner', status: 'active', labels: ['ubuntu-latest', 'docker'] },
      { name: 'idle-runner', labels: ['linux'] },
      { name: 'old-runner', status: 'offline', disabled: true, owner: 'acme' },
      { name: 'repo-runner', last_online: '2020-01-01T00:00:00Z', repo: 'acme/widgets', ephemeral: true },
    ],
    runs: [
      { repo: 'acme/widgets', workflow: 'ci.yml', title: 'First build', status: 'success', actor: 'alice', sha: 'a'.repeat(40), jobs: [{ name: 'build', runner: 'busy-runner' }, { name: 'test', status: 'failure' }] },
      { repo: 'acme/widgets', workflow: 'ci.yml', branch: 'develop', status: 'running', actor: 'bob', event: 'pull_request', jobs: [{ name: 'build', labels: ['linux'] }] },
      { repo: 'alice/personal', workflow: 'release.yml', status: 'waiting', actor: 'alice', jobs: [{ name: 'publish' }] },
    ],
  },
};

describe('admin runners', () => {
  it('GET /admin/actions/runners lists every runner with the body count and no paging headers', async () => {
    h = await boot(ACTIONS_SEED);
    const res = await h.call<{ runners: ApiRunner[]; total_count: number }>('GET', 'admin/actions/runners');
    expect(res.status).toBe(200);
    expect(res.json.total_count).toBe(4);
    expect(res.headers.get('x-total-count')).toBeNull();
    expect(res.headers.get('link')).toBeNull();
    const byName = Object.fromEntries(res.json.runners.map((r) => [r.name, r]));
    expect(byName['busy-runner']).toEqual({ id: 1, name: 'busy-runner', status: 'online', busy: true, disabled: false, ephemeral: false, labels: [{ id: 0, name: 'ubuntu-latest', type: 'custom' }, { id: 1, name: 'docker', type: 'custom' }] });
    expect(byName['idle-runner']).toMatchObject({ status: 'online', busy: false });
    expect(byName['old-runner']).toMatchObject({ status: 'offline', busy: false, disabled: true });
    expect(byName['repo-runner']).toMatchObject({ status: 'offline', ephemeral: true });
    // last_online DESC: the connected runners first
    expect(res.json.runners.slice(2).map((r) => r.name)).toEqual(['repo-runner', 'old-runner']);
  });

  it('filters by disabled and honours page/limit while total_count counts all matches', async () => {
    h = await boot(ACTIONS_SEED);
    const disabled = await h.call<{ runners: ApiRunner[]; total_count: number }>('GET', 'admin/actions/runners?disabled=true');
    expect(disabled.json.runners.map((r) => r.name)).toEqual(['old-runner']);
    const enabled = await h.call<{ runners: ApiRunner[]; total_count: number }>('GET', 'admin/actions/runners?disabled=false');
    expect(enabled.json.total_count).toBe(3);
    const page = await h.call<{ runners: ApiRunner[]; total_count: number }>('GET', 'admin/actions/runners?limit=1&page=2');
    expect(page.json.runners).toHaveLength(1);
    expect(page.json.total_count).toBe(4);
    const bogus = await h.call<{ total_count: number }>('GET', 'admin/actions/runners?disabled=maybe');
    expect(bogus.json.total_count).toBe(4);
  });

  it('answers 403 to non-admins and 401 without a token on every /admin/actions route', async () => {
    h = await boot(ACTIONS_SEED);
    for (const [method, path] of [
      ['GET', 'admin/actions/runners'],
      ['POST', 'admin/actions/runners/registration-token'],
      ['GET', 'admin/actions/runners/1'],
      ['PATCH', 'admin/actions/runners/1'],
      ['DELETE', 'admin/actions/runners/1'],
      ['GET', 'admin/actions/runs'],
      ['GET', 'admin/actions/jobs'],
    ] as const) {
      const res = await h.call(method, path, { token: 'alice-token', body: method === 'PATCH' ? { disabled: true } : undefined });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json).toEqual(apiError(h, 'user should be the site admin'));
      expect((await h.call(method, path, { token: null })).status).toBe(401);
    }
    const scoped = await h.call('GET', 'admin/actions/runners', { token: 'mia-read-token' });
    expect(scoped.status).toBe(403);
    expect((scoped.json as { message: string }).message).toContain('required=[read:admin]');
  });

  it('GET /admin/actions/runners/{id} answers the runner, 404 for unknown or non-numeric ids', async () => {
    h = await boot(ACTIONS_SEED);
    const res = await h.call<ApiRunner>('GET', 'admin/actions/runners/2');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: 2, name: 'idle-runner', status: 'online', busy: false });
    const missing = await h.call('GET', 'admin/actions/runners/99');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual(apiError(h, 'runner with id 99: resource does not exist'));
    const word = await h.call('GET', 'admin/actions/runners/abc');
    expect(word.json).toEqual(apiError(h, 'runner with id 0: resource does not exist'));
  });

  it('PATCH /admin/actions/runners/{id} sets disabled and answers the re-read runner', async () => {
    h = await boot(ACTIONS_SEED);
    const res = await h.call<ApiRunner>('PATCH', 'admin/actions/runners/2', { body: { disabled: true } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: 2, disabled: true });
    expect((await h.call<ApiRunner>('GET', 'admin/actions/runners/2')).json.disabled).toBe(true);
    const back = await h.call<ApiRunner>('PATCH', 'admin/actions/runners/2', { body: { disabled: false } });
    expect(back.json.disabled).toBe(false);
  });

  it('PATCH without disabled (missing or null) is 422 [Disabled]: Required; an unknown runner is 404 first', async () => {
    h = await boot(ACTIONS_SEED);
    for (const body of [{}, { disabled: null }, { enabled: true }]) {
      const res = await h.call('PATCH', 'admin/actions/runners/2', { body });
      expect(res.status).toBe(422);
      expect(res.json).toEqual(apiError(h, '[Disabled]: Required'));
    }
    const wrongType = await h.call('PATCH', 'admin/actions/runners/2', { body: { disabled: 'yes' } });
    expect(wrongType.status).toBe(422);
    expect((wrongType.json as { message: string }).message).toBe('[]: json: cannot unmarshal string into Go struct field EditActionRunnerOption.disabled of type bool');
    expect((await h.call('PATCH', 'admin/actions/runners/99', { body: {} })).status).toBe(404);
    expect(h.sb.requests().find((r) => r.body && JSON.stringify(r.body).includes('enabled'))?.unknownFields).toEqual(['enabled']);
  });

  it('DELETE /admin/actions/runners/{id} answers 204, then the runner is 404', async () => {
    h = await boot(ACTIONS_SEED);
    const res = await h.call('DELETE', 'admin/actions/runners/3');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await h.call('GET', 'admin/actions/runners/3')).status).toBe(404);
    expect((await h.call('DELETE', 'admin/actions/runners/3')).status).toBe(404);
  });

  it('POST /admin/actions/runners/registration-token is 200 and returns the same token every time', async () => {
    h = await boot(ACTIONS_SEED);
    const a = await h.call<{ token: string }>('POST', 'admin/actions/runners/registration-token');
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ token: 'seeded-registration-token-0000000000000' });
    const b = await h.call<{ token: string }>('POST', 'admin/actions/runners/registration-token');
    expect(b.json.token).toBe(a.json.token);
    // GET is no route of its own: it reaches /{runner_id} (id 0)
    expect((await h.call('GET', 'admin/actions/runners/registration-token')).status).toBe(404);
  });

  it('creates a 40-character token when none exists, and keeps it', async () => {
    h = await boot();
    const a = await h.call<{ token: string }>('POST', 'admin/actions/runners/registration-token');
    expect(a.json.token).toMatch(/^[0-9A-Za-z]{40}$/);
    expect((await h.call<{ token: string }>('POST', 'admin/actions/runners/registration-token')).json.token).toBe(a.json.token);
  });
});

type Run = Record<string, unknown> & { id: number; status: string; conclusion?: string; head_branch?: string; actor: { login: string } };

describe('admin workflow runs', () => {
  it('GET /admin/actions/runs lists every run, newest first, with Link and X-Total-Count', async () => {
    h = await boot(ACTIONS_SEED);
    const res = await h.call<{ total_count: number; workflow_runs: Run[] }>('GET', 'admin/actions/runs');
    expect(res.status).toBe(200);
    expect(res.json.total_count).toBe(3);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(res.json.workflow_runs.map((r) => r.id)).toEqual([3, 2, 1]);
    const first = res.json.workflow_runs[2]!;
    expect(first).toMatchObject({
      id: 1,
      url: `${h.url}/api/v1/repos/acme/widgets/actions/runs/1`,
      html_url: `${h.url}/acme/widgets/actions/runs/1`,
      display_title: 'First build',
      path: 'ci.yml@refs/heads/main',
      event: 'push',
      run_number: 1,
      run_attempt: 1,
      head_sha: 'a'.repeat(40),
      head_branch: 'main',
      status: 'completed',
      conclusion: 'success',
      actor: { login: 'alice' },
      trigger_actor: { login: 'alice' },
      repository: { full_name: 'acme/widgets' },
      pull_requests: [],
    });
    expect(res.json.workflow_runs[1]).toMatchObject({ status: 'in_progress', head_branch: 'develop', event: 'pull_request' });
    expect(res.json.workflow_runs[1]).not.toHaveProperty('conclusion');
    expect(res.json.workflow_runs[0]).toMatchObject({ status: 'queued', completed_at: '1970-01-01T00:00:00Z' });
    const paged = await h.call<{ total_count: number; workflow_runs: Run[] }>('GET', 'admin/actions/runs?limit=1');
    expect(paged.json.workflow_runs).toHaveLength(1);
    expect(paged.json.total_count).toBe(3);
    expect(paged.headers.get('link')).toBe(
      `<${h.url}/api/v1/admin/actions/runs?limit=1&page=2>; rel="next",<${h.url}/api/v1/admin/actions/runs?limit=1&page=3>; rel="last"`,
    );
  });

  it('filters by event, branch, status (repeatable), actor and head_sha', async () => {
    h = await boot(ACTIONS_SEED);
    const ids = async (q: string): Promise<number[]> => (await h.call<{ workflow_runs: Run[] }>('GET', `admin/actions/runs?${q}`)).json.workflow_runs.map((r) => r.id);
    expect(await ids('event=pull_request')).toEqual([2]);
    expect(await ids('branch=main')).toEqual([3, 1]);
    expect(await ids('status=success')).toEqual([1]);
    expect(await ids('status=completed')).toEqual([1]);
    expect(await ids('status=in_progress&status=queued')).toEqual([3, 2]);
    expect(await ids('actor=alice')).toEqual([3, 1]);
    expect(await ids(`head_sha=${'a'.repeat(40)}`)).toEqual([1]);
  });

  it('answers 400 to an unknown status and 500 to an unknown actor', async () => {
    h = await boot(ACTIONS_SEED);
    const bad = await h.call('GET', 'admin/actions/runs?status=bogus');
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual(apiError(h, 'Invalid status bogus'));
    const actor = await h.call('GET', 'admin/actions/runs?actor=nobody');
    expect(actor.status).toBe(500);
    expect(actor.json).toEqual(apiError(h, 'user does not exist [uid: 0, name: nobody]'));
  });
});

type Job = Record<string, unknown> & { id: number; name: string; status: string };

describe('admin workflow jobs', () => {
  it('GET /admin/actions/jobs lists jobs by id with their run, runner and paging headers', async () => {
    h = await boot(ACTIONS_SEED);
    const res = await h.call<{ total_count: number; jobs: Job[] }>('GET', 'admin/actions/jobs');
    expect(res.status).toBe(200);
    expect(res.json.total_count).toBe(4);
    expect(res.headers.get('x-total-count')).toBe('4');
    expect(res.json.jobs.map((j) => j.id)).toEqual([1, 2, 3, 4]);
    expect(res.json.jobs[0]).toMatchObject({
      id: 1,
      url: `${h.url}/api/v1/repos/acme/widgets/actions/jobs/1`,
      html_url: `${h.url}/acme/widgets/actions/runs/1/jobs/1`,
      run_id: 1,
      run_url: `${h.url}/api/v1/repos/acme/widgets/actions/runs/1`,
      name: 'build',
      labels: ['ubuntu-latest'],
      run_attempt: 1,
      head_branch: 'main',
      status: 'completed',
      conclusion: 'success',
      runner_id: 1,
      runner_name: 'busy-runner',
      steps: [],
    });
    expect(res.json.jobs[1]).toMatchObject({ name: 'test', conclusion: 'failure' });
    expect(res.json.jobs[1]).not.toHaveProperty('runner_id');
    const paged = await h.call<{ jobs: Job[] }>('GET', 'admin/actions/jobs?limit=3&page=2');
    expect(paged.json.jobs.map((j) => j.id)).toEqual([4]);
    expect(paged.headers.get('link')).toContain('rel="first"');
  });

  it('filters by status and sorts by id in either order', async () => {
    h = await boot(ACTIONS_SEED);
    const ids = async (q: string): Promise<number[]> => (await h.call<{ jobs: Job[] }>('GET', `admin/actions/jobs?${q}`)).json.jobs.map((j) => j.id);
    expect(await ids('status=failure')).toEqual([2]);
    expect(await ids('status=queued&status=in_progress')).toEqual([3, 4]);
    expect(await ids('sort=id&order=desc')).toEqual([4, 3, 2, 1]);
    expect(await ids('sort=id')).toEqual([1, 2, 3, 4]);
    // order without sort is ignored
    expect(await ids('order=desc')).toEqual([1, 2, 3, 4]);
  });

  it('answers 400 to a bad status and 422 to a bad sort or order', async () => {
    h = await boot(ACTIONS_SEED);
    const bad = await h.call('GET', 'admin/actions/jobs?status=done');
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual(apiError(h, 'Invalid status done'));
    const sort = await h.call('GET', 'admin/actions/jobs?sort=name');
    expect(sort.status).toBe(422);
    expect(sort.json).toEqual(apiError(h, 'Invalid sort mode: "name"'));
    const order = await h.call('GET', 'admin/actions/jobs?sort=id&order=up');
    expect(order.status).toBe(422);
    expect(order.json).toEqual(apiError(h, 'Invalid sort order: "up"'));
  });
});

describe('state file', () => {
  it('keeps runner edits and the registration token across a restart', async () => {
    const statePath = join(mkdtempSync(join(tmpdir(), 'ff-actions-')), 'state.json');
    h = await boot(ACTIONS_SEED, { statePath });
    expect((await h.call('PATCH', 'admin/actions/runners/2', { body: { disabled: true } })).status).toBe(200);
    expect((await h.call('DELETE', 'admin/actions/runners/4')).status).toBe(204);
    await h.sb.close();
    h = await boot(undefined, { statePath });
    const res = await h.call<{ runners: ApiRunner[]; total_count: number }>('GET', 'admin/actions/runners');
    expect(res.json.total_count).toBe(3);
    expect(res.json.runners.find((r) => r.id === 2)?.disabled).toBe(true);
    expect((await h.call<{ token: string }>('POST', 'admin/actions/runners/registration-token')).json.token).toBe('seeded-registration-token-0000000000000');
    expect((await h.call<{ total_count: number }>('GET', 'admin/actions/jobs')).json.total_count).toBe(4);
  });
});

describe('actions seed', () => {
  it('rejects unknown keys and unknown references with the key path', async () => {
    const { buildState } = await import('../../src/sandbox/index.js');
    expect(() => buildState({ actions: { runners: [{ name: 'x', colour: 'red' }] } } as unknown as SeedFile)).toThrow(/actions\.runners\[0\]\.colour: unknown key/);
    expect(() => buildState({ actions: { runs: [{ repo: 'no/such' }] } })).toThrow(/actions\.runs\[0\]\.repo: no repository/);
    expect(() => buildState({ ...SEED, actions: { runs: [{ repo: 'acme/widgets', status: 'done' }] } })).toThrow(/actions\.runs\[0\]\.status: expected one of/);
    expect(() => buildState({ ...SEED, actions: { runs: [{ repo: 'acme/widgets', jobs: [{ name: 'a', runner: 'ghost' }] }] } })).toThrow(/jobs\[0\]\.runner: no runner/);
  });
});
