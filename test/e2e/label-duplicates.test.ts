/**
 * Duplicates of a declared label (two applies at once each created it): the plan names every copy
 * with its id and how many issues carry it, and counts them as a difference. With policy.prune:
 * [labels] it deletes the copies no issue carries and keeps the one issues carry (or the oldest).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiIssue, ApiLabel } from '../support/api-types.js';
import { ADMIN_TOKEN, runCli, world, type World, writes } from './helpers.js';

const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets' }],
};

const config = (prune: boolean, description = 'Something is broken') => `version: 1
policy:
  prune: [${prune ? 'labels' : ''}]
repos:
  acme/widgets:
    labels:
      bug: { color: ee0701, description: ${description} }
`;

let w: World;
afterEach(async () => {
  await w?.sandbox.close();
});

/** Two copies of "bug", as two runs at once leave them; returns their ids, oldest first. */
async function twoCopies(): Promise<[number, number]> {
  const a = await w.api<ApiLabel>('POST', 'repos/acme/widgets/labels', { name: 'bug', color: 'ee0701', description: 'Something is broken' });
  const b = await w.api<ApiLabel>('POST', 'repos/acme/widgets/labels', { name: 'bug', color: 'ee0701', description: 'Something is broken' });
  return [a.body.id, b.body.id];
}
const issueWith = (title: string, labels: number[]) => w.api<ApiIssue>('POST', 'repos/acme/widgets/issues', { title, labels });
const bugs = async () => (await w.api<ApiLabel[]>('GET', 'repos/acme/widgets/labels')).body.filter((l) => l.name === 'bug');

