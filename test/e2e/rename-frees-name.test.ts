import { afterEach, describe, expect, it } from 'vitest';
import type { ApiIssue, ApiLabel } from '../support/api-types.js';
import { type World, world } from './helpers.js';

const seed = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com' },
  ],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets', labels: [{ name: 'defect', color: 'ee0701' }], issues: [{ title: 'Crash', labels: ['defect'], author: 'alice' }] }],
};

// The label "defect" becomes "bug" (its issues keep it), and a new, different "defect" is declared.
const config = `version: 1
repos:
  acme/widgets:
    labels:
      bug: { color: ee0701, previously: [defect] }
      defect: { color: "000000" }
`;

describe('a rename frees a name that the config declares again', () => {
  let w: World;
  afterEach(async () => w?.sandbox.close());

  it('renames the old object, creates a new one under the freed name from a saved plan, and converges', async () => {
    w = await world(seed);
    const cfg = w.config(config);
    const plan = await w.cli(['plan', '-c', cfg, '--out', 'plan.json']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('> label "defect" → "bug"');
    expect(plan.stdout).toContain('+ label "defect"');
    expect(plan.stdout).toContain('Plan: 1 to create, 0 to update, 0 to delete, 1 to rename.');

    const apply = await w.cli(['apply', 'plan.json']);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('Apply complete! 1 created, 0 updated, 0 deleted, 1 renamed.');

    const labels = (await w.api<ApiLabel[]>('GET', 'repos/acme/widgets/labels')).body;
    expect(labels.map((l) => `${l.name} ${l.color}`).sort()).toEqual(['bug ee0701', 'defect 000000']);
    // The issue kept its label through the rename.
    const issue = (await w.api<ApiIssue>('GET', 'repos/acme/widgets/issues/1')).body;
    expect(issue.labels.map((l) => l.name)).toEqual(['bug']);

    const again = await w.cli(['plan', '-c', cfg, '--detailed-exitcode']);
    expect(again.stderr).not.toContain('cannot rename');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });
});
