import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { SeedFile } from '../../src/sandbox/index.js';
import { catchUp, newCronTask, toCron } from '../../src/sandbox/domains/admin-misc/cron.js';
import { apiError, boot, SEED, type Harness, notFoundError } from './helpers.js';

let h: Harness;
afterEach(async () => h?.sb.close());

type Cron = { name: string; schedule: string; next: string; prev: string; exec_times: number };

describe('admin cron', () => {
  it('GET /admin/cron lists the 29 tasks of a vanilla server in registration order, X-Total-Count, no Link', async () => {
    h = await boot();
    const res = await h.call<Cron[]>('GET', 'admin/cron?limit=50');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('29');
    expect(res.headers.get('link')).toBeNull();
    expect(res.json).toHaveLength(29);
    expect(res.json.slice(0, 3).map((t) => t.name)).toEqual(['update_mirrors', 'repo_health_check', 'check_repo_stats']);
    expect(res.json.map((t) => t.name).sort()).toEqual([
      'archive_cleanup', 'cancel_abandoned_jobs', 'check_repo_stats', 'cleanup_actions', 'cleanup_hook_task_table', 'cleanup_packages',
      'delete_generated_repository_avatars', 'delete_inactive_accounts', 'delete_missing_repos', 'delete_old_actions', 'delete_old_system_notices',
      'delete_repo_archives', 'deleted_branches_cleanup', 'gc_lfs', 'git_gc_repos', 'rebuild_issue_indexer', 'reinit_missing_repos',
      'repo_health_check', 'resync_all_hooks', 'resync_all_sshkeys', 'resync_all_sshprincipals', 'start_schedule_tasks', 'stop_endless_tasks',
      'stop_zombie_tasks', 'sync_external_users', 'sync_repo_licenses', 'update_checker', 'update_migration_poster_id', 'update_mirrors',
    ]);
    const byName = Object.fromEntries(res.json.map((t) => [t.name, t]));
    expect(byName.update_mirrors).toMatchObject({ schedule: '@every 10m', prev: '0001-01-01T00:00:00Z', exec_times: 0 });
    expect(Date.parse(byName.update_mirrors!.next) - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(byName.check_repo_stats).toMatchObject({ schedule: '@midnight', exec_times: 1 });
    expect(byName.check_repo_stats!.next).toMatch(/T00:00:00Z$/);
    expect(byName.git_gc_repos).toEqual({ name: 'git_gc_repos', schedule: '-', next: '0001-01-01T00:00:00Z', prev: '0001-01-01T00:00:00Z', exec_times: 0 });
  });

  it('pages the task list (default 30, limit ≤ 50) with the total in X-Total-Count', async () => {
    h = await boot();
    const first = await h.call<Cron[]>('GET', 'admin/cron?limit=10');
    expect(first.json).toHaveLength(10);
    const third = await h.call<Cron[]>('GET', 'admin/cron?limit=10&page=3');
    expect(third.json.map((t) => t.name)).toEqual([
      'update_checker', 'delete_old_system_notices', 'gc_lfs', 'rebuild_issue_indexer', 'stop_zombie_tasks', 'stop_endless_tasks', 'cancel_abandoned_jobs',
      'start_schedule_tasks', 'cleanup_actions',
    ]);
    expect(third.headers.get('x-total-count')).toBe('29');
    expect((await h.call<Cron[]>('GET', 'admin/cron?page=9')).json).toEqual([]);
  });

  it('POST /admin/cron/{task} runs a task (204) and counts it; 404 for an unknown task', async () => {
    h = await boot();
    const res = await h.call('POST', 'admin/cron/update_checker');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const list = await h.call<Cron[]>('GET', 'admin/cron?limit=50');
    expect(list.json.find((t) => t.name === 'update_checker')?.exec_times).toBe(1);
    // disabled tasks are registered and run too
    expect((await h.call('POST', 'admin/cron/git_gc_repos')).status).toBe(204);
    const missing = await h.call('POST', 'admin/cron/no_such_task');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual(notFoundError(h));
  });

  it('answers 403 to non-admins on the cron routes', async () => {
    h = await boot();
    for (const [method, path] of [['GET', 'admin/cron'], ['POST', 'admin/cron/update_checker']] as const) {
      const res = await h.call(method, path, { token: 'bob-token' });
      expect(res.status).toBe(403);
      expect(res.json).toEqual(apiError(h, 'user should be the site admin'));
    }
  });

  it('applies seed overrides: schedule, enabled, exec_times, and false for an unregistered task', async () => {
    h = await boot({ cron: { update_mirrors: { schedule: '@every 1h', exec_times: 7 }, git_gc_repos: { enabled: true }, gc_lfs: false } });
    const list = await h.call<Cron[]>('GET', 'admin/cron?limit=50');
    expect(list.headers.get('x-total-count')).toBe('28');
    const byName = Object.fromEntries(list.json.map((t) => [t.name, t]));
    expect(byName.update_mirrors).toMatchObject({ schedule: '@every 1h', exec_times: 7 });
    expect(byName.git_gc_repos).toMatchObject({ schedule: '@every 72h' });
    expect(byName.gc_lfs).toBeUndefined();
    expect((await h.call('POST', 'admin/cron/gc_lfs')).status).toBe(404);
    const { buildState } = await import('../../src/sandbox/index.js');
    expect(() => buildState({ cron: { no_task: {} } })).toThrow(/cron\.no_task: unknown key/);
    expect(() => buildState({ cron: { update_mirrors: { schedule: '*/5 * * * *' } } })).toThrow(/cron\.update_mirrors\.schedule/);
  });

  it('counts the scheduled runs that fell due since the start, as the scheduler would have run them', () => {
    const start = Date.parse('2030-01-01T10:00:00Z');
    const every = newCronTask({ name: 'x', schedule: '@every 10m', enabled: true, runAtStart: false }, '2030-01-01T10:00:00Z');
    expect(toCron(every, start + 25 * 60_000)).toMatchObject({ prev: '2030-01-01T10:20:00Z', next: '2030-01-01T10:30:00Z', exec_times: 2 });
    catchUp(every, start + 31 * 60_000);
    expect(every.execTimes).toBe(3);
    const midnight = newCronTask({ name: 'y', schedule: '@midnight', enabled: true, runAtStart: true }, '2030-01-01T10:00:00Z');
    expect(toCron(midnight, Date.parse('2030-01-03T01:00:00Z'))).toMatchObject({ prev: '2030-01-03T00:00:00Z', next: '2030-01-04T00:00:00Z', exec_times: 3 });
  });
});

type Pkg = { id: number; type: string; name: string; version: string; html_url: string; owner: { login: string }; creator: { login: string }; repository: { full_name: string } | null };

const PKG_SEED: SeedFile = {
  ...SEED,
  packages: [
    { owner: 'acme', type: 'npm', name: '@acme/widgets', version: '1.0.0', repo: 'acme/widgets', created_at: '2024-01-01T00:00:00Z' },
    { owner: 'acme', type: 'container', name: 'widgets-image', version: 'latest', creator: 'bob', created_at: '2024-02-01T00:00:00Z' },
    { owner: 'alice', type: 'pypi', name: 'notes', version: '0.1.0', created_at: '2024-03-01T00:00:00Z' },
    { owner: 'alice', type: 'generic', name: 'hidden', version: '1', internal: true },
  ],
};

describe('admin packages', () => {
  it('GET /admin/packages lists every non-internal package version, newest first, with Link and X-Total-Count', async () => {
    h = await boot(PKG_SEED);
    const res = await h.call<Pkg[]>('GET', 'admin/packages');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(res.json.map((p) => p.name)).toEqual(['notes', 'widgets-image', '@acme/widgets']);
    expect(res.json[2]).toMatchObject({
      id: 1,
      type: 'npm',
      version: '1.0.0',
      owner: { login: 'acme' },
      creator: { login: 'root' },
      repository: { full_name: 'acme/widgets' },
      html_url: `${h.url}/acme/-/packages/npm/@acme%2Fwidgets/1.0.0`,
      created_at: '2024-01-01T00:00:00Z',
    });
    expect(res.json[1]).toMatchObject({ creator: { login: 'bob' }, repository: null });
    const paged = await h.call<Pkg[]>('GET', 'admin/packages?limit=2');
    expect(paged.json).toHaveLength(2);
    expect(paged.headers.get('link')).toBe(`<${h.url}/api/v1/admin/packages?limit=2&page=2>; rel="next",<${h.url}/api/v1/admin/packages?limit=2&page=2>; rel="last"`);
  });

  it('filters by type and by a case-insensitive name fragment', async () => {
    h = await boot(PKG_SEED);
    expect((await h.call<Pkg[]>('GET', 'admin/packages?type=pypi')).json.map((p) => p.name)).toEqual(['notes']);
    expect((await h.call<Pkg[]>('GET', 'admin/packages?q=WIDGETS')).json.map((p) => p.name)).toEqual(['widgets-image', '@acme/widgets']);
    const none = await h.call<Pkg[]>('GET', 'admin/packages?type=bogus');
    expect(none.json).toEqual([]);
    expect(none.headers.get('x-total-count')).toBe('0');
  });

  it('answers 403 to non-admins', async () => {
    h = await boot(PKG_SEED);
    const res = await h.call('GET', 'admin/packages', { token: 'alice-token' });
    expect(res.status).toBe(403);
    expect(res.json).toEqual(apiError(h, 'user should be the site admin'));
  });
});

const UNADOPTED_SEED: SeedFile = {
  ...SEED,
  unadopted: ['acme/old-stuff', 'acme/archive', { name: 'alice/backup', branches: ['master', 'dev'] }, 'ghost/orphan', 'acme/Mixed'],
};

describe('admin unadopted repositories', () => {
  it('GET /admin/unadopted lists owner/name of directories without a repository, sorted, with X-Total-Count only', async () => {
    h = await boot(UNADOPTED_SEED);
    const res = await h.call<string[]>('GET', 'admin/unadopted');
    expect(res.status).toBe(200);
    // unknown owners and names with upper case are skipped
    expect(res.json).toEqual(['acme/archive', 'acme/old-stuff', 'alice/backup']);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(res.headers.get('link')).toBeNull();
    const page = await h.call<string[]>('GET', 'admin/unadopted?limit=2&page=2');
    expect(page.json).toEqual(['alice/backup']);
    expect(page.headers.get('x-total-count')).toBe('3');
  });

  it('filters with a glob of owner or owner/repo in `query` (`pattern` is not read)', async () => {
    h = await boot(UNADOPTED_SEED);
    const q = async (s: string): Promise<string[]> => (await h.call<string[]>('GET', `admin/unadopted?${s}`)).json;
    expect(await q('query=acme')).toEqual(['acme/archive', 'acme/old-stuff']);
    expect(await q('query=a*/old-*')).toEqual(['acme/old-stuff']);
    expect(await q('query=*/{backup,archive}')).toEqual(['acme/archive', 'alice/backup']);
    expect(await q('query=al?ce')).toEqual(['alice/backup']);
    expect(await q('pattern=alice')).toEqual(['acme/archive', 'acme/old-stuff', 'alice/backup']);
    const broken = await h.call('GET', 'admin/unadopted?query=%5Bacme');
    expect(broken.status).toBe(500);
  });

  it('POST /admin/unadopted/{owner}/{repo} adopts the directory as a private repository (204)', async () => {
    h = await boot(UNADOPTED_SEED);
    const res = await h.call('POST', 'admin/unadopted/alice/backup');
    expect(res.status).toBe(204);
    const repo = await h.call<{ private: boolean; default_branch: string; empty: boolean }>('GET', 'repos/alice/backup');
    expect(repo.status).toBe(200);
    expect(repo.json).toMatchObject({ private: true, default_branch: 'master', empty: false });
    expect((await h.call<string[]>('GET', 'admin/unadopted')).json).toEqual(['acme/archive', 'acme/old-stuff']);
    expect((await h.call('POST', 'admin/unadopted/alice/backup')).status).toBe(404);
  });

  it('adoption is 404 for an unknown owner, an existing repository or no such directory, and 403 for non-admins', async () => {
    h = await boot(UNADOPTED_SEED);
    for (const path of ['admin/unadopted/ghost/orphan', 'admin/unadopted/acme/widgets', 'admin/unadopted/acme/nothing']) {
      const res = await h.call('POST', path);
      expect(res.status, path).toBe(404);
      expect(res.json).toEqual(notFoundError(h));
    }
    const denied = await h.call('POST', 'admin/unadopted/acme/archive', { token: 'alice-token' });
    expect(denied.status).toBe(403);
    expect(denied.json).toEqual(apiError(h, 'user should be the site admin'));
    expect((await h.call('DELETE', 'admin/unadopted/acme/archive', { token: 'alice-token' })).status).toBe(403);
  });

  it('DELETE /admin/unadopted/{owner}/{repo} removes the directory (204); 404 when there is none', async () => {
    h = await boot(UNADOPTED_SEED);
    const res = await h.call('DELETE', 'admin/unadopted/acme/archive');
    expect(res.status).toBe(204);
    expect((await h.call<string[]>('GET', 'admin/unadopted')).json).toEqual(['acme/old-stuff', 'alice/backup']);
    expect((await h.call('DELETE', 'admin/unadopted/acme/archive')).status).toBe(404);
    expect((await h.call('DELETE', 'admin/unadopted/acme/widgets')).status).toBe(404);
  });
});

describe('nodeinfo', () => {
  it('GET /nodeinfo is no route without federation: plain-text 404', async () => {
    h = await boot();
    const res = await h.call('GET', 'nodeinfo', { token: null });
    expect(res.status).toBe(404);
    expect(res.text).toBe('404 page not found\n');
  });
});

describe('README', () => {
  it('documents admin seed keys that load on top of the main example', async () => {
    const { buildState } = await import('../../src/sandbox/index.js');
    const readme = readFileSync(new URL('../../src/sandbox/README.md', import.meta.url), 'utf8');
    const blocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parseYaml(m[1]!) as SeedFile);
    const extra = blocks.find((b) => 'actions' in b);
    expect(extra).toBeDefined();
    const state = buildState({ ...blocks[0], ...extra });
    expect(state.data.runners.map((r) => r.name)).toEqual(['runner-1', 'acme-runner', 'repo-runner']);
    expect(state.data.actionJobs[0]!.runnerId).toBe(1);
    expect(state.data.cronTasks).toHaveLength(28);
    expect(state.data.unadopted.map((u) => `${u.owner}/${u.name}`)).toEqual(['acme/old-stuff', 'alice/backup']);
    expect(state.data.notifications).toHaveLength(2);
    expect(state.data.packages[0]!.type).toBe('npm');
  });
});
