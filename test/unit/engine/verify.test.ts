import { describe, expect, it } from 'vitest';
import { verifySavedPlan } from '../../../src/apply/verify.js';
import { formatDiagnostic } from '../../../src/model/index.js';
import { FakeServer, fakeKind, plan } from './fake.js';

const APP = 'repos/acme/app/widgets';
const kinds = [fakeKind()];
const config = { policy: { prune: ['widgets'] }, repos: { 'acme/app': { widgets: { edit: { color: 'blue' }, fresh: {} } } } };

describe('a saved plan checked against the server before apply', () => {
  it('passes unchanged when neither the file nor the server moved', async () => {
    const server = new FakeServer().repo('acme/app').add(APP, { name: 'edit', color: 'red' }, { name: 'stray' });
    const { plan: p } = await plan(server, config, { kinds });
    const verified = await verifySavedPlan(p, server.client(), kinds);
    expect(verified.mismatches).toEqual([]);
    expect([...verified.refused]).toEqual([]);
    expect(verified.plan.changes.map((c) => c.ops)).toEqual(p.changes.map((c) => c.ops));
  });

  it('names each change whose requests in the file are not what it shows, as a diagnostic with the change as resource', async () => {
    const server = new FakeServer().repo('acme/app').add(APP, { name: 'edit', color: 'red' }, { name: 'stray' });
    const { plan: p } = await plan(server, config, { kinds });
    const edited = structuredClone(p);
    const update = edited.changes.find((c) => c.action === 'update')!;
    update.ops[0]!.body = { color: 'black' };
    edited.policy.prune = [];
    const verified = await verifySavedPlan(edited, server.client(), kinds);
    expect(verified.mismatches.map(formatDiagnostic)).toEqual([
      "widget/repo:acme/app/stray: deletes a widget, but the plan's policy.prune does not list widgets",
      'widget/repo:acme/app/edit: the requests in the plan file differ from what the change shows, built against the server as it is now (the file was edited, or what the change refers to moved on)',
    ]);
  });

  it('refuses the changes whose object moved on the server since the plan (stale), and only those', async () => {
    const server = new FakeServer().repo('acme/app').add(APP, { name: 'edit', color: 'red' }, { name: 'stray' });
    const { plan: p } = await plan(server, config, { kinds });
    server.row(APP, 'edit')!.color = 'green';
    server.add(APP, { name: 'fresh' });
    const verified = await verifySavedPlan(p, server.client(), kinds);
    expect([...verified.refused].map(([id, d]) => [id, formatDiagnostic(d)])).toEqual([
      ['widget/repo:acme/app/fresh', 'exists on the server since the plan was made (stale plan): plan again'],
      ['widget/repo:acme/app/edit', 'changed on the server since the plan was made (stale plan): plan again'],
    ]);
    expect(verified.mismatches).toEqual([]);
  });

  it('goes through the planner\'s steps: a scope archived since the plan refuses its changes with the kind\'s read-only reason', async () => {
    const server = new FakeServer().repo('acme/app').add(APP, { name: 'edit', color: 'red' }, { name: 'stray' });
    const { plan: p } = await plan(server, config, { kinds });
    server.repo('acme/app', true);
    const verified = await verifySavedPlan(p, server.client(), kinds);
    expect([...verified.refused].map(([id, d]) => [id, formatDiagnostic(d)])).toEqual(p.changes.map((c) => [c.id, 'acme/app is archived']));
    expect(verified.scopes.get('repo:acme/app')?.repo?.archived).toBe(true);
  });

  it('rebuilds the wait of a create for the rename that frees its name, as the planner made it', async () => {
    const server = new FakeServer().repo('acme/app').add(APP, { name: 'old', color: 'red' });
    const { plan: p } = await plan(server, { repos: { 'acme/app': { widgets: { new: { previously: ['old'] }, old: {} } } } }, { kinds });
    expect(p.changes.find((c) => c.action === 'create')?.depends_on).toEqual(['widget/repo:acme/app/new']);
    const verified = await verifySavedPlan(p, server.client(), kinds);
    expect(verified.mismatches).toEqual([]);
    const edited = structuredClone(p);
    edited.changes.find((c) => c.action === 'create')!.depends_on = [];
    expect((await verifySavedPlan(edited, server.client(), kinds)).mismatches.map(formatDiagnostic)).toEqual([
      'widget/repo:acme/app/old: depends_on in the plan file differs from what the change needs (widget/repo:acme/app/new)',
    ]);
  });
});
