import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runSandboxCommand } from '../../src/sandbox/cli.js';
import { buildState, createApp, loadSeedFile, SeedError, startSandbox, stateFromJSON, stateToJSON, type Sandbox } from '../../src/sandbox/index.js';
import { emptyState } from '../../src/sandbox/core/state-file.js';
import { ADMIN_TOKEN, SEED } from './helpers.js';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'forgeform-sandbox-'));

let open: Sandbox | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe('seed files', () => {
  it('loads YAML and reports unknown keys and bad values with their path', () => {
    const dir = tmp();
    const good = join(dir, 'seed.yaml');
    writeFileSync(
      good,
      `users:
  - { username: root, admin: true, email: root@example.com, password: "secret-1", token: "t1" }
  - { username: alice, email: alice@example.com, token: alice-token }
orgs:
  - { name: acme, owners: [root], members: [alice], teams: [{ name: devs, permission: write, members: [alice] }], labels: [{ name: bug, color: "ee0701", description: "", exclusive: false, is_archived: false }] }
repos:
  - name: acme/widgets
    private: false
    archived: false
    collaborators: { alice: write }
    labels: [{ name: feature, color: "#0f0" }]
    branch_protections: [ { rule_name: main, enable_push: true, push_whitelist_usernames: [alice] } ]
    milestones: [ { title: v1, state: open } ]
    issues: [ { title: "Crash", body: "boom", labels: [bug], state: open, author: alice } ]
`,
    );
    const seed = loadSeedFile(good);
    const state = buildState(seed);
    expect(state.data.labels.map((l) => `${l.name}:${l.color}`)).toEqual(['bug:#ee0701', 'feature:#00ff00']);
    expect(state.data.issues[0]).toMatchObject({ index: 1, title: 'Crash', state: 'open' });
    expect(state.data.branchProtections[0]!.users.push_whitelist_usernames).toHaveLength(1);

    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'repos:\n  - name: acme/widgets\n    lables: []\n');
    expect(() => loadSeedFile(bad)).toThrow(SeedError);
    expect(() => loadSeedFile(bad)).toThrow(/bad\.yaml: repos\[0\]\.lables: unknown key/);
    expect(() => buildState({ repos: [{ name: 'nobody/x' }] })).toThrow(/repos\[0\]\.name: no user or organisation "nobody"/);
    expect(() => buildState({ users: [{ username: 'root', admin: true }], repos: [{ name: 'root/x', labels: [{ name: 'l', color: 'zzz' }] }] })).toThrow(/repos\[0\]\.labels\[0\]: bad color code: #zzz/);
    expect(() => buildState({ users: [{ username: 'root', admin: true }], repos: [{ name: 'root/x', branch_protections: [{ rule_name: 'm', enable_pushh: true }] }] })).toThrow(/enable_pushh: unknown branch protection field/);
    expect(() => buildState({ users: [{ username: 'root', admin: true }], repos: [{ name: 'root/x', branch_protections: [{ rule_name: 'm', push_whitelist_usernames: ['ghost'] }] }] })).toThrow(/user does not exist/);
  });
});

