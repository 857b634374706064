// Issue 27: names compared as the server compares them. Gitea finds owners and repositories by their
// lower_name column (src/scopes/names.ts cites the releases), so a key that differs from the server's
// name only in case addresses the server's object: the plan shows the server's spelling and converges,
// instead of "+ repository settings" on every plan or a create answered "already exists".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writes, world, type World } from './helpers.js';
import { rootAnd } from '../support/seeds.js';

const seed = {
  users: rootAnd('alice'),
  orgs: [{ name: 'Acme', owners: ['root'], labels: [{ name: 'bug', color: 'ee0701' }], teams: [{ name: 'Devs', permission: 'write', members: ['alice'] }] }],
  repos: [{ name: 'Acme/Widgets', labels: [{ name: 'bug', color: 'ee0701' }] }, { name: 'Acme/Gadgets' }],
};

let w: World;
beforeAll(async () => {
  w = await world(seed);
});
afterAll(async () => w?.sandbox.close());

/** plan → apply → plan: the second plan must be empty. */
async function converges(file: string): Promise<{ plan: string; apply: string }> {
  const plan = await w.cli(['plan', '-c', file]);
  expect(plan.code, plan.stderr).toBe(0);
  const apply = await w.cli(['apply', '-c', file, '-y']);
  expect(apply.code, apply.stdout + apply.stderr).toBe(0);
  const again = await w.cli(['plan', '-c', file]);
  expect(again.code, again.stderr).toBe(0);
  expect(again.stdout).toContain('No changes. The server matches the configuration.');
  return { plan: plan.stdout, apply: apply.stdout };
}

describe('a key that differs from the server name only in case', () => {
  it("addresses the server's repository, shown as the server spells it", async () => {
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    settings: { description: "the widgets" }\n    labels:\n      bug: { color: "00ff00" }\n', 'repo.yaml');
    const { plan } = await converges(file);
    expect(plan).toContain('~ repository settings "Acme/Widgets"');
    expect(plan).toContain('# repo:Acme/Widgets');
    expect(plan).not.toContain('acme/widgets');
    expect(plan).toContain('Plan: 0 to create, 2 to update');
    expect((await w.api<{ description: string }>('GET', 'repos/Acme/Widgets')).body.description).toBe('the widgets');
    // --target names it as the config does: the selector compares names as the server does too.
    const targeted = await w.cli(['plan', '-c', file, '--target', 'repo:acme/widgets']);
    expect(targeted.code, targeted.stdout + targeted.stderr).toBe(0);
    expect(targeted.stdout + targeted.stderr).not.toContain('matches nothing');
  });

  it("addresses the server's organisation, and creates nothing for an owner: of one that exists", async () => {
    const file = w.config('version: 1\norgs:\n  ACME:\n    owner: root\n    description: "we make widgets"\n    labels:\n      bug: { color: "0000ff" }\n', 'org.yaml');
    const { plan } = await converges(file);
    expect(plan).toContain('~ organisation "Acme"');
    expect(plan).toContain('# org:Acme');
    expect(plan).not.toContain('+ organisation');
    expect((await w.api<{ description: string }>('GET', 'orgs/Acme')).body.description).toBe('we make widgets');
  });

  it("creates a repository under the owner as the server spells it, and a saved plan's apply does the same", async () => {
    const file = w.config('version: 1\nrepos:\n  ACME/tools:\n    create: {}\n    settings: { description: "tools" }\n', 'create.yaml');
    const saved = `${w.dir}/create.plan.json`;
    const plan = await w.cli(['plan', '-c', file, '--out', saved]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('+ repository "Acme/tools"');
    const apply = await w.cli(['apply', saved]);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const again = await w.cli(['plan', '-c', file]);
    expect(again.stdout).toContain('No changes. The server matches the configuration.');
    expect((await w.api<{ full_name: string }>('GET', 'repos/acme/tools')).body.full_name).toBe('Acme/tools');
  });

  it('matches a glob as the server compares names', async () => {
    const file = w.config('version: 1\nrepos:\n  "acme/g*":\n    settings: { description: "globbed" }\n', 'glob.yaml');
    const { plan } = await converges(file);
    expect(plan).toContain('~ repository settings "Acme/Gadgets"');
    expect(plan).not.toContain('matches no repository');
  });

  it('refuses two keys that name one object, at each place, before any write', async () => {
    const before = writes(w.sandbox).length;
    const file = w.config('version: 1\norgs:\n  Acme: {}\n  acme: {}\nrepos:\n  Acme/Widgets: {}\n  acme/WIDGETS: {}\n', 'twins.yaml');
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith(file))).toEqual([
      `${file}:4:3: organisation "acme" and "Acme" differ only in case: Gitea compares names case-insensitively, so both name one organisation; declare it once`,
      `${file}:7:3: repository "acme/WIDGETS" and "Acme/Widgets" differ only in case: Gitea compares names case-insensitively, so both name one repository; declare it once`,
    ]);
    expect(writes(w.sandbox).length).toBe(before);
  });

  it("refuses a team's former name that is the server's team in another case (it would rename nothing and create a second team)", async () => {
    const before = writes(w.sandbox).length;
    const file = w.config('version: 1\norgs:\n  Acme:\n    teams:\n      developers:\n        previously: [devs]\n        permission: write\n        units: [repo.code]\n', 'team-previously.yaml');
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith(file))).toEqual([
      `${file}:6:9: team "developers" in Acme: previously: "devs" is the server's team "Devs" in another case: team names are case-insensitive, so write it as the server does (previously: [Devs])`,
    ]);
    expect(writes(w.sandbox).length).toBe(before);
    const renamed = await converges(w.config('version: 1\norgs:\n  Acme:\n    teams:\n      developers:\n        previously: [Devs]\n        permission: write\n        units: [repo.code]\n', 'team-renamed.yaml'));
    expect(renamed.plan).toContain('> team "Devs" → "developers"');
  });
});
