import { afterEach, describe, expect, it } from 'vitest';
import type { ApiIssue } from '../support/api-types.js';
import { calls, world, type World } from './helpers.js';

// Gitea's `labels=` issue filters split on commas and drop names no label has: a label counted by name
// is "on no issue" when part of its name is another label's, and "on every issue" when no part is.
const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'], labels: [{ name: 'team', color: '00aa00' }, { name: 'team,core', color: '00bb00' }] }],
  repos: [
    {
      name: 'acme/widgets',
      labels: [
        { name: 'old', color: '999999' },
        { name: 'old,x', color: '888888' },
        { name: 'x,y', color: '777777' },
      ],
      issues: [
        { title: 'Carries the comma label', labels: ['old,x'], author: 'root' },
        { title: 'Carries the organisation comma label', labels: ['team,core'], author: 'root' },
        { title: 'Carries nothing', author: 'root' },
      ],
    },
  ],
};

let w: World;
afterEach(async () => w?.sandbox.close());

const labelsOf = async (n: number) => (await w.api<ApiIssue>('GET', `repos/acme/widgets/issues/${n}`)).body.labels.map((l) => l.name).sort();

describe('the "label is on N issues" count cannot be split or widened by a name', () => {
  it('a pruned label "old,x" on an issue is counted as carried, and apply without --force keeps it on its issue', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
policy: { prune: [labels] }
orgs:
  acme:
    labels:
      team: { color: 00aa00 }
repos:
  acme/widgets:
    labels:
      old: { color: "999999" }
`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(3);
    expect(plan.stdout).toMatch(/- label "old,x"\n\s+# carried by 1 issue: deleting it removes it from them/);
    // A name none of whose parts is a label matched every issue: it is carried by none.
    expect(plan.stdout).toMatch(/- label "x,y"\n\s+# carried by no issue/);
    expect(plan.stdout).toMatch(/- organisation label "team,core"\n\s+# carried by 1 issue: deleting it removes it from them/);
    expect(plan.stdout).toContain('Unsafe: label "old,x" in acme/widgets is carried by 1 issue');
    expect(plan.stdout).toContain('Unsafe: organisation label "team,core" in acme is carried by 1 issue');
    // No issue filter by name is ever sent: the issues are read whole and counted by label id.
    expect(w.sandbox.requests().filter((r) => 'labels' in r.query)).toEqual([]);

    const refused = await w.cli(['apply', '-c', file, '--yes']);
    expect(refused.code).toBe(3);
    expect(calls(w.sandbox).filter((c) => !c.startsWith('GET'))).toEqual([]);
    expect(await labelsOf(1)).toEqual(['old,x']);
    expect(await labelsOf(2)).toEqual(['team,core']);

    const forced = await w.cli(['apply', '-c', file, '--yes', '--force']);
    expect(forced.code).toBe(0);
    expect(await labelsOf(1)).toEqual([]);
  });
});
