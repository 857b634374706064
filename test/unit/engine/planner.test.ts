import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/model/index.js';
import { actions, FakeServer, fakeKind, plan } from './fake.js';

const APP = 'repos/acme/app/widgets';

function world(): FakeServer {
  return new FakeServer().repo('acme/app').repo('acme/other');
}

describe('planner with a fake kind', () => {
  it('creates, updates and leaves alone by comparing normalized fields, and builds each change its requests', async () => {
    const server = world().add(APP, { name: 'same', color: 'red', tags: ['a', 'b'] }, { name: 'edit', color: 'red' });
    const result = await plan(server, { repos: { 'acme/app': { widgets: { same: { color: 'RED', tags: ['b', 'a'] }, edit: { color: 'blue' }, fresh: { color: 'green' } } } } });
    expect(result.errors).toEqual([]);
    expect(actions(result)).toEqual(['create widget/repo:acme/app/fresh', 'update widget/repo:acme/app/edit']);
    const [create, update] = result.plan.changes;
    expect(create!.ops).toEqual([{ method: 'POST', path: APP, body: { name: 'fresh', color: 'green' } }]);
    expect(update!.fields).toEqual([{ path: 'color', before: 'red', after: 'blue' }]);
    expect(update!.ops).toEqual([{ method: 'PATCH', path: `${APP}/${server.row(APP, 'edit')!.id}`, body: { color: 'blue' } }]);
    expect(result.plan.summary).toMatchObject({ create: 1, update: 1, delete: 0 });
    // Planning reads, it never writes.
    expect(server.writes()).toEqual([]);
  });

  it('renames the object named in previously', async () => {
    const server = world().add(APP, { name: 'old', color: 'red' });
    const result = await plan(server, { repos: { 'acme/app': { widgets: { new: { color: 'blue', previously: ['gone', 'old'] } } } } });
    expect(result.errors).toEqual([]);
    expect(actions(result)).toEqual(['rename widget/repo:acme/app/new']);
    const [toNew] = result.plan.changes;
    expect(toNew!.from).toBe('old');
    expect(toNew!.fields).toEqual([{ path: 'name', before: 'old', after: 'new' }, { path: 'color', before: 'red', after: 'blue' }]);
    expect(toNew!.ops).toEqual([{ method: 'PATCH', path: `${APP}/${server.row(APP, 'old')!.id}`, body: { name: 'new', color: 'blue' } }]);
  });

  // The declared object of a name that a rename frees is a new object, created after the rename.
  it('a create may take the name a rename frees', async () => {
    const freed = await plan(world().add(APP, { name: 'old', color: 'red' }), { repos: { 'acme/app': { widgets: { new: { color: 'red', previously: ['old'] }, old: { color: 'blue' } } } } });
    expect(actions(freed)).toEqual(['rename widget/repo:acme/app/new', 'create widget/repo:acme/app/old']);
    expect(freed.plan.changes[1]!.depends_on).toEqual(['widget/repo:acme/app/new']);
  });

  it('refuses a previously claimed twice, or naming an object while the new name exists too, at the config place', async () => {
    const twice = await plan(world().add(APP, { name: 'old' }), { repos: { 'acme/app': { widgets: { a: { previously: ['old'] }, b: { previously: ['old'] } } } } });
    expect(twice.errors.map(formatDiagnostic)).toEqual([
      'repos.acme/app.widgets.b.previously:1:1: widget "b" in acme/app: previously names "old", which widget "a" also claims: only one object can be renamed from it',
      'repos.acme/app.widgets.a.previously:1:1: widget "a" in acme/app: previously names "old", which widget "b" also claims',
    ]);
    const both = await plan(world().add(APP, { name: 'old' }, { name: 'new' }), { repos: { 'acme/app': { widgets: { new: { previously: ['old'] } } } } });
    expect(both.errors.map(formatDiagnostic)[0]).toMatch(/^repos\.acme\/app\.widgets\.new\.previously:1:1: widget "new" in acme\/app: both "old" \(named in previously\) and "new" exist on the server/);
  });

  it('changes none of several objects of one name, and does not prune them either', async () => {
    const server = world().add(APP, { name: 'dup', color: 'red' }, { name: 'dup', color: 'blue' });
    const result = await plan(server, { policy: { prune: ['widgets'] }, repos: { 'acme/app': { widgets: { dup: { color: 'green' } } } } });
    expect(result.plan.changes).toEqual([]);
    expect(result.plan.warnings).toEqual([]);
    expect(result.plan.drift).toEqual(['widget "dup" in acme/app: 2 objects with this name exist on the server; forgeform changes none of them']);
  });

  it('deletes undeclared objects only when policy.prune lists the kind, only in scopes that declare the kind, and keeps what the kind keeps', async () => {
    const server = world().add(APP, { name: 'declared' }, { name: 'stray' }, { name: 'keep-me' }).add('repos/acme/other/widgets', { name: 'elsewhere' });
    const config = { repos: { 'acme/app': { widgets: { declared: {} } }, 'acme/other': {} } };
    expect(actions(await plan(server, config))).toEqual([]);
    const pruned = await plan(server, { ...config, policy: { prune: ['widgets'] } });
    expect(actions(pruned)).toEqual(['delete widget/repo:acme/app/stray']);
    expect(pruned.plan.changes[0]!.ops).toEqual([{ method: 'DELETE', path: `${APP}/${server.row(APP, 'stray')!.id}` }]);
    expect(pruned.plan.warnings).toEqual(['widget "keep-me" in acme/app is not deleted: its name starts with keep-']);
    // acme/other declares no widgets: it is not even read.
    expect(server.sent.map((s) => s.path)).not.toContain('repos/acme/other/widgets');
  });

  it('sends write-only fields with another edit or with --sync-write-only, and secrets only with --rotate-secrets', async () => {
    const server = world().add(APP, { name: 'w', color: 'red' });
    const cfg = (color: string) => ({ repos: { 'acme/app': { widgets: { w: { color, note: 'hello', secret: 's3cret' } } } } });

    const quiet = await plan(server, cfg('red'));
    expect(quiet.plan.changes).toEqual([]);
    expect(quiet.plan.warnings).toEqual(['1 declared secret of existing objects not compared (the server never returns them): --rotate-secrets sends it']);

    const edit = await plan(server, cfg('blue'));
    expect(edit.plan.changes[0]!.fields.map((f) => f.path)).toEqual(['color', 'note']);

    const sync = await plan(server, cfg('red'), { options: { syncWriteOnly: true } });
    expect(actions(sync)).toEqual(['update widget/repo:acme/app/w']);
    expect(sync.plan.changes[0]!.fields).toEqual([{ path: 'note', after: 'hello', writeOnly: true }]);

    const rotate = await plan(server, cfg('red'), { options: { rotateSecrets: true } });
    const sent = rotate.plan.changes[0]!.fields.find((f) => f.path === 'secret')!;
    expect(sent).toMatchObject({ writeOnly: true, sensitive: true });
    // The plan shows the secret as what it is (a Secret, printed "(sensitive)"), never its value.
    expect(JSON.stringify(rotate.plan)).not.toContain('s3cret');

    const replace = await plan(server, cfg('red'), { kinds: [fakeKind({ replaceToRotate: true })], options: { rotateSecrets: true } });
    expect(actions(replace)).toEqual(['replace widget/repo:acme/app/w']);
    expect(replace.plan.changes[0]!.ops.map((o) => o.method)).toEqual(['DELETE', 'POST']);
  });

  it('withholds the changes of a read-only scope with a warning', async () => {
    const server = new FakeServer().repo('acme/archive', true).add('repos/acme/archive/widgets', { name: 'w', color: 'red' });
    const result = await plan(server, { repos: { 'acme/archive': { widgets: { w: { color: 'blue' }, v: {} } } } });
    expect(result.plan.changes).toEqual([]);
    expect(result.plan.warnings).toEqual(['2 widget change(s) withheld: acme/archive is archived']);
  });

  it('orders changes by scope, kind and action, and a change on an object created in the same plan refers to it by $ref', async () => {
    const kinds = [fakeKind(), fakeKind({ name: 'gadget', refersTo: 'widget' })];
    const server = world().add(APP, { name: 'gone' }, { name: 'x', color: 'red' });
    const result = await plan(
      server,
      { policy: { prune: ['widgets'] }, repos: { 'acme/other': { widgets: { o: {} } }, 'acme/app': { gadgets: { n: {}, x: {} }, widgets: { n: {}, x: { color: 'blue' } } } } },
      { kinds },
    );
    expect(actions(result)).toEqual([
      'create widget/repo:acme/app/n',
      'update widget/repo:acme/app/x',
      'delete widget/repo:acme/app/gone',
      'create gadget/repo:acme/app/n',
      'create gadget/repo:acme/app/x',
      'create widget/repo:acme/other/o',
    ]);
    const gadgetN = result.plan.changes[3]!;
    expect(gadgetN.ops[0]!.body).toEqual({ name: 'n', ref_id: { $ref: 'widget/repo:acme/app/n' } });
    expect(gadgetN.depends_on).toEqual(['widget/repo:acme/app/n']);
    // x exists already: no reference, no dependency.
    expect(result.plan.changes[4]!.depends_on).toEqual([]);
  });

  it('makes a plan unsafe past max_deletes, and past max_delete_fraction of a kind in a scope', async () => {
    const many = world().add(APP, ...Array.from({ length: 12 }, (_, i) => ({ name: `w${i}` })));
    const all = await plan(many, { policy: { prune: ['widgets'] }, repos: { 'acme/app': { widgets: { w0: {} } } } });
    expect(all.plan.changes).toHaveLength(11);
    expect(all.plan.unsafe).toEqual(['11 deletions planned, more than policy.max_deletes (10)', '11 of the 12 widgets in acme/app deleted (92%), more than policy.max_delete_fraction (0.3)']);

    const few = await plan(many, { policy: { prune: ['widgets'], max_deletes: 100 }, repos: { 'acme/app': { widgets: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`w${i}`, {}])) } } });
    expect(few.plan.unsafe).toEqual(['4 of the 12 widgets in acme/app deleted (33%), more than policy.max_delete_fraction (0.3)']);

    const within = await plan(many, { policy: { prune: ['widgets'] }, repos: { 'acme/app': { widgets: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`w${i}`, {}])) } } });
    expect(within.plan.changes).toHaveLength(3);
    expect(within.plan.unsafe).toEqual([]);
  });

  it('plans only the targeted scopes, and of a server-wide kind only the targeted objects (pruning included)', async () => {
    const kinds = [fakeKind(), fakeKind({ name: 'gizmo', scopeType: 'server' })];
    const server = world().add('gizmos', { name: 'alpha', color: 'red' }, { name: 'beta', color: 'red' }, { name: 'stray' });
    const config = { policy: { prune: ['widgets', 'gizmos'] }, gizmos: { alpha: { color: 'blue' }, beta: { color: 'blue' } }, repos: { 'acme/app': { widgets: { w: {} } }, 'acme/other': { widgets: { w: {} } } } };
    // --target repo:acme/other selects that scope, and no object of a server-wide kind.
    const scoped = await plan(server, config, { kinds, selectsScope: (s) => s.name === 'acme/other', options: { selectsObject: () => false } });
    expect(actions(scoped)).toEqual(['create widget/repo:acme/other/w']);

    const picked = await plan(server, config, { kinds, selectsScope: (s) => s.type === 'server', options: { selectsObject: (type, name) => type === 'gizmo' && name === 'beta' } });
    expect(actions(picked)).toEqual(['update gizmo/server:/beta']);
  });

  it('reports problems as diagnostics placed in the config: the kind’s own, its checks’ (with the resource), and unresolvable scopes', async () => {
    const result = await plan(world(), { repos: { 'acme/app': { widgets: { bad: { color: 'invalid' }, refused: { color: 'forbidden' }, fine: {} } }, 'acme/missing': {} } });
    expect(result.errors).toContainEqual(expect.objectContaining({ resource: 'widget "refused" in acme/app', hint: 'choose another colour', file: 'repos.acme/app.widgets.refused.color' }));
    expect(result.errors.map(formatDiagnostic).sort()).toEqual([
      'repos.acme/app.widgets.bad.color:1:1: color "invalid" is not a colour: write a colour name',
      'repos.acme/app.widgets.refused.color:1:1: widget "refused" in acme/app: color "forbidden" is refused by the fake kind: choose another colour',
      'repos.acme/missing:1:1: repository acme/missing does not exist on the server (or the token cannot see it); add create: {} to create it',
    ]);
    // The refused object is withheld; the others are still planned.
    expect(actions(result)).toEqual(['create widget/repo:acme/app/bad', 'create widget/repo:acme/app/fine']);
  });
});