describe('README', () => {
  it('documents a seed that loads', () => {
    const readme = readFileSync(new URL('../../src/sandbox/README.md', import.meta.url), 'utf8');
    const yaml = /```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(yaml).toBeDefined();
    const file = join(tmp(), 'readme-seed.yaml');
    writeFileSync(file, yaml!);
    const state = buildState(loadSeedFile(file));
    expect(state.data.repos.map((r) => r.name)).toEqual(['widgets', 'notes']);
    expect(state.data.issues[0]!.labelIds).toHaveLength(2);
  });
});

describe('state file', () => {
  it('writes the state after every successful write and loads it instead of the seed', async () => {
    const statePath = join(tmp(), 'state.json');
    open = await startSandbox({ port: 0, token: ADMIN_TOKEN, seed: SEED, statePath });
    const res = await fetch(`${open.url}/api/v1/repos/acme/widgets/labels`, {
      method: 'POST',
      headers: { authorization: `token ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'persisted', color: 'abcdef' }),
    });
    expect(res.status).toBe(201);
    const saved = readFileSync(statePath, 'utf8');
    expect(saved).toContain('"persisted"');
    expect(saved).not.toContain(ADMIN_TOKEN); // tokens are stored hashed
    await open.close();

    open = await startSandbox({ port: 0, token: 'another-token', statePath });
    const labels = (await (await fetch(`${open.url}/api/v1/repos/acme/widgets/labels`)).json()) as { name: string }[];
    expect(labels.map((l) => l.name)).toContain('persisted');
    const me = await fetch(`${open.url}/api/v1/user`, { headers: { authorization: 'token another-token' } });
    expect(await me.json()).toMatchObject({ login: 'root' });
  });

  // Written by the build before the domains registered their own tables (issue 20): every table under
  // its name, the hook's authorization header sealed. A saved state must keep loading as it was.
  const EARLIER = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'state-before-domain-data.json');

  it('loads a state file an earlier build wrote, table by table, and saves it back unchanged', () => {
    const text = readFileSync(EARLIER, 'utf8');
    const file = JSON.parse(text) as Record<string, unknown>;
    const state = stateFromJSON(text);
    const data = state.data as unknown as Record<string, unknown>;
    for (const key of Object.keys(file).filter((k) => k !== 'format' && k !== 'adminHooks')) expect(data[key], key).toEqual(file[key]);
    expect(state.data.adminHooks).toMatchObject([{ authorizationHeader: 'Bearer abc', secret: expect.stringMatching(/^sandbox-hashed:/) as unknown }]);
    const saved = JSON.parse(stateToJSON(state)) as Record<string, unknown>;
    // Tables of domains added since that build come back as a new state has them; the file's own are saved unchanged.
    const fresh = JSON.parse(stateToJSON(emptyState())) as Record<string, unknown>;
    for (const key of Object.keys(saved).filter((k) => !(k in file))) expect(saved[key], key).toEqual(fresh[key]);
    expect(Object.fromEntries(Object.entries(saved).filter(([k]) => k in file))).toEqual(file);
  });

  it('serves a state file an earlier build wrote: teams, labels, protections, hooks', async () => {
    const statePath = join(tmp(), 'state.json');
    copyFileSync(EARLIER, statePath);
    open = await startSandbox({ port: 0, token: ADMIN_TOKEN, statePath });
    const get = async (path: string): Promise<unknown> => (await fetch(`${open!.url}/api/v1${path}`, { headers: { authorization: `token ${ADMIN_TOKEN}` } })).json();
    expect(((await get('/orgs/acme/teams')) as { name: string }[]).map((t) => t.name)).toEqual(['devs', 'docs', 'Owners']);
    expect(((await get('/repos/acme/widgets/labels')) as { name: string }[]).map((l) => l.name)).toEqual(['feature']);
    expect(await get('/repos/acme/widgets/branch_protections')).toMatchObject([{ rule_name: 'main', push_whitelist_usernames: ['bob'], push_whitelist_teams: ['devs'] }]);
    expect(await get('/admin/hooks')).toMatchObject([{ config: { url: 'https://ci.example.com/hook' } }]);
    const alice = await fetch(`${open.url}/api/v1/user`, { headers: { authorization: 'token alice-token' } });
    expect(await alice.json()).toMatchObject({ login: 'alice' });
  });
});

describe('createApp', () => {
  it('serves in process through app.request, with the ROOT_URL taken from the request', async () => {
    const app = createApp(buildState(SEED));
    const res = await app.request('http://sandbox.test/api/v1/repos/acme/widgets/labels/bug');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { url: string }).url).toMatch(/^http:\/\/sandbox\.test\/api\/v1\/repos\/acme\/widgets\/labels\/\d+$/);
  });
});

describe('runSandboxCommand', () => {
  it('prints exactly one line with the URL and token, serves until stopped', async () => {
    const dir = tmp();
    const seedPath = join(dir, 'seed.yaml');
    writeFileSync(seedPath, 'users:\n  - { username: admin, admin: true }\n');
    let out = '';
    const ctl = new AbortController();
    const done = runSandboxCommand({ port: 0, seed: seedPath, token: 'cli-token', latency: 1 }, { stdout: { write: (s: string) => (out += s) }, signal: ctl.signal });
    for (let i = 0; i < 100 && !out; i++) await new Promise((r) => setTimeout(r, 10));
    const m = /^forgeform sandbox listening on (http:\/\/127\.0\.0\.1:\d+) \(token: cli-token\)\n$/.exec(out);
    expect(m).not.toBeNull();
    const me = await fetch(`${m![1]}/api/v1/user`, { headers: { authorization: 'token cli-token' } });
    expect(await me.json()).toMatchObject({ login: 'admin' });
    ctl.abort();
    await done;
    await expect(fetch(`${m![1]}/api/v1/version`)).rejects.toThrow();
    await expect(runSandboxCommand({ faultRate: 2 })).rejects.toThrow(/--fault-rate/);
  });
});
