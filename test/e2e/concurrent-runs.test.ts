/**
 * Another run (or a human) acts on the server between this run's reads and its writes (issue 18,
 * "concurrent-run messages"). A proxy in front of the sandbox does the other run's write just before
 * it forwards forgeform's: a rename already done counts as done, a name renamed elsewhere and a saved
 * plan applied twice are stale with a message that says what happened, a DELETE of what is already
 * gone counts as done, and a create whose answer was lost still gives its id to the change that uses
 * it. Each run is the built CLI against the sandbox; the server is read afterwards.
 */
import { describe, expect, it } from 'vitest';
import type { ApiIssue, ApiUser } from '../support/api-types.js';
import { firstTimes, type ProxiedRequest } from '../support/misbehaving-proxy.js';
import { rootAnd, rootAndAcme } from '../support/seeds.js';
import { bodyOf, calls, writes } from './helpers.js';
import { proxiedWorlds, type ProxiedWorld, type Rule } from './proxied-world.js';

const seed = rootAndAcme({
  users: [...rootAnd(), { username: 'bob-old', email: 'bob@example.com' }],
  repos: [
    {
      name: 'acme/widgets',
      labels: [{ name: 'bug', color: 'ee0701' }],
      issues: [{ title: 'One', labels: ['bug'] }],
      branch_protections: [{ rule_name: 'main' }, { rule_name: 'legacy' }],
    },
  ],
});
const renameBob = 'version: 1\nusers:\n  bob:\n    previously: [bob-old]\n    email: bob@example.com\n    visibility: private\n';

const start = proxiedWorlds();
let w: ProxiedWorld;

/** forgeform's requests go through a proxy that applies `rule`; the test's own API calls go straight to the sandbox. */
async function behind(rule: Rule) {
  w = await start(seed, rule);
  return { FORGEFORM_URL: w.proxy.url };
}
/** Just before forgeform's request `method path` is forwarded, another run sends its own: forgeform's then meets the result. */
const otherRunFirst = (method: string, path: string, act: () => Promise<unknown>) => (r: ProxiedRequest) =>
  r.method === method && r.path === path ? ({ type: 'before', run: async () => void (await act()) } as const) : undefined;
const user = async (name: string) => (await w.api<ApiUser[]>('GET', 'admin/users?limit=50')).body.find((u) => u.login === name);

describe('a rename another run did between this run reading the server and writing', () => {
  it('counts as done with a note saying so, the rest of the change is sent, and the next plan is empty', async () => {
    const env = await behind(otherRunFirst('POST', 'admin/users/bob-old/rename', () => w.api('POST', 'admin/users/bob-old/rename', { new_username: 'bob' })));
    const file = w.config(renameBob);
    const apply = await w.cli(['apply', '--yes', '-c', file], env);
    expect(apply.stdout).toContain('✓ > user "bob-old" → "bob" in server (it was already renamed to "bob" (by another run?): nothing to do for the rename)');
    expect(apply.stdout).toContain('Apply complete! 0 created, 0 updated, 0 deleted, 1 renamed.');
    expect(apply.stdout + apply.stderr).not.toMatch(/307|update the config|✗/);
    expect(apply.code).toBe(0);
    // forgeform's rename met Gitea's redirect for the old name (the other run's rename answered 204 before it)
    expect(w.sandbox.requests().filter((r) => r.method === 'POST' && r.path.endsWith('admin/users/bob-old/rename')).map((r) => r.status)).toEqual([204, 307]);
    expect(bodyOf(w.sandbox, 'PATCH', 'admin/users/bob')).toMatchObject({ visibility: 'private' });
    expect((await user('bob'))?.visibility).toBe('private');
    expect(await user('bob-old')).toBeUndefined();

    const again = await w.cli(['plan', '--detailed-exitcode', '-c', file]);
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
  });

  it('to another name: the change stops before its next request, saying where the name went and to plan again', async () => {
    const env = await behind(otherRunFirst('POST', 'admin/users/bob-old/rename', () => w.api('POST', 'admin/users/bob-old/rename', { new_username: 'carl' })));
    const apply = await w.cli(['apply', '--yes', '-c', w.config(renameBob)], env);
    expect(apply.stdout).toContain(
      '✗ > user "bob-old" → "bob" in server: user "bob-old" was renamed to "carl" on the server since the plan read it (by another run or by hand), so nothing more was sent for this change (POST /api/v1/admin/users/bob-old/rename → 307 Temporary Redirect, to /api/v1/admin/users/carl/rename): plan again to see what is left',
    );
    expect(apply.stdout).not.toContain('update the config');
    expect(apply.code).toBe(1);
    // the PATCH that followed the rename was not sent, to bob nor to carl
    expect(writes(w.sandbox).filter((c) => c.startsWith('PATCH'))).toEqual([]);
    expect((await user('carl'))?.visibility).toBe('public');
  });
});

