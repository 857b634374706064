import { describe, expect, it } from 'vitest';
import { findConcurrentDuplicates } from '../../../src/apply/concurrent.js';
import { execute, type ChangeResult } from '../../../src/apply/executor.js';
import { verifySavedPlan } from '../../../src/apply/verify.js';
import type { Diagnostic, Kind, RequestScope, Scope } from '../../../src/model/index.js';
import { FakeServer, fakeKind, plan } from './fake.js';

const APP = 'repos/acme/app/widgets';
const GADGETS = 'repos/acme/app/gadgets';
const kinds: Kind[] = [fakeKind(), fakeKind({ name: 'gadget', refersTo: 'widget' })];

/** Plans the config against the server, then applies the plan to it. */
async function planAndApply(server: FakeServer, config: Record<string, unknown>, refused?: Map<string, Diagnostic>): Promise<ChangeResult[]> {
  const { plan: p, errors } = await plan(server, config, { kinds });
  expect(errors).toEqual([]);
  server.sent = [];
  return execute(p.changes, { client: server.client(), kinds, policy: p.policy, ...(refused ? { refused } : {}) });
}

const outcomes = (results: ChangeResult[]) => results.map((r) => `${r.outcome} ${r.change.id}${r.error ? `: ${r.error}` : ''}`);

describe('executor with a fake kind', () => {
  it('runs renames, then creates, then updates, then deletes, and the server ends as the config says', async () => {
    const server = new FakeServer().repo('acme/app').add(APP, { name: 'gone' }, { name: 'edit', color: 'red' }, { name: 'old', color: 'red' });
    const results = await planAndApply(server, {
      policy: { prune: ['widgets'] },
      repos: { 'acme/app': { widgets: { fresh: { color: 'green' }, edit: { color: 'blue' }, new: { color: 'red', previously: ['old'] } } } },
    });
    expect(results.every((r) => r.outcome === 'done')).toBe(true);
    const ids = (name: string) => server.row(APP, name)?.id;
    expect(server.writes()).toEqual([`PATCH ${APP}/${ids('new')}`, `POST ${APP}`, `PATCH ${APP}/${ids('edit')}`, expect.stringMatching(/^DELETE repos\/acme\/app\/widgets\/\d+$/)]);
    expect(server.names(APP)).toEqual(['edit', 'fresh', 'new']);
    expect(server.row(APP, 'edit')!.color).toBe('blue');
  });

  it('puts the id a create answered where a later change refers to it with $ref', async () => {
    const server = new FakeServer().repo('acme/app');
    const results = await planAndApply(server, { repos: { 'acme/app': { widgets: { w: {} }, gadgets: { w: {} } } } });
    expect(outcomes(results)).toEqual(['done widget/repo:acme/app/w', 'done gadget/repo:acme/app/w']);
    expect(server.row(GADGETS, 'w')!.ref_id).toBe(server.row(APP, 'w')!.id);
  });

  it('skips the changes that depend on a failed one, and still runs the independent ones', async () => {
    const server = new FakeServer().repo('acme/app');
    server.fail.push({ method: 'POST', path: /widgets$/, status: 422 });
    const results = await planAndApply(server, { repos: { 'acme/app': { widgets: { w: {} }, gadgets: { w: {}, solo: {} } } } });
    expect(outcomes(results)).toEqual([
      expect.stringMatching(/^failed widget\/repo:acme\/app\/w: POST \/api\/v1\/repos\/acme\/app\/widgets .*422/),
      'done gadget/repo:acme/app/solo',
      'skipped gadget/repo:acme/app/w: depends on widget/repo:acme/app/w, which failed',
    ]);
    expect(server.names(GADGETS)).toEqual(['solo']);
  });

  it('counts a create whose answer was lost as done when the object is there on a re-read, and as failed when it is not', async () => {
    const lost = new FakeServer().repo('acme/app');
    lost.fail.push({ method: 'POST', path: /widgets$/, status: 502, andDo: true });
    expect(outcomes(await planAndApply(lost, { repos: { 'acme/app': { widgets: { w: {} } } } }))).toEqual(['done widget/repo:acme/app/w']);
    // It was not sent again: one POST, then the re-read.
    expect(lost.writes()).toEqual([`POST ${APP}`]);
    expect(lost.names(APP)).toEqual(['w']);

    const refused = new FakeServer().repo('acme/app');
    refused.fail.push({ method: 'POST', path: /widgets$/, status: 502 });
    expect(outcomes(await planAndApply(refused, { repos: { 'acme/app': { widgets: { w: {} } } } }))).toEqual([expect.stringMatching(/^failed widget\/repo:acme\/app\/w: .*502/)]);
  });

  it('sends nothing for a refused change, and skips what depends on it', async () => {
    const server = new FakeServer().repo('acme/app');
    const results = await planAndApply(server, { repos: { 'acme/app': { widgets: { w: {} }, gadgets: { w: {} } } } }, new Map([['widget/repo:acme/app/w', { message: 'stale plan', hint: 'plan again' }]]));
    expect(outcomes(results)).toEqual(['failed widget/repo:acme/app/w: stale plan: plan again', 'skipped gadget/repo:acme/app/w: depends on widget/repo:acme/app/w, which failed']);
    expect(server.writes()).toEqual([]);
  });

  it('hands kinds at apply the scope with the facts the plan learnt, not one parsed back from its id', async () => {
    const seen: Scope[] = [];
    const widget = fakeKind();
    // The scope a request carries is the engine's, with the names its routes are made of (segments, owner) added.
    const recording: Kind = { ...widget, read: (req) => (seen.push(withoutRouteNames(req.scope)), widget.read(req)) };
    const server = new FakeServer().repo('acme/app');
    const { plan: p, scopes } = await plan(server, { repos: { 'acme/app': { widgets: { w: {} } } } }, { kinds: [recording] });
    const facts = { owner: 'acme', name: 'app', ownerIsOrg: false, archived: false, private: false };
    expect(scopes.get('repo:acme/app')).toEqual({ type: 'repo', name: 'acme/app', repo: facts });
    // A saved plan's scopes are checked again on the server now, with the same facts.
    expect((await verifySavedPlan(p, server.client(), [recording])).scopes.get('repo:acme/app')).toEqual(scopes.get('repo:acme/app'));
    server.fail.push({ method: 'POST', path: /widgets$/, status: 502, andDo: true });
    seen.length = 0;
    const results = await execute(p.changes, { client: server.client(), kinds: [recording], policy: p.policy, scopes });
    expect(outcomes(results)).toEqual(['done widget/repo:acme/app/w']);
    await findConcurrentDuplicates(results, { client: server.client(), kinds: [recording], policy: p.policy, scopes });
    // The lost create's re-read, then the look for duplicates: both in the scope as planned.
    expect(seen).toEqual([scopes.get('repo:acme/app'), scopes.get('repo:acme/app')]);
  });
});

/** A request's scope as the engine holds it: without the names requestScope adds for routes. */
function withoutRouteNames({ segments: _segments, owner: _owner, ...scope }: RequestScope): Scope {
  return scope;
}
