/**
 * Runners are the server's own (issue 28, "names users share"): an ordinary user registers a runner for
 * her repository or her organisation (or herself) and names it like a global runner the config manages.
 * Gitea's runner answer has no scope and its admin list holds every scope's runners; Forgejo answers
 * owner_id/repo_id. On both, plan shows no change to hers, apply never writes it, prune never deletes
 * it, export omits it, and a declared name only hers has is refused at its place.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { calls, world, writes, type World } from './helpers.js';

let w: World;
afterEach(async () => w?.sandbox.close());

const seed: SeedFile = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'mallory', email: 'mallory@example.com' },
  ],
  orgs: [
    { name: 'acme', owners: ['root'] },
    { name: 'mallory-org', owners: ['mallory'] },
  ],
  repos: [{ name: 'mallory/tools' }],
  actions: {
    runners: [
      { name: 'ci-1' },
      { name: 'ci-old', status: 'offline' },
      // Hers, named like the managed global runner: on her repository, on her organisation, and for herself.
      { name: 'ci-1', repo: 'mallory/tools' },
      { name: 'ci-1', owner: 'mallory-org' },
      { name: 'ci-1', owner: 'mallory' },
      // Hers only: a declared name that only these have is someone else's runner.
      { name: 'deploy', repo: 'mallory/tools' },
      { name: 'builder', owner: 'mallory-org' },
    ],
  },
};

interface Listed {
  id: number;
  name: string;
  disabled?: boolean;
}

/** Every runner of the server (Gitea's admin list; Forgejo's with visible=true), as the admin reads them. */
async function everyRunner(w: World, forgejo: boolean): Promise<Listed[]> {
  if (forgejo) return (await w.api<Listed[]>('GET', 'admin/actions/runners?visible=true&limit=50')).body;
  return (await w.api<{ runners: Listed[] }>('GET', 'admin/actions/runners?limit=50')).body.runners;
}

/** The global runner's id: the first registered (seed order), the ids of hers are higher. */
const idsOf = (all: Listed[], name: string) => all.filter((r) => r.name === name).map((r) => r.id).sort((a, b) => a - b);

const managed = (prune: boolean, extra = '') => `version: 1
policy: { prune: [${prune ? 'runners' : ''}] }
actions:
  runners:
    ci-1: { disabled: true }
${extra}`;

describe('runners of a repository, an organisation or a user are not the server’s (Gitea: no scope in the answer)', () => {
  it('plan and apply change only the global runner of the name; prune deletes only undeclared global runners', async () => {
    w = await world(seed, { flavour: 'gitea@1.26' });
    const all = await everyRunner(w, false);
    const [global, ...hers] = idsOf(all, 'ci-1');
    expect(hers).toHaveLength(3);
    const plan = await w.cli(['plan', '-c', w.config(managed(false))]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/~ runner "ci-1"\n\s+~ disabled: false → true/);
    expect(plan.stdout).not.toContain('objects with this name');
    expect(plan.stdout).toContain('Plan: 0 to create, 1 to update, 0 to delete, 0 to rename.');
    // The scoped lists that tell hers apart were read.
    expect(calls(w.sandbox)).toEqual(expect.arrayContaining(['GET repos/mallory/tools/actions/runners', 'GET orgs/mallory-org/actions/runners', 'GET user/actions/runners']));

    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', w.config(managed(false)), '--yes']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(writes(w.sandbox)).toEqual([`PATCH admin/actions/runners/${global}`]);

    const pruning = w.config(managed(true));
    const prunePlan = await w.cli(['plan', '-c', pruning]);
    expect(prunePlan.stdout).toMatch(/- runner "ci-old"/);
    expect(prunePlan.stdout).toContain('Plan: 0 to create, 0 to update, 1 to delete, 0 to rename.');
    w.sandbox.clearRequests();
    expect((await w.cli(['apply', '-c', pruning, '--yes'])).code).toBe(0);
    expect(writes(w.sandbox)).toEqual([`DELETE admin/actions/runners/${idsOf(all, 'ci-old')[0]}`]);
    const after = await everyRunner(w, false);
    expect(after.filter((r) => hers.includes(r.id)).map((r) => r.disabled)).toEqual([false, false, false]);
    expect(after.map((r) => r.name).sort()).toEqual(['builder', 'ci-1', 'ci-1', 'ci-1', 'ci-1', 'deploy']);
    expect((await w.cli(['plan', '-c', pruning, '--detailed-exitcode'])).code).toBe(0);
  });

  it('a declared runner whose name only a repository’s or an organisation’s runner has is refused at its place, naming where it is', async () => {
    w = await world(seed, { flavour: 'gitea@1.25' });
    const file = w.config('version: 1\nactions:\n  runners:\n    ci-1: {}\n    deploy: {}\n    builder: {}\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${file}:5:5: runner "deploy": runner "deploy" is not a global runner of the server: only repository mallory/tools has a runner of that name`);
    expect(plan.stderr).toContain(`${file}:6:5: runner "builder": runner "builder" is not a global runner of the server: only organisation mallory-org has a runner of that name`);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('export writes only the global runners', async () => {
    w = await world(seed, { flavour: 'gitea@1.24' });
    const out = `${w.dir}/runners.yaml`;
    const exported = await w.cli(['export', '--include', 'runners', '-o', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/^actions:\n {2}runners:\n {4}ci-1: \{\}\n {4}ci-old: \{\}\n(?! )/m);
    expect(text).not.toMatch(/deploy|builder/);
    expect((await w.cli(['plan', '-c', out, '--detailed-exitcode'])).code).toBe(0);
  });
});

describe('runners of a repository or an organisation are not the server’s (Forgejo 15: owner_id and repo_id)', () => {
  it('prune deletes only undeclared global runners, a name only hers has is refused, export omits hers; one list read', async () => {
    w = await world(seed, { flavour: 'forgejo@15' });
    const all = await everyRunner(w, true);
    w.sandbox.clearRequests();
    const pruning = w.config('version: 1\npolicy: { prune: [runners] }\nactions:\n  runners:\n    ci-1: {}\n');
    const plan = await w.cli(['plan', '-c', pruning]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('Plan: 0 to create, 0 to update, 1 to delete, 0 to rename.');
    expect(plan.stdout).toMatch(/- runner "ci-old"/);
    // Forgejo says each runner's scope: the admin list alone, no scoped list.
    expect(calls(w.sandbox).filter((c) => c.includes('runners'))).toEqual(['GET admin/actions/runners']);
    w.sandbox.clearRequests();
    expect((await w.cli(['apply', '-c', pruning, '--yes'])).code).toBe(0);
    expect(writes(w.sandbox)).toEqual([`DELETE admin/actions/runners/${idsOf(all, 'ci-old')[0]}`]);
    expect((await everyRunner(w, true)).map((r) => r.name).sort()).toEqual(['builder', 'ci-1', 'ci-1', 'ci-1', 'ci-1', 'deploy']);

    const refused = await w.cli(['plan', '-c', w.config('version: 1\nactions:\n  runners:\n    deploy: {}\n', 'deploy.yaml')]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/deploy\.yaml:4:5: runner "deploy": runner "deploy" is not a global runner of the server: only repository #\d+ has a runner of that name/);

    const out = `${w.dir}/runners.yaml`;
    expect((await w.cli(['export', '--include', 'runners', '-o', out])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^actions:\n {2}runners:\n {4}ci-1: \{\}\n(?! )/m);
  });
});
