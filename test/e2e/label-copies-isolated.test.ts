/**
 * Copies never block the rest (issue 18 §2): a declared issue that uses a label with copies on the
 * server (two runs at once made it twice) is left out of the plan, saying how to clean the copies
 * up; every other change is still planned and applied, and plan and apply exit 1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiIssue, ApiLabel } from '../support/api-types.js';
import { calls, world, type World } from './helpers.js';

const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [
    {
      name: 'acme/widgets',
      labels: [
        { name: 'twin', color: '111111' },
        { name: 'twin', color: '111111' },
        { name: 'docs', color: '0000ff' },
      ],
      issues: [
        { title: 'One', author: 'root' },
        { title: 'Two', author: 'root' },
      ],
    },
  ],
};
const config = `version: 1
repos:
  acme/widgets:
    labels:
      twin: { color: "111111" }
      docs: { color: "0000ff" }
      fresh: { color: "00ff00" }
    issues:
      1: { title: "One, retitled", labels: [twin] }
      2: { title: "Two, retitled", labels: [docs] }
`;

let w: World;
afterEach(async () => w?.sandbox.close());
const issue = async (n: number) => (await w.api<ApiIssue>('GET', `repos/acme/widgets/issues/${n}`)).body;

describe('a declared issue using a label that has copies', () => {
  it('is left out with how to clean up; every other change is planned and applied; plan and apply exit 1', async () => {
    w = await world(seed);
    const file = w.config(config);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toMatch(/Not planned: \S*forgeform\.yaml:9:\d+: issue "#1" in acme\/widgets: label "twin" is ambiguous: 2 labels of that name exist in acme\/widgets or its organisation \(id \d+, id \d+\): this issue is left out until one remains; with the label declared and policy\.prune: \[labels\], forgeform deletes the copies no issue carries/);
    expect(plan.stdout).toContain('+ label "fresh"');
    expect(plan.stdout).toContain('~ issue "#2"');
    expect(plan.stdout).not.toContain('~ issue "#1"');
    expect(plan.stderr).toContain('1 declared object could not be planned (Not planned, above); everything else is planned, and apply makes it.');
    expect(plan.stderr).not.toContain('Planning failed');

    const apply = await w.cli(['apply', '--yes', '-c', file]);
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain('✓ + label "fresh" in repo:acme/widgets');
    expect(apply.stdout).toContain('✓ ~ issue "#2" in repo:acme/widgets');
    expect(apply.stdout).toMatch(/✗ Not applied: \S*forgeform\.yaml:9:\d+: issue "#1" in acme\/widgets: label "twin" is ambiguous/);
    expect((await issue(2)).title).toBe('Two, retitled');
    expect((await issue(2)).labels?.map((l) => l.name)).toEqual(['docs']);
    expect((await issue(1)).title).toBe('One');
    expect(calls(w.sandbox).filter((c) => c.includes('issues/1') && !c.startsWith('GET'))).toEqual([]);

    // The clean-up the plan names: with prune, the copy no issue carries goes, and then issue #1 is planned too.
    const pruned = w.config(`${config}policy:\n  prune: [labels]\n`, 'pruned.yaml');
    const cleanup = await w.cli(['apply', '--yes', '-c', pruned]);
    expect(cleanup.code).toBe(0);
    expect(cleanup.stdout).toMatch(/✓ - label "twin" \(duplicate, id \d+\)/);
    expect(cleanup.stdout).toContain('✓ ~ issue "#1" in repo:acme/widgets');
    const labels = (await w.api<ApiLabel[]>('GET', 'repos/acme/widgets/labels')).body.map((l) => l.name).sort();
    expect(labels).toEqual(['docs', 'fresh', 'twin']);
    expect((await issue(1)).labels?.map((l) => l.name)).toEqual(['twin']);
    expect((await w.cli(['plan', '-c', pruned])).stdout).toContain('No changes. The server matches the configuration.');
  });
});