describe('duplicates of a declared label', () => {
  it('with prune, the copy no issue carries is deleted, the carried one is updated as the declared label, and the next plan is empty', async () => {
    w = await world(seed);
    const [older, newer] = await twoCopies();
    // the newer copy is on issues: it is the one kept, though not the oldest
    await issueWith('Crash', [newer]);
    await issueWith('Hang', [newer]);
    const file = w.config(config(true, 'Broken'));
    w.sandbox.clearRequests();

    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode'], { NO_COLOR: '1' });
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain(`label "bug" in acme/widgets: 2 labels with this name exist on the server (id ${older} on 0 issues, id ${newer} on 2 issues); forgeform keeps id ${newer} (the one on issues)`);
    expect(plan.stdout).toContain(`- label "bug" (duplicate, id ${older})`);
    expect(plan.stdout).toContain('# carried by no issue');
    expect(plan.stdout).toContain('~ label "bug"');
    expect(plan.stdout).toContain('Plan: 0 to create, 1 to update, 1 to delete, 0 to rename.');

    // a saved plan is verified again at apply: the copy is found by its id
    const planFile = `${w.dir}/plan.json`;
    expect((await w.cli(['plan', '-c', file, '--out', planFile])).code).toBe(0);
    w.sandbox.clearRequests();
    const apply = await runCli(['apply', planFile], { env: { FORGEFORM_URL: w.sandbox.url, FORGEFORM_TOKEN: ADMIN_TOKEN, NO_COLOR: '1' } });
    expect(apply.stdout + apply.stderr).not.toMatch(/stale|refuse/i);
    expect(apply.code).toBe(0);
    expect(writes(w.sandbox).sort()).toEqual([`DELETE repos/acme/widgets/labels/${older}`, `PATCH repos/acme/widgets/labels/${newer}`]);
    expect((await bugs()).map((l) => [l.id, l.description])).toEqual([[newer, 'Broken']]);
    const issues = (await w.api<ApiIssue[]>('GET', 'repos/acme/widgets/issues?state=all')).body;
    expect(issues.map((i) => i.labels.map((l) => l.id))).toEqual([[newer], [newer]]);

    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], { NO_COLOR: '1' });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes. The server matches the configuration.');
  });

  it('with prune and no copy on issues, the oldest is kept', async () => {
    w = await world(seed);
    const [older, newer] = await twoCopies();
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '--yes', '-c', w.config(config(true))], { NO_COLOR: '1' });
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain(`forgeform keeps id ${older} (the oldest)`);
    expect(writes(w.sandbox)).toContain(`DELETE repos/acme/widgets/labels/${newer}`);
    expect((await bugs()).map((l) => l.id)).toEqual([older]);
  });

  it('a copy put on an issue after the plan was saved is not deleted: apply refuses the stale deletion', async () => {
    w = await world(seed);
    const [older, newer] = await twoCopies();
    await issueWith('Crash', [older]);
    const planFile = `${w.dir}/plan.json`;
    expect((await w.cli(['plan', '-c', w.config(config(true)), '--out', planFile])).code).toBe(0);
    await issueWith('Late', [newer]);
    w.sandbox.clearRequests();
    const apply = await runCli(['apply', planFile], { env: { FORGEFORM_URL: w.sandbox.url, FORGEFORM_TOKEN: ADMIN_TOKEN, NO_COLOR: '1' } });
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).toContain('is carried by 1 issue now, 0 when the plan was made (stale plan)');
    expect(writes(w.sandbox)).toEqual([]);
    expect((await bugs()).map((l) => l.id)).toEqual([older, newer]);
  });

  it('when two copies are on issues, all are named and none is deleted; the plan still differs', async () => {
    w = await world(seed);
    const [older, newer] = await twoCopies();
    await issueWith('Crash', [older]);
    await issueWith('Hang', [newer]);
    await issueWith('Slow', [older, newer]);
    const file = w.config(config(true));
    w.sandbox.clearRequests();
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode'], { NO_COLOR: '1' });
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain(
      `Differs: label "bug" in acme/widgets: 2 labels with this name exist on the server (id ${older} on 2 issues, id ${newer} on 2 issues); 2 of them are on issues, so forgeform keeps them all`,
    );
    expect(plan.stdout).toContain('No changes planned, but the server differs from the configuration (see above).');
    expect(plan.stdout).not.toContain('No changes. The server matches');
    const apply = await w.cli(['apply', '--yes', '-c', file]);
    expect(apply.code).toBe(0);
    expect(writes(w.sandbox)).toEqual([]);
    expect((await bugs()).map((l) => l.id)).toEqual([older, newer]);
  });

  it('without prune, the copies are named with what prune would do, and plan --detailed-exitcode exits 2', async () => {
    w = await world(seed);
    const [older, newer] = await twoCopies();
    await issueWith('Crash', [older]);
    w.sandbox.clearRequests();
    const plan = await w.cli(['plan', '-c', w.config(config(false)), '--detailed-exitcode', '--format', 'markdown']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain(
      `> **Differs:** label "bug" in acme/widgets: 2 labels with this name exist on the server (id ${older} on 1 issue, id ${newer} on 0 issues); forgeform keeps id ${older} (the one on issues); policy.prune: \\[labels\\] would delete id ${newer}`,
    );
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('an organisation label with a copy no issue carries: that copy is deleted', async () => {
    w = await world({ ...seed, repos: [{ name: 'acme/widgets' }, { name: 'acme/gadgets' }] });
    const a = await w.api<ApiLabel>('POST', 'orgs/acme/labels', { name: 'team/core', color: '00aa00' });
    const b = await w.api<ApiLabel>('POST', 'orgs/acme/labels', { name: 'team/core', color: '00aa00' });
    await w.api('POST', 'repos/acme/gadgets/issues', { title: 'Crash', labels: [b.body.id] });
    w.sandbox.clearRequests();
    const file = w.config('version: 1\npolicy: { prune: [labels] }\norgs:\n  acme:\n    labels:\n      team/core: { color: "00aa00" }\n');
    const apply = await w.cli(['apply', '--yes', '-c', file], { NO_COLOR: '1' });
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain(`(id ${a.body.id} on 0 issues, id ${b.body.id} on 1 issue); forgeform keeps id ${b.body.id}`);
    expect(writes(w.sandbox)).toEqual([`DELETE orgs/acme/labels/${a.body.id}`]);
    expect((await w.cli(['plan', '-c', file, '--detailed-exitcode'])).code).toBe(0);
  });
});
