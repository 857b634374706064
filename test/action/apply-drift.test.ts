import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildActionDir } from './runner.js';
import { actionWorld, writesTo, type ActionWorld } from './world.js';
import type { ApiIssue, ApiLabel } from '../support/api-types.js';

let actionDir: string;
let w: ActionWorld;
beforeAll(() => {
  actionDir = buildActionDir();
});
afterEach(async () => w?.close());

const LABELS = `version: 1
repos:
  acme/widgets:
    labels:
      bug: { color: ee0701, description: "Something is not working" }
      docs: { color: 0075ca }
`;

const labels = async (w: ActionWorld) => (await w.api<ApiLabel[]>(w.managed, 'GET', 'repos/acme/widgets/labels')).body.map((l) => `${l.name}:${l.color}`).sort();
const driftIssues = async (w: ActionWorld) => (await w.api<ApiIssue[]>(w.forge, 'GET', 'repos/ci-bot/config/issues?state=all&type=issues')).body.filter((i) => i.title === 'forgeform: drift detected');

describe('the action on merge: command apply', () => {
  it('applies exactly the reviewed plan', async () => {
    w = await actionWorld(actionDir);
    w.write('forgeform.yaml', LABELS);
    const plan = await w.run({ 'plan-file': 'reviewed/plan.json' });
    expect(plan.outputs['exit-code'], plan.stdout).toBe('2');
    w.managed.clearRequests();

    const r = await w.run({ command: 'apply', 'plan-file': 'reviewed/plan.json' }, { event: {}, eventName: 'workflow_dispatch' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs).toMatchObject({ 'exit-code': '0', 'has-changes': 'true', summary: 'Apply complete! 2 created, 0 updated, 0 deleted, 0 renamed.', 'plan-file': expect.stringMatching(/forgeform-plan-now\.json$/) }); // planned again: exactly the reviewed changes
    expect(r.summary).toContain('### forgeform apply');
    expect(r.summary).toContain('Apply complete!');
    expect(writesTo(w.managed)).toEqual(['POST repos/acme/widgets/labels', 'POST repos/acme/widgets/labels']);
    expect(await labels(w)).toEqual(['bug:ee0701', 'docs:0075ca']);
  });

  it('refuses a stale reviewed plan whole, changes nothing, and shows the plan made again', async () => {
    w = await actionWorld(actionDir);
    w.write('forgeform.yaml', LABELS);
    await w.run({ 'plan-file': 'plan.json' });
    // After the review, someone creates "docs" by hand with another colour.
    await w.api(w.managed, 'POST', 'repos/acme/widgets/labels', { name: 'docs', color: '111111' });
    w.managed.clearRequests();

    const r = await w.run({ command: 'apply', 'plan-file': 'plan.json' }, { event: {}, eventName: 'workflow_dispatch' });
    expect(r.code).toBe(1);
    expect(writesTo(w.managed)).toEqual([]);
    expect(await labels(w)).toEqual(['docs:111111']);
    expect(r.stdout).toMatch(/::error::The reviewed plan is stale, nothing was applied: .*"docs".* (is no longer needed|is not what was reviewed)/);
    expect(r.outputs).toMatchObject({ 'exit-code': '1', 'has-changes': 'true' });
    expect(r.outputs.summary).toMatch(/^Refused a stale plan: /);
    expect(r.summary).toContain('refused, the reviewed plan is stale');
    expect(r.summary).toContain('Planned again now');
    expect(r.summary).toMatch(/~ label "docs"/); // the fresh plan: an update now
  });

  it('refuses a reviewed plan when the merged configuration differs from the reviewed one', async () => {
    w = await actionWorld(actionDir);
    w.write('forgeform.yaml', LABELS);
    await w.run({ 'plan-file': 'plan.json' });
    w.write('forgeform.yaml', LABELS.replace('0075ca', '0075cb')); // another change merged first
    const r = await w.run({ command: 'apply', 'plan-file': 'plan.json' }, { event: {}, eventName: 'workflow_dispatch' });
    expect(r.code).toBe(1);
    expect(r.summary).toMatch(/"docs".* is not what was reviewed/);
    expect(writesTo(w.managed)).toEqual([]);
  });

  it('refuses when there is no reviewed plan to apply, and plans again', async () => {
    w = await actionWorld(actionDir);
    w.write('forgeform.yaml', LABELS);
    const r = await w.run({ command: 'apply', 'plan-file': 'missing.json' }, { event: {}, eventName: 'workflow_dispatch' });
    expect(r.code).toBe(1);
    expect(r.summary).toContain(`there is no reviewed plan at ${w.workspace}/missing.json`);
    expect(r.summary).toContain('+ label "bug"');
  });

  it('on a push, refuses a commit that is no pull request\'s merge: nothing was reviewed', async () => {
    w = await actionWorld(actionDir);
    w.write('forgeform.yaml', LABELS);
    const r = await w.run({ command: 'apply' }, { event: { ref: 'refs/heads/main' }, eventName: 'push' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error::commit bbbbbbbbbbbb is not the merge of a pull request: nothing was reviewed, so nothing was applied.');
    expect(w.managed.requests()).toEqual([]);
    expect(writesTo(w.managed)).toEqual([]);
  });

  it('without a plan file, plans and applies in one step', async () => {
    w = await actionWorld(actionDir);
    w.write('forgeform.yaml', LABELS);
    const r = await w.run({ command: 'apply' }, { event: {}, eventName: 'workflow_dispatch' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await labels(w)).toEqual(['bug:ee0701', 'docs:0075ca']);
  });
});

describe('the nightly drift check: command drift', () => {
  it('opens one drift issue, updates it while the drift lasts, and closes it when a run finds none', async () => {
    w = await actionWorld(actionDir);
    w.write('forgeform.yaml', LABELS);
    const nightly = { event: { schedule: '0 3 * * *' }, eventName: 'schedule' };

    const first = await w.run({ command: 'drift' }, nightly);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.outputs).toMatchObject({ 'has-changes': 'true', 'exit-code': '2' });
    let issues = await driftIssues(w);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ state: 'open' });
    expect(issues[0]!.body).toContain('Plan: 2 to create');
    const number = issues[0]!.number;

    // Part of the drift is fixed by hand: the issue is updated, not duplicated.
    await w.api(w.managed, 'POST', 'repos/acme/widgets/labels', { name: 'bug', color: 'ee0701', description: 'Something is not working' });
    w.forge.clearRequests();
    const second = await w.run({ command: 'drift' }, nightly);
    expect(second.code).toBe(0);
    issues = await driftIssues(w);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ number, state: 'open' });
    expect(issues[0]!.body).toContain('Plan: 1 to create');
    expect(writesTo(w.forge)).toEqual([`PATCH repos/ci-bot/config/issues/${number}`]);

    // The rest is applied: the next run finds no drift and closes the issue with a comment.
    await w.api(w.managed, 'POST', 'repos/acme/widgets/labels', { name: 'docs', color: '0075ca' });
    w.forge.clearRequests();
    const third = await w.run({ command: 'drift' }, nightly);
    expect(third.code).toBe(0);
    expect(third.outputs).toMatchObject({ 'has-changes': 'false', 'exit-code': '0', summary: 'No changes.' });
    issues = await driftIssues(w);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ number, state: 'closed' });
    expect(writesTo(w.forge)).toEqual([`POST repos/ci-bot/config/issues/${number}/comments`, `PATCH repos/ci-bot/config/issues/${number}`]);
    const [closing] = (await w.api<{ body: string }[]>(w.forge, 'GET', `repos/ci-bot/config/issues/${number}/comments`)).body;
    expect(closing!.body).toContain('No drift any more');

    // And a later clean run leaves the closed issue alone.
    w.forge.clearRequests();
    expect((await w.run({ command: 'drift' }, nightly)).code).toBe(0);
    expect(writesTo(w.forge)).toEqual([]);
  });

  it('fail-on-drift: the run fails too, after the issue is opened', async () => {
    w = await actionWorld(actionDir);
    w.write('forgeform.yaml', LABELS);
    const r = await w.run({ command: 'drift', 'fail-on-drift': 'true' }, { event: {}, eventName: 'schedule' });
    expect(r.code).toBe(1);
    const [issue] = await driftIssues(w);
    expect(issue).toMatchObject({ state: 'open' });
    expect(r.stdout).toContain(`::error::The server drifted from the configuration: Plan: 2 to create, 0 to update, 0 to delete, 0 to rename. (issue #${issue!.number}).`);
  });

  it('leaves the issues alone when the plan fails', async () => {
    w = await actionWorld(actionDir);
    w.write('forgeform.yaml', 'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { colour: ee0701 }\n');
    const r = await w.run({ command: 'drift' }, { event: {}, eventName: 'schedule' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error title=forgeform configuration,file=forgeform.yaml,line=5');
    expect(writesTo(w.forge)).toEqual([]);
  });
});
