import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { ADMIN_TOKEN, calls, runCli, world, type World, writes } from './helpers.js';

// A saved plan is input from outside: apply must do only what the plan shows, whatever else the file says.

const seed: SeedFile = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com' },
    { username: 'mallory', email: 'mallory@example.com' },
  ],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [
    {
      name: 'acme/widgets',
      labels: [
        { name: 'a', color: '111111' },
        { name: 'b', color: '222222' },
        { name: 'c', color: '333333' },
      ],
      issues: [{ title: 'Crash', author: 'alice' }],
    },
    { name: 'mallory/stuff' },
  ],
};

const addTriage = `version: 1
repos:
  acme/widgets:
    labels:
      triage: { color: "00ff00" }
`;

interface SavedPlan {
  unsafe: string[];
  policy?: Record<string, unknown>;
  changes: { id: string; kind: string; scope: string; key: string; action: string; fields: { path: string; after?: unknown }[]; ops: { method: string; path: string; body?: unknown; query?: unknown }[] }[];
}

let w: World;
afterEach(async () => w?.sandbox.close());

async function savePlan(w: World, yaml: string): Promise<string> {
  const planFile = `${w.dir}/plan.json`;
  const plan = await w.cli(['plan', '-c', w.config(yaml), '--out', planFile]);
  expect(plan.stderr).not.toMatch(/error/i);
  return planFile;
}

function edit(planFile: string, change: (p: SavedPlan) => void): void {
  const plan = JSON.parse(readFileSync(planFile, 'utf8')) as SavedPlan;
  change(plan);
  writeFileSync(planFile, JSON.stringify(plan, null, 2));
}

const applyFile = (planFile: string, ...args: string[]) => runCli(['apply', planFile, ...args], { env: { FORGEFORM_URL: w.sandbox.url, FORGEFORM_TOKEN: ADMIN_TOKEN } });

