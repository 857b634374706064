/**
 * The sandbox as each release, part 2 (issue 9): issue labels by name or id, user edit and rename
 * rules, runner answers and registration-token routes, the server's time zone, hook events, the
 * archive checks of branch protections and duplicate badges. Each expectation is the release's own
 * behaviour as NOTES.md ("Flavours") cites it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox, type SeedFile } from '../../src/sandbox/index.js';
import { runSandboxCommand, SandboxCommandError } from '../../src/sandbox/cli.js';
import { ADMIN_TOKEN, boot, SEED, type Harness } from './helpers.js';

let h: Harness | undefined;
let raw: Sandbox | undefined;
afterEach(async () => {
  await h?.sb.close();
  await raw?.close();
  h = raw = undefined;
});

const on = async (flavour: string, seed: SeedFile = SEED, extra: Record<string, unknown> = {}): Promise<Harness> => {
  await h?.sb.close();
  return (h = await boot(seed, { flavour, ...extra }));
};

const labelNames = (json: unknown): string[] => (json as { name: string }[]).map((l) => l.name);

describe('issue labels: names or ids', () => {
  it('gitea@1.21 and forgejo@7 take ids only: a name is the decoder’s 422, ids work', async () => {
    for (const flavour of ['gitea@1.21', 'forgejo@7']) {
      const hh = await on(flavour);
      const byName = await hh.call<{ message: string }>('PUT', 'repos/acme/widgets/issues/1/labels', { body: { labels: ['feature'] } });
      expect(byName.status).toBe(422);
      expect(byName.json.message).toBe('[]: json: cannot unmarshal string into Go struct field IssueLabelsOption.labels of type int64');
      const labels = await hh.call<{ id: number; name: string }[]>('GET', 'repos/acme/widgets/labels');
      const feature = labels.json.find((l) => l.name === 'feature')!;
      const byId = await hh.call('PUT', 'repos/acme/widgets/issues/1/labels', { body: { labels: [feature.id] } });
      expect(byId.status).toBe(200);
      expect(labelNames(byId.json)).toEqual(['feature']);
    }
  });

  it('gitea@1.22 and forgejo@11 take names', async () => {
    for (const flavour of ['gitea@1.22', 'forgejo@11']) {
      const hh = await on(flavour);
      const res = await hh.call('POST', 'repos/acme/widgets/issues/1/labels', { body: { labels: ['feature', 'org-bug'] } });
      expect(res.status).toBe(200);
      expect(labelNames(res.json)).toEqual(['bug', 'feature', 'org-bug']);
    }
  });

  it('DELETE …/labels/{x}: forgejo@15 takes a name (repository, then organisation) or an id; forgejo@11 and Gitea an id only', async () => {
    const f15 = await on('forgejo@15');
    expect((await f15.call('DELETE', 'repos/acme/widgets/issues/2/labels/org-bug')).status).toBe(204);
    expect(labelNames((await f15.call('GET', 'repos/acme/widgets/issues/2/labels')).json)).toEqual(['bug']);
    const unknown = await f15.call<{ message: string }>('DELETE', 'repos/acme/widgets/issues/2/labels/nope');
    expect(unknown.status).toBe(422);
    const org = f15.sb.state.orgByName('acme')!;
    expect(unknown.json.message).toBe(`label does not exist [label_id: 0, org_id: ${org.id}]`);

    for (const flavour of ['forgejo@11', 'gitea@1.25']) {
      const hh = await on(flavour);
      const res = await hh.call<{ message: string }>('DELETE', 'repos/acme/widgets/issues/2/labels/org-bug');
      expect(res.status).toBe(422);
      expect(res.json.message).toBe('label does not exist [label_id: 0]');
      expect(labelNames((await hh.call('GET', 'repos/acme/widgets/issues/2/labels')).json)).toEqual(['bug', 'org-bug']);
    }
  });
});

describe('PATCH /admin/users/{u}: login_name and source_id', () => {
  const EXTERNAL: SeedFile = {
    ...SEED,
    auth_sources: [{ id: 3, name: 'corp-ldap', type: 'ldap' }],
    users: [...SEED.users!, { username: 'ext', source_id: 3 }],
  };

  it('every Gitea and forgejo@7 require login_name and always write it', async () => {
    for (const flavour of ['gitea@1.21', 'gitea@1.25', 'gitea@1.26', 'forgejo@7']) {
      const hh = await on(flavour);
      const res = await hh.call<{ message: string }>('PATCH', 'admin/users/alice', { body: { full_name: 'Alice' } });
      expect(res.status).toBe(422);
      expect(res.json.message).toBe('[LoginName]: Required');
    }
  });

  it('forgejo@11: both optional but together; an explicit source_id 0 makes an external user local', async () => {
    const hh = await on('forgejo@11', EXTERNAL);
    expect((await hh.call('PATCH', 'admin/users/ext', { body: { source_id: 3, login_name: 'uid=ext' } })).status).toBe(200);
    const plain = await hh.call<Record<string, unknown>>('PATCH', 'admin/users/ext', { body: { full_name: 'Ext' } });
    expect(plain.status).toBe(200);
    expect(plain.json).toMatchObject({ full_name: 'Ext', source_id: 3, login_name: 'uid=ext' });
    const half = await hh.call<{ message: string }>('PATCH', 'admin/users/ext', { body: { source_id: 0 } });
    expect(half.status).toBe(422);
    expect(half.json.message).toBe('source_id and login_name must be specified together');
    const local = await hh.call<Record<string, unknown>>('PATCH', 'admin/users/ext', { body: { source_id: 0, login_name: '' } });
    expect(local.status).toBe(200);
    expect(local.json).toMatchObject({ source_id: 0, login_name: '' });
  });

  it('Forgejo cannot make a user public through the PATCH; Gitea can', async () => {
    for (const [flavour, after] of [['forgejo@15', 'private'], ['gitea@1.25', 'public']] as const) {
      const hh = await on(flavour);
      const loginName = { login_name: 'alice' };
      await hh.call('PATCH', 'admin/users/alice', { body: { ...loginName, source_id: 0, visibility: 'private' } });
      const res = await hh.call<{ visibility: string }>('PATCH', 'admin/users/alice', { body: { ...loginName, source_id: 0, visibility: 'public' } });
      expect(res.status).toBe(200);
      expect(res.json.visibility).toBe(after);
    }
  });

  it('renaming a user of an external login source: 500 on Gitea and forgejo@11, done on forgejo@15; local users rename everywhere', async () => {
    for (const [flavour, status] of [['gitea@1.25', 500], ['gitea@main', 500], ['forgejo@11', 500], ['forgejo@15', 204]] as const) {
      const hh = await on(flavour, EXTERNAL);
      const ext = hh.sb.state.data.users.find((u) => u.name === 'ext')!;
      const res = await hh.call<{ message: string }>('POST', 'admin/users/ext/rename', { body: { new_username: 'ext2' } });
      expect(res.status).toBe(status);
      if (status === 500) expect(res.json.message).toBe(`user is not local type [uid: ${ext.id}, name: ext]`);
      expect((await hh.call('POST', 'admin/users/carol/rename', { body: { new_username: 'carol2' } })).status).toBe(204);
    }
  });
});

describe('runners', () => {
  const RUNNERS: SeedFile = { ...SEED, actions: { runners: [{ name: 'one', labels: ['linux', 'x64'], version: 'v6.0.0', description: 'the first', status: 'idle' }] } };

  it('forgejo@15 answers its own ActionRunner; gitea@1.25 has no disabled; gitea@1.26 has it', async () => {
    const f = await on('forgejo@15', RUNNERS);
    const [runner] = (await f.call<Record<string, unknown>[]>('GET', 'admin/actions/runners')).json;
    expect(Object.keys(runner!).sort()).toEqual(['description', 'ephemeral', 'id', 'labels', 'name', 'owner_id', 'repo_id', 'status', 'uuid', 'version']);
    expect(runner).toMatchObject({ name: 'one', status: 'idle', labels: ['linux', 'x64'], version: 'v6.0.0', description: 'the first', owner_id: 0, repo_id: 0 });
    expect((await f.call('GET', `admin/actions/runners/${String(runner!.id)}`)).json).toEqual(runner);

    for (const [flavour, keys] of [
      ['gitea@1.25', ['busy', 'ephemeral', 'id', 'labels', 'name', 'status']],
      ['gitea@1.26', ['busy', 'disabled', 'ephemeral', 'id', 'labels', 'name', 'status']],
    ] as const) {
      const hh = await on(flavour, RUNNERS);
      const list = await hh.call<{ runners: Record<string, unknown>[] }>('GET', 'admin/actions/runners');
      expect(Object.keys(list.json.runners[0]!).sort()).toEqual(keys);
      expect(list.json.runners[0]).toMatchObject({ status: 'online', busy: false, labels: [{ id: 0, name: 'linux', type: 'custom' }, { id: 1, name: 'x64', type: 'custom' }] });
    }
  });

  const SCOPED: SeedFile = {
    ...SEED,
    actions: { runners: [{ name: 'global' }, { name: 'of-acme', owner: 'acme' }, { name: 'of-carol', owner: 'carol' }, { name: 'of-widgets', repo: 'acme/widgets' }] },
  };
  const names = (json: unknown): string[] => (json as { name: string }[]).map((r) => r.name).sort();

  it('forgejo@15 lists the instance runners only, every visible runner with visible=true; Gitea lists every scope', async () => {
    const f = await on('forgejo@15', SCOPED);
    const plain = await f.call('GET', 'admin/actions/runners');
    expect(names(plain.json)).toEqual(['global']);
    expect(plain.headers.get('x-total-count')).toBe('1');
    const visible = await f.call('GET', 'admin/actions/runners?visible=true');
    expect(names(visible.json)).toEqual(['global', 'of-acme', 'of-carol', 'of-widgets']);
    expect(visible.headers.get('x-total-count')).toBe('4');
    // `ctx.FormBool`: `on` counts, anything Go cannot parse as true does not.
    expect(names((await f.call('GET', 'admin/actions/runners?visible=on')).json)).toHaveLength(4);
    expect(names((await f.call('GET', 'admin/actions/runners?visible=yes')).json)).toEqual(['global']);

    for (const flavour of ['gitea@1.24', 'gitea@main']) {
      const hh = await on(flavour, SCOPED);
      const list = await hh.call<{ runners: unknown[]; total_count: number }>('GET', 'admin/actions/runners');
      expect(names(list.json.runners)).toEqual(['global', 'of-acme', 'of-carol', 'of-widgets']);
      expect(list.json.total_count).toBe(4);
    }
  });

  const TOKEN_ROUTES: [string, string][] = [
    ['admin/runners/registration-token', 'GET'],
    ['admin/actions/runners/registration-token', 'POST'],
    ['admin/actions/runners/registration-token', 'GET'],
    ['repos/acme/widgets/actions/runners/registration-token', 'GET'],
    ['repos/acme/widgets/actions/runners/registration-token', 'POST'],
    ['orgs/acme/actions/runners/registration-token', 'GET'],
    ['orgs/acme/actions/runners/registration-token', 'POST'],
    ['user/actions/runners/registration-token', 'GET'],
    ['user/actions/runners/registration-token', 'POST'],
  ];
  const ALL = ['gitea@1.21', 'gitea@1.22', 'gitea@1.23', 'gitea@1.24', 'gitea@1.25', 'gitea@1.26', 'gitea@main', 'forgejo@7', 'forgejo@11', 'forgejo@15'];

  /** Read in each release's api.go: GET from Gitea 1.22 to 1.25 and on every Forgejo, POST from Gitea 1.24; the admin GET under /actions only on Forgejo 15. */
  function served(flavour: string, path: string, method: string): boolean {
    const [fork, rel] = flavour.split('@') as [string, string];
    const minor = rel === 'main' ? Infinity : Number(rel.split('.')[1]);
    if (path === 'admin/actions/runners/registration-token') return method === 'GET' ? flavour === 'forgejo@15' : fork === 'gitea' && minor >= 24;
    if (method === 'GET') return fork === 'forgejo' || (minor >= 22 && minor <= 25);
    return fork === 'gitea' && minor >= 24;
  }

  it.each(ALL)('registration-token routes of %s', async (flavour) => {
    const hh = await on(flavour);
    for (const [path, method] of TOKEN_ROUTES) {
      const res = await hh.call<{ token: string }>(method, path);
      if (served(flavour, path, method)) {
        expect(res.status, `${method} ${path}`).toBe(200);
        expect(res.json.token).toMatch(/^[0-9A-Za-z]{40}$/);
      } else {
        // 405 where the path is routed for another method.
        expect([404, 405], `${method} ${path}`).toContain(res.status);
      }
    }
    // One scope, one token, whichever route asks (the latest active one).
    if (flavour === 'forgejo@15') {
      const a = await hh.call<{ token: string }>('GET', 'admin/runners/registration-token');
      const b = await hh.call<{ token: string }>('GET', 'admin/actions/runners/registration-token');
      expect(a.json.token).toBe(b.json.token);
    }
  });

  it('the repository route needs the repository’s owner, the organisation route an owner of the organisation', async () => {
    const hh = await on('gitea@1.25');
    expect((await hh.call('GET', 'repos/acme/widgets/actions/runners/registration-token', { token: 'bob-token' })).status).toBe(403);
    expect((await hh.call('GET', 'repos/acme/widgets/actions/runners/registration-token', { token: 'olga-token' })).status).toBe(200);
    expect((await hh.call('GET', 'orgs/acme/actions/runners/registration-token', { token: 'mia-token' })).status).toBe(403);
    expect((await hh.call('GET', 'user/actions/runners/registration-token', { token: 'carol-token' })).status).toBe(200);
  });
});

