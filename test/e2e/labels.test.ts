import { afterEach, describe, expect, it } from 'vitest';
import type { ApiLabel } from '../support/api-types.js';
import { calls, type World, world } from './helpers.js';

const seed = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com' },
  ],
  orgs: [{ name: 'acme', owners: ['root'], labels: [{ name: 'kind/bug', color: 'ee0701', description: 'old', exclusive: true }, { name: 'stale', color: 'cccccc' }] }],
  repos: [
    {
      name: 'acme/widgets',
      labels: [
        { name: 'defect', color: 'ee0701', description: 'Something is not working' },
        { name: 'docs', color: '0000aa', description: 'Docs', is_archived: true },
        { name: 'help wanted', color: '128a0c' },
        { name: 'old', color: '999999' },
      ],
      issues: [{ title: 'Crash', labels: ['defect'], author: 'alice' }],
    },
  ],
};

const config = (prune: boolean) => `version: 1
policy:
  prune: [${prune ? 'labels' : ''}]
orgs:
  acme:
    labels:
      kind/bug: { color: "#EE0701", description: Something is not working, exclusive: true }
      kind/feature: { color: "0288d1", exclusive: true }
repos:
  acme/widgets:
    labels:
      bug: { color: ee0701, description: Something is not working, previously: [defect] }
      docs: { color: "#00F", description: Documentation }
      help wanted: { color: "128A0C" }
      new one: { color: abcdef, description: "Brand new" }
`;

let w: World;
afterEach(async () => w?.sandbox.close());

async function labels(w: World, path = 'repos/acme/widgets/labels'): Promise<ApiLabel[]> {
  return (await w.api<ApiLabel[]>('GET', `${path}?limit=50`)).body;
}

describe('labels end to end', () => {
  it('plans creates, updates, a rename and prune deletes; apply makes them with one request each; a second plan is empty', async () => {
    w = await world(seed);
    const file = w.config(config(true));
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.stderr).not.toMatch(/error/i);
    expect(plan.code).toBe(2);
    const out = plan.stdout;
    expect(out).toContain('# org:acme');
    expect(out).toMatch(/~ organisation label "kind\/bug"\n\s+~ description: "old" → "Something is not working"/);
    expect(out).toContain('+ organisation label "kind/feature"');
    expect(out).toContain('- organisation label "stale"');
    expect(out).toContain('# repo:acme/widgets');
    expect(out).toContain('> label "defect" → "bug"');
    expect(out).toMatch(/~ label "docs"\n\s+~ color\s*: "0000aa" → "0000ff"\n\s+~ description: "Docs" → "Documentation"/);
    expect(out).toContain('+ label "new one"');
    expect(out).toContain('- label "old"');
    // colour case and '#' are not differences
    expect(out).not.toContain('help wanted');
    expect(out).toContain('Plan: 2 to create, 2 to update, 2 to delete, 1 to rename.');
    // reads: the org label list, the repo GET, the org probe and the repo label list; nothing per label
    const reads = calls(w.sandbox);
    expect(reads.filter((c) => c.includes('/labels')).sort()).toEqual(['GET orgs/acme/labels', 'GET repos/acme/widgets/labels']);
    expect(reads.every((c) => c.startsWith('GET '))).toBe(true);

    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('Apply complete! 2 created, 2 updated, 2 deleted, 1 renamed.');
    const writes = calls(w.sandbox).filter((c) => !c.startsWith('GET '));
    expect(writes).toHaveLength(7);
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);

    const after = await labels(w);
    const byName = Object.fromEntries(after.map((l) => [l.name, l]));
    expect(Object.keys(byName).sort()).toEqual(['bug', 'docs', 'help wanted', 'new one']);
    // the PATCH carried is_archived, so the archived label stayed archived
    expect(byName.docs).toMatchObject({ color: '0000ff', description: 'Documentation', is_archived: true });
    // the rename kept the label on its issue
    const issue = await w.api<{ labels: ApiLabel[] }>('GET', 'repos/acme/widgets/issues/1');
    expect(issue.body.labels.map((l) => l.name)).toEqual(['bug']);
    expect((await labels(w, 'orgs/acme/labels')).map((l) => l.name).sort()).toEqual(['kind/bug', 'kind/feature']);

    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });

  it('deletes nothing when labels are not in policy.prune', async () => {
    w = await world(seed);
    const file = w.config(config(false));
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code).toBe(0);
    expect(apply.stdout).not.toMatch(/^\s*- /m);
    expect(calls(w.sandbox).filter((c) => c.startsWith('DELETE'))).toEqual([]);
    expect((await labels(w)).map((l) => l.name)).toContain('old');
    expect((await labels(w, 'orgs/acme/labels')).map((l) => l.name)).toContain('stale');
  });

  it('creates the labels of a label template, explicit labels overriding it', async () => {
    w = await world({ users: seed.users, orgs: [{ name: 'acme', owners: ['root'] }], repos: [{ name: 'acme/fresh' }] });
    const file = w.config(`version: 1
repos:
  acme/fresh:
    label_template: Default
    labels:
      bug: { color: "#d73a4a" }
`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.stdout).toContain('Plan: 7 to create, 0 to update, 0 to delete, 0 to rename.');
    expect(plan.stdout).toMatch(/\+ label "bug"\n\s+\+ color\s+= "d73a4a"\n\s+\+ description = "Something is not working"/);
    expect(calls(w.sandbox)).toContain('GET label/templates/Default');
    expect((await w.cli(['apply', '-c', file, '--yes'])).code).toBe(0);
    const made = await labels(w, 'repos/acme/fresh/labels');
    expect(made).toHaveLength(7);
    expect(made.find((l) => l.name === 'bug')?.color).toBe('d73a4a');
    expect(made.find((l) => l.name === 'wontfix')?.color).toBe('ffffff');
    expect((await w.cli(['plan', '-c', file])).stdout).toContain('No changes.');
  });

  it('reads a repository with 120 labels in three pages and plans nothing', async () => {
    const many = Array.from({ length: 120 }, (_, i) => ({ name: `l${String(i).padStart(3, '0')}`, color: 'aaaaaa' }));
    w = await world({ users: seed.users, orgs: [{ name: 'acme', owners: ['root'] }], repos: [{ name: 'acme/big', labels: many }] });
    const file = w.config(`version: 1
policy: { prune: [labels] }
repos:
  acme/big:
    labels:
${many.map((l) => `      ${l.name}: { color: aaaaaa }`).join('\n')}
`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.stdout).toContain('No changes.');
    const labelReads = w.sandbox.requests().filter((r) => r.path.endsWith('/labels'));
    expect(labelReads.map((r) => r.query.page).sort()).toEqual(['1', '2', '3']);
    expect(labelReads.every((r) => r.query.limit === '50')).toBe(true);
  });
});