describe('a saved plan does only what it shows', () => {
  it('refuses a plan that shows + label "triage" but whose ops delete a user with ?purge=true', async () => {
    w = await world(seed);
    const planFile = await savePlan(w, addTriage);
    edit(planFile, (p) => {
      p.changes[0]!.ops = [{ method: 'DELETE', path: 'admin/users/mallory', query: { purge: true } }];
    });
    w.sandbox.clearRequests();
    const apply = await applyFile(planFile);
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain('+ label "triage"');
    expect(apply.stderr).toContain('repo_label/repo:acme/widgets/triage');
    expect(apply.stderr).toMatch(/requests .* differ from what the change shows/);
    expect(apply.stdout + apply.stderr).not.toContain('Apply complete');
    expect(writes(w.sandbox)).toEqual([]);
    expect(w.sandbox.state.data.users.map((u) => u.name)).toContain('mallory');
  });

  it('refuses a create edited into an update (it would have been sent as its POST), and an update edited into a create (issue 17)', async () => {
    w = await world(seed);
    const planFile = await savePlan(w, addTriage);
    edit(planFile, (p) => {
      p.changes[0]!.action = 'update';
      (p as unknown as { summary: Record<string, number> }).summary = { create: 0, update: 1, delete: 0, rename: 0, replace: 0 };
    });
    w.sandbox.clearRequests();
    const apply = await applyFile(planFile, '--yes');
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('repo_label/repo:acme/widgets/triage: an update needs the object the plan read, but its precondition names none (the file was edited)');
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('refuses a plan whose ops make another user a site administrator', async () => {
    w = await world(seed);
    const planFile = await savePlan(w, addTriage);
    edit(planFile, (p) => {
      p.changes[0]!.ops.push({ method: 'PATCH', path: 'admin/users/mallory', body: { login_name: 'mallory', source_id: 0, admin: true } });
    });
    w.sandbox.clearRequests();
    const apply = await applyFile(planFile);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('repo_label/repo:acme/widgets/triage');
    expect(writes(w.sandbox)).toEqual([]);
    expect(w.sandbox.state.data.users.find((u) => u.name === 'mallory')?.isAdmin).toBe(false);
  });

  it('an op path outside the API base cannot be smuggled in', async () => {
    w = await world(seed);
    const planFile = await savePlan(w, addTriage);
    edit(planFile, (p) => {
      p.changes[0]!.ops[0]!.path = '../../_sandbox/reset';
    });
    w.sandbox.clearRequests();
    const apply = await applyFile(planFile);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('repo_label/repo:acme/widgets/triage');
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('applies what the change shows: its fields and its ops edited together do what the plan displays', async () => {
    w = await world(seed);
    const planFile = await savePlan(w, addTriage);
    edit(planFile, (p) => {
      const c = p.changes[0]!;
      c.fields.find((f) => f.path === 'color')!.after = '0000ff';
      (c.ops[0]!.body as Record<string, unknown>).color = '0000ff';
    });
    const apply = await applyFile(planFile);
    expect(apply.stdout).toMatch(/\+ label "triage"\n\s+\+ color = "0000ff"/);
    expect(apply.code).toBe(0);
    expect((await w.api<{ name: string; color: string }[]>('GET', 'repos/acme/widgets/labels')).body.find((l) => l.name === 'triage')?.color).toBe('0000ff');
  });

  it('a field edited without its ops is refused: the file says one thing and would do another', async () => {
    w = await world(seed);
    const planFile = await savePlan(w, addTriage);
    edit(planFile, (p) => {
      p.changes[0]!.fields.find((f) => f.path === 'color')!.after = '0000ff';
    });
    w.sandbox.clearRequests();
    const apply = await applyFile(planFile);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('repo_label/repo:acme/widgets/triage');
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('refuses to get past max_deletes by emptying the file’s unsafe list', async () => {
    w = await world(seed);
    const planFile = await savePlan(w, 'version: 1\npolicy: { prune: [labels], max_deletes: 1 }\nrepos:\n  acme/widgets:\n    labels:\n      a: { color: "111111" }\n');
    edit(planFile, (p) => {
      expect(p.unsafe.length).toBeGreaterThan(0);
      p.unsafe = [];
    });
    w.sandbox.clearRequests();
    const apply = await applyFile(planFile);
    expect(apply.code).toBe(3);
    expect(apply.stderr).toContain('2 deletions planned, more than policy.max_deletes (1)');
    expect(apply.stderr).toContain('--force');
    expect(writes(w.sandbox)).toEqual([]);
    const forced = await applyFile(planFile, '--force');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('2 deleted');
  });

  it('refuses deletions added to the file beyond the default max_deletes, and a policy loosened past the defaults', async () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ name: `l${i}`, color: '111111' }));
    w = await world({ ...seed, repos: [{ name: 'acme/widgets', labels: many }] });
    // The config allows 20 deletions; a saved plan cannot be looser than the defaults (10) without --force.
    const planFile = await savePlan(w, 'version: 1\npolicy: { prune: [labels], max_deletes: 20, max_delete_fraction: 1 }\nrepos:\n  acme/widgets:\n    labels: {}\n');
    const saved = JSON.parse(readFileSync(planFile, 'utf8')) as SavedPlan;
    expect(saved.unsafe).toEqual([]);
    expect(saved.policy).toMatchObject({ max_deletes: 20, max_delete_fraction: 1 });
    w.sandbox.clearRequests();
    const apply = await applyFile(planFile);
    expect(apply.code).toBe(3);
    expect(apply.stdout).toContain('max_deletes 20');
    expect(apply.stderr).toMatch(/12 deletions planned, more than the default max_deletes \(10\)/);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('a label put on an issue after the plan makes its deletion stale', async () => {
    w = await world(seed);
    const planFile = await savePlan(w, 'version: 1\npolicy: { prune: [labels] }\nrepos:\n  acme/widgets:\n    labels:\n      a: { color: "111111" }\n      b: { color: "222222" }\n');
    expect(readFileSync(planFile, 'utf8')).toContain('"c"');
    const c = (await w.api<{ id: number; name: string }[]>('GET', 'repos/acme/widgets/labels')).body.find((l) => l.name === 'c')!;
    expect((await w.api('POST', 'repos/acme/widgets/issues/1/labels', { labels: [c.id] })).status).toBe(200);
    w.sandbox.clearRequests();
    const apply = await applyFile(planFile);
    expect(apply.code).not.toBe(0);
    expect(apply.stdout + apply.stderr).toMatch(/label "c".*carried by 1 issue/);
    expect(writes(w.sandbox)).toEqual([]);
    expect((await w.api<{ name: string }[]>('GET', 'repos/acme/widgets/labels')).body.map((l) => l.name)).toContain('c');
  });

  it('apply PLANFILE -c X is an error: the plan already fixes the config', async () => {
    w = await world(seed);
    const planFile = await savePlan(w, addTriage);
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', planFile, '-c', w.config(addTriage, 'other.yaml')]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toMatch(/-c.*plan file/);
    expect(calls(w.sandbox)).toEqual([]);
  });

  it('validates the plan file strictly: unknown kinds, actions, scopes and fields are refused by name', async () => {
    w = await world(seed);
    const planFile = await savePlan(w, addTriage);
    const original = readFileSync(planFile, 'utf8');
    const cases: [string, (p: SavedPlan) => void, RegExp][] = [
      ['kind', (p) => (p.changes[0]!.kind = 'wormhole'), /unknown kind "wormhole"/],
      ['action', (p) => (p.changes[0]!.action = 'explode'), /action "explode"/],
      ['scope', (p) => (p.changes[0]!.scope = 'galaxy:far'), /scope "galaxy:far"/],
      ['field', (p) => p.changes[0]!.fields.push({ path: 'admin', after: true }), /field "admin"/],
      ['extra key', (p) => ((p.changes[0] as unknown as Record<string, unknown>).run = 'rm -rf'), /"run"/],
    ];
    for (const [what, change, message] of cases) {
      writeFileSync(planFile, original);
      edit(planFile, change);
      w.sandbox.clearRequests();
      const apply = await applyFile(planFile);
      expect(apply.code, what).toBe(1);
      expect(apply.stderr, what).toMatch(message);
      expect(apply.stderr, what).not.toMatch(/at .*\.js:\d+/);
      expect(writes(w.sandbox), what).toEqual([]);
    }
  });

  it('a user delete shows its purge; removing the shown purge from a change cannot be hidden in its ops', async () => {
    w = await world(seed);
    const planFile = await savePlan(w, 'version: 1\npolicy: { prune: [users], purge_users: true, protected_users: [alice] }\nusers:\n  root: {}\n');
    const plan = JSON.parse(readFileSync(planFile, 'utf8')) as SavedPlan;
    const del = plan.changes.find((c) => c.key === 'mallory')!;
    expect(del.fields).toEqual([{ path: 'purge', after: true, context: true }]);
    // someone removes the purge from what the plan shows, leaving it in the request
    edit(planFile, (p) => {
      p.changes.find((c) => c.key === 'mallory')!.fields = [];
    });
    w.sandbox.clearRequests();
    const apply = await applyFile(planFile);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('user/server:/mallory');
    expect(writes(w.sandbox)).toEqual([]);
  });
});
