// A saved plan that updates an organisation or a repository (not creates it) and changes objects inside it:
// apply reads those objects as they are, rather than taking the scope for one the plan creates (found by the
// hostile-values journey: every organisation-scoped change of such a plan was refused as "no longer exists").
import { afterEach, describe, expect, it } from 'vitest';
import { world, type World } from './helpers.js';

let w: World | undefined;
afterEach(async () => {
  await w?.sandbox.close();
  w = undefined;
});

describe('a saved plan that updates a scope and objects in it', () => {
  it("applies the objects' changes: the scope exists, it is not one the plan creates", async () => {
    w = await world({
      users: [{ username: 'root', admin: true, email: 'root@example.com' }],
      orgs: [{ name: 'acme', owners: ['root'], labels: [{ name: 'bug', color: 'ee0701' }] }],
    });
    const file = w.config('version: 1\norgs:\n  acme:\n    full_name: Acme Inc\n    labels:\n      bug: { color: ee0701, description: broken }\n');
    const saved = `${w.dir}/plan.json`;
    const plan = await w.cli(['plan', '-c', file, '--out', saved]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('Plan: 0 to create, 2 to update');
    const apply = await w.cli(['apply', saved]);
    expect(apply.stdout).toContain('✓ ~ organisation label "bug" in org:acme');
    expect(apply.stdout).toContain('Apply complete! 0 created, 2 updated');
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const labels = await w.api<{ name: string; description: string }[]>('GET', '/orgs/acme/labels');
    expect(labels.body.map((l) => [l.name, l.description])).toEqual([['bug', 'broken']]);
  });
});