describe('the server’s time zone', () => {
  it('due_date is answered in the zone: east of UTC, the end of the day given reads as the next day', async () => {
    const hh = await on('gitea@1.25', SEED, { timezone: 'Asia/Tokyo' });
    const res = await hh.call<{ due_date: string }>('PATCH', 'repos/acme/widgets/issues/1', { body: { due_date: '2024-05-01T00:00:00Z' } });
    expect(res.status).toBe(201);
    expect(res.json.due_date).toBe('2024-05-02T08:59:59+09:00');
    expect((await hh.call<{ due_date: string }>('GET', 'repos/acme/widgets/issues/1')).json.due_date).toBe('2024-05-02T08:59:59+09:00');
  });

  it('default UTC ("Z"); summer and winter offsets of a zone; the seed may set it; an unknown zone is refused', async () => {
    const utc = await on('gitea@1.25');
    expect((await utc.call<{ due_date: string }>('PATCH', 'repos/acme/widgets/issues/1', { body: { due_date: '2024-05-01T00:00:00Z' } })).json.due_date).toBe('2024-05-01T23:59:59Z');

    raw = await startSandbox({ token: ADMIN_TOKEN, seed: { ...SEED, timezone: 'America/New_York' } });
    const patch = (due: string) =>
      fetch(`${raw!.url}/api/v1/repos/acme/widgets/issues/1`, { method: 'PATCH', headers: { authorization: `token ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ due_date: due }) }).then(
        (r) => r.json() as Promise<{ due_date: string }>,
      );
    expect((await patch('2024-07-01T00:00:00Z')).due_date).toBe('2024-07-01T19:59:59-04:00');
    expect((await patch('2024-01-15T00:00:00Z')).due_date).toBe('2024-01-15T18:59:59-05:00');

    await expect(startSandbox({ seed: { ...SEED, timezone: 'Mars/Olympus' } })).rejects.toThrow(/^timezone: unknown time zone "Mars\/Olympus"/);
    await expect(runSandboxCommand({ timezone: 'Mars/Olympus' })).rejects.toBeInstanceOf(SandboxCommandError);
  });
});

describe('hook events a release does not set', () => {
  const HOOK = { type: 'gitea', config: { url: 'https://example.com/hook', content_type: 'json' }, events: ['push', 'package', 'status', 'workflow_job', 'workflow_run', 'action_run_failure'], active: true };

  it.each([
    ['gitea@1.22', ['push']],
    ['gitea@1.23', ['package', 'push', 'status']],
    ['gitea@1.24', ['package', 'push', 'status', 'workflow_job']],
    ['gitea@1.25', ['package', 'push', 'status', 'workflow_job', 'workflow_run']],
    ['forgejo@11', ['push']],
    ['forgejo@15', ['action_run_failure', 'package', 'push']],
  ])('%s keeps %j', async (flavour, kept) => {
    const hh = await on(flavour);
    const created = await hh.call<{ id: number; events: string[] }>('POST', 'admin/hooks', { body: HOOK });
    expect(created.status).toBe(201);
    expect([...created.json.events].sort()).toEqual(kept);
    const edited = await hh.call<{ events: string[] }>('PATCH', `admin/hooks/${created.json.id}`, { body: { events: HOOK.events } });
    expect([...edited.json.events].sort()).toEqual(kept);
  });
});

describe('branch protections on an archived repository (acme/attic, rule main)', () => {
  it.each([
    ['gitea@1.21', 201, 204],
    ['gitea@1.25', 423, 500],
    ['forgejo@11', 423, 500],
    ['gitea@main', 423, 423],
  ] as const)('%s: create %i, delete %i', async (flavour, create, del) => {
    const hh = await on(flavour);
    expect((await hh.call('POST', 'repos/acme/attic/branch_protections', { body: { rule_name: 'dev' } })).status).toBe(create);
    const res = await hh.call<{ message: string }>('DELETE', 'repos/acme/attic/branch_protections/main');
    expect(res.status).toBe(del);
    const repo = hh.sb.state.data.repos.find((r) => r.name === 'attic')!;
    if (del === 500) expect(res.json.message).toBe(`<Repository ${repo.id}:acme/attic> is archived`);
    const rules = (await hh.call<{ rule_name: string }[]>('GET', 'repos/acme/attic/branch_protections')).json.map((r) => r.rule_name);
    expect(rules.includes('main')).toBe(del !== 204);
  });
});

describe('badges a user has already', () => {
  const BADGES: SeedFile = { ...SEED, badges: ['early'] };

  it('gitea@1.25 inserts them again (204, listed twice); gitea@main refuses (500)', async () => {
    for (const [flavour, status, listed] of [['gitea@1.25', 204, 2], ['gitea@main', 500, 1]] as const) {
      const hh = await on(flavour, BADGES);
      expect((await hh.call('POST', 'admin/users/alice/badges', { body: { badge_slugs: ['early'] } })).status).toBe(204);
      expect((await hh.call('POST', 'admin/users/alice/badges', { body: { badge_slugs: ['early'] } })).status).toBe(status);
      expect((await hh.call<unknown[]>('GET', 'admin/users/alice/badges')).json).toHaveLength(listed);
    }
  });
});