describe('a saved plan applied twice', () => {
  it('the second apply sends nothing and says the rename was already done (stale plan): plan again; the next plan is empty', async () => {
    w = await start(seed);
    const file = w.config('version: 1\nusers:\n  bob:\n    previously: [bob-old]\n    email: bob@example.com\nrepos:\n  acme/widgets:\n    labels:\n      defect: { color: ee0701, previously: [bug] }\n');
    const plan = await w.cli(['plan', '-c', file, '--out', 'plan.json']);
    expect(plan.code).toBe(0);
    const first = await w.cli(['apply', '--yes', 'plan.json']);
    expect(first.stdout).toContain('Apply complete! 0 created, 0 updated, 0 deleted, 2 renamed.');
    expect(first.code).toBe(0);

    w.sandbox.clearRequests();
    const second = await w.cli(['apply', '--yes', 'plan.json']);
    expect(second.stdout).toContain(
      '✗ > user "bob-old" → "bob" in server: "bob-old" was already renamed to "bob" on the server since the plan was made (by an apply of this plan, another run or by hand), so nothing of this change was sent (stale plan): plan again',
    );
    expect(second.stdout).toContain('✗ > label "bug" → "defect" in repo:acme/widgets: "bug" was already renamed to "defect" on the server since the plan was made');
    expect(second.stdout).not.toContain('no longer exists');
    expect(second.code).toBe(1);
    expect(writes(w.sandbox)).toEqual([]);

    const again = await w.cli(['plan', '--detailed-exitcode', '-c', file]);
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
  });
});

describe('a DELETE of what another run deleted between this run reading the server and writing', () => {
  it('is answered 404 and counts as done ("already gone"): apply exits 0 and the next plan is empty', async () => {
    const path = 'repos/acme/widgets/branch_protections/legacy';
    const env = await behind(otherRunFirst('DELETE', path, () => w.api('DELETE', path)));
    const file = w.config('version: 1\npolicy: { prune: [branch_protections] }\nrepos:\n  acme/widgets:\n    branch_protections:\n      main: {}\n');
    const apply = await w.cli(['apply', '--yes', '-c', file], env);
    expect(apply.stdout).toContain('✓ - branch protection "legacy" in repo:acme/widgets (it was already gone (deleted by another run or by hand))');
    expect(apply.stdout).toContain('Apply complete! 0 created, 0 updated, 1 deleted, 0 renamed.');
    expect(apply.code).toBe(0);
    // the other run's DELETE did it; forgeform's, sent once, found nothing
    expect(w.sandbox.requests().filter((r) => r.method === 'DELETE' && r.path.endsWith(path)).map((r) => r.status)).toEqual([204, 404]);

    const again = await w.cli(['plan', '--detailed-exitcode', '-c', file]);
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
  });
});

describe('a create whose answer was lost, used by a later change of the same apply', () => {
  it('is found on the server, and the issue change gets its id from there (no "has not created its object yet")', async () => {
    const env = await behind(firstTimes(1, (r) => r.method === 'POST' && r.path === 'repos/acme/widgets/labels', { type: 'drop-after' }));
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: ee0701 }\n      triage: { color: "00aa00" }\n    issues:\n      1: { labels: [triage] }\n');
    const apply = await w.cli(['apply', '--yes', '-c', file], env);
    expect(apply.stdout).toMatch(/✓ \+ label "triage" in repo:acme\/widgets \(its answer was lost \(POST \/api\/v1\/repos\/acme\/widgets\/labels failed: .*\); the repo label was found on the server\)/);
    expect(apply.stdout).toContain('✓ ~ issue "#1" in repo:acme/widgets');
    expect(apply.stdout + apply.stderr).not.toMatch(/internal|has not created/);
    expect(apply.code).toBe(0);
    // the label was created once, and the issue got the id the server gave it
    expect(calls(w.sandbox).filter((c) => c === 'POST repos/acme/widgets/labels')).toHaveLength(1);
    const labels = (await w.api<{ id: number; name: string }[]>('GET', 'repos/acme/widgets/labels')).body;
    const triage = labels.find((l) => l.name === 'triage')!;
    expect(labels.map((l) => l.name).sort()).toEqual(['bug', 'triage']);
    expect(bodyOf(w.sandbox, 'POST', 'repos/acme/widgets/issues/1/labels')).toEqual({ labels: [triage.id] });
    const issue = (await w.api<ApiIssue>('GET', 'repos/acme/widgets/issues/1')).body;
    expect(issue.labels.map((l) => l.name).sort()).toEqual(['bug', 'triage']);

    const again = await w.cli(['plan', '--detailed-exitcode', '-c', file]);
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
  });
});
