// "No changes" is true (issue 27): plan says, per managed scope and kind, what the server has that the
// configuration does not declare and policy keeps, in every format.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { world, writes, type World } from './helpers.js';

let w: World;
afterEach(async () => w?.sandbox.close());

const seed = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com' },
  ],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [
    { name: 'acme/widgets', labels: ['a', 'b', 'c', 'd'].map((name) => ({ name, color: '111111' })) },
    { name: 'acme/gadgets', labels: [{ name: 'x', color: '111111' }] },
  ],
};
const config = `version: 1
users:
  root: { email: root@example.com }
repos:
  acme/widgets:
    labels:
      a: { color: "111111" }
  acme/gadgets: {}
`;

describe('objects the configuration does not declare', () => {
  it('are reported as kept, per scope and kind, in text, markdown and JSON; the plan is still empty', async () => {
    w = await world(seed);
    const file = w.config(config);
    const text = await w.cli(['plan', '-c', file, '--detailed-exitcode'], { NO_COLOR: '1' });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('Kept: 3 labels in acme/widgets are not declared: kept; add labels to policy.prune to delete them ("b", "c", "d")');
    expect(text.stdout).toContain('Kept: 1 user on the server is not declared: kept; add users to policy.prune to delete it ("alice")');
    expect(text.stdout).toContain('No changes. The declared objects match the server; 4 objects it does not declare are kept (Kept, above).');
    // acme/gadgets declares no labels: its labels are not managed, so not reported.
    expect(text.stdout).not.toContain('"x"');
    const md = await w.cli(['plan', '-c', file, '--format', 'markdown']);
    expect(md.stdout).toContain('> **Kept:** 3 labels in acme/widgets are not declared: kept; add labels to policy.prune to delete them ("b", "c", "d")');
    const json = JSON.parse((await w.cli(['plan', '-c', file, '--format', 'json'])).stdout) as { kept: unknown; changes: unknown[] };
    expect(json.changes).toEqual([]);
    expect(json.kept).toEqual([
      { scope: 'server:', kind: 'user', prune_key: 'users', keys: ['alice'] },
      { scope: 'repo:acme/widgets', kind: 'repo_label', prune_key: 'labels', keys: ['b', 'c', 'd'] },
    ]);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('are listed beside the changes of a plan that has some, and a saved plan carrying them applies', async () => {
    w = await world(seed);
    const file = w.config(config.replace('a: { color: "111111" }', 'a: { color: "222222" }'));
    const plan = await w.cli(['plan', '-c', file, '--out', `${w.dir}/plan.json`], { NO_COLOR: '1' });
    expect(plan.stdout).toContain('Kept: 3 labels in acme/widgets are not declared');
    expect(plan.stdout).toContain('Plan: 0 to create, 1 to update, 0 to delete, 0 to rename.');
    const apply = await w.cli(['apply', `${w.dir}/plan.json`]);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
  });

  it('are deleted, not reported, when policy.prune lists their kind', async () => {
    w = await world(seed);
    const plan = await w.cli(['plan', '-c', w.config(`${config}policy:\n  prune: [labels]\n  max_deletes: 10\n  max_delete_fraction: 1\n`), '--format', 'json']);
    const json = JSON.parse(plan.stdout) as { kept?: { prune_key: string }[]; changes: { action: string }[] };
    expect(json.changes.filter((c) => c.action === 'delete')).toHaveLength(3);
    expect(json.kept?.map((k) => k.prune_key)).toEqual(['users']);
  });
});

describe('export', () => {
  it('ends with a commented policy block saying what prune would do; uncommented, it plans no change', async () => {
    w = await world(seed);
    const out = `${w.dir}/exported.yaml`;
    expect((await w.cli(['export', '-o', out])).code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('# What prune would do: this file declares every object export read, so a plan of it deletes nothing.\n');
    expect(text).toMatch(/^# policy:\n# {3}prune: \[users, [a-z_, ]*labels, [a-z_, ]*branch_protections[a-z_, ]*\]\n# {3}max_deletes: 10\n# {3}max_delete_fraction: 0.3\n/m);
    expect(text).toContain('# prune can also list orgs and repos: that deletes undeclared organisations or repositories with everything in them.');
    // The exported file declares everything: nothing is kept, and with the block uncommented nothing is deleted.
    const plain = await w.cli(['plan', '-c', out, '--format', 'json']);
    expect(JSON.parse(plain.stdout)).not.toHaveProperty('kept');
    writeFileSync(out, text.replace(/^# (policy:| {2}\w+:.*)$/gm, '$1'));
    const plan = await w.cli(['plan', '-c', out, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain('No changes. The server matches the configuration.');
    expect(readFileSync(out, 'utf8')).toMatch(/^policy:\n {2}prune: \[users, /m);
  });
});
