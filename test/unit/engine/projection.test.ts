import { describe, expect, it } from 'vitest';
import { verifySavedPlan } from '../../../src/apply/verify.js';
import { intentOf, planningOrder, type Change, type CurrentObject } from '../../../src/model/index.js';
import { project } from '../../../src/plan/projection.js';
import { actions, FakeServer, fakeKind, plan } from './fake.js';

const APP = 'repos/acme/app/widgets';

describe('the projection: kinds as the plan leaves them', () => {
  const change = (action: Change['action'], key: string, fields: Change['fields'] = [], extra: Partial<Change> = {}): Change => ({
    id: `widget/repo:acme/app/${key}`,
    kind: 'widget',
    scope: 'repo:acme/app',
    key,
    action,
    fields,
    precondition: { digest: action === 'create' ? null : 'd' },
    depends_on: [],
    ops: [],
    ...extra,
  });

  it('renames, edits and deletes the server objects the changes were made from, and adds the created ones', () => {
    const cur: CurrentObject[] = [
      { key: 'old', id: 1, fields: { color: 'red' } },
      { key: 'edit', id: 2, fields: { color: 'red', tags: [] } },
      { key: 'gone', id: 3, fields: {} },
      { key: 'same', id: 4, fields: { color: 'red' } },
    ];
    const rename = change('rename', 'new', [{ path: 'name', before: 'old', after: 'new' }], { from: 'old' });
    const update = change('update', 'edit', [{ path: 'color', before: 'red', after: 'blue' }, { path: 'owner', after: 'x', context: true }]);
    const del = change('delete', 'gone');
    const create = change('create', 'fresh', [{ path: 'color', after: 'green' }]);
    const source = new Map([[rename.id, cur[0]], [update.id, cur[1]], [del.id, cur[2]]]);
    expect(project(cur, [rename, update, del, create], { sourceOf: (id) => source.get(id), intentOf })).toEqual([
      { key: 'new', id: 1, fields: { color: 'red' }, madeBy: rename.id },
      { key: 'edit', id: 2, fields: { color: 'blue', tags: [] }, changedBy: update.id },
      { key: 'same', id: 4, fields: { color: 'red' } },
      { key: 'fresh', id: { $ref: create.id }, fields: { color: 'green' }, madeBy: create.id },
    ]);
  });

  it('plans a kind after the kinds its after names, whatever the registry order, and names a cycle or an unknown name', () => {
    const widget = fakeKind();
    const gadget = fakeKind({ name: 'gadget', refersTo: 'widget' });
    expect(planningOrder([gadget, widget]).map((k) => k.name)).toEqual(['widget', 'gadget']);
    expect(planningOrder([widget, gadget]).map((k) => k.name)).toEqual(['widget', 'gadget']);
    expect(() => planningOrder([{ ...widget, after: ['gadget'] }, gadget])).toThrow('kinds wait for each other (Kind.after): widget → gadget → widget');
    expect(() => planningOrder([{ ...widget, after: ['nothing'] }])).toThrow('kind widget is planned after "nothing", which is no kind (Kind.after)');
  });

  it('a kind listed first still sees the objects a kind it comes after creates, at plan and at apply', async () => {
    const kinds = [fakeKind({ name: 'gadget', refersTo: 'widget' }), fakeKind()];
    const server = new FakeServer().repo('acme/app');
    const result = await plan(server, { repos: { 'acme/app': { gadgets: { n: {} }, widgets: { n: {} } } } }, { kinds });
    // Changes are listed in registry order; the gadget's create points at the widget's.
    expect(actions(result)).toEqual(['create gadget/repo:acme/app/n', 'create widget/repo:acme/app/n']);
    expect(result.plan.changes[0]!.ops[0]!.body).toEqual({ name: 'n', ref_id: { $ref: 'widget/repo:acme/app/n' } });
    expect(result.plan.changes[0]!.depends_on).toEqual(['widget/repo:acme/app/n']);
    const verified = await verifySavedPlan(result.plan, server.client(), kinds);
    expect(verified.mismatches).toEqual([]);
  });

  it('refuses a kind that asks for another kind without naming it in after', async () => {
    const kinds = [fakeKind(), { ...fakeKind({ name: 'gadget', refersTo: 'widget' }), after: [] }];
    const server = new FakeServer().repo('acme/app').add(APP, { name: 'n' });
    await expect(plan(server, { repos: { 'acme/app': { gadgets: { n: {} }, widgets: { n: {} } } } }, { kinds })).rejects.toThrow(
      'kind gadget asks for the widget objects as the plan leaves them, but its after does not name widget',
    );
  });
});
