// The team kind's rules that no end-to-end run can reach alone (issue 21): the Owners team's guards
// failing closed when prepare learnt nothing, the requests of an update (one per element, additions
// first, permission sent with includes_all_repositories), and the units compared as the server stores them.
import { describe, expect, it } from 'vitest';
import { guardOf, opsInput } from '../support/ops-input.js';
import type { GiteaClient } from '../../src/gitea/client.js';
import { teamKind } from '../../src/kinds/team/index.js';
import { comparableUnits, declaredUnits } from '../../src/kinds/team/units.js';
import { requestOf, type Change, type CurrentObject, type PlanPolicy, type Scope } from '../../src/model/index.js';
import { makeScopeContext } from '../../src/plan/planner.js';

const policy: PlanPolicy = { prune: ['teams'], max_deletes: 10, max_delete_fraction: 1 } as PlanPolicy;
const ORG: Scope = { type: 'org', name: 'acme' };

function client(self = 'root'): GiteaClient & { asked: string[] } {
  const asked: string[] = [];
  const fake = { asked, list: async (path: string) => (asked.push(path), []), get: async (path: string) => (asked.push(path), path === 'user' ? { login: self } : undefined) };
  return fake as unknown as GiteaClient & { asked: string[] };
}

const owners: CurrentObject = { key: 'Owners', id: 1, fields: { permission: 'owner', members: ['olga', 'root'] } };
const change = (action: Change['action'], fields: Change['fields'], key = 'Owners'): Change => ({ id: `team/org:acme/${key}`, kind: 'team', scope: 'org:acme', key, action, fields, precondition: { digest: 'x' }, depends_on: [], ops: [] });

describe('the Owners team guards', () => {
  it('refuse its delete and rename whatever was learnt', () => {
    const ctx = makeScopeContext(client(), policy);
    expect(guardOf(teamKind, change('delete', []), owners, ctx, [])).toMatch(/never deleted/);
    expect(guardOf(teamKind, { ...change('rename', [{ path: 'name', before: 'Owners', after: 'Bosses' }], 'Bosses'), from: 'Owners' }, owners, ctx, [])).toMatch(/never renamed/);
  });

  it('refuse to remove a member when the token’s own user is not known (fail closed), and refuse emptying it', () => {
    const ctx = makeScopeContext(client(), policy);
    const removeOlga = change('update', [{ path: 'members', before: ['olga', 'root'], after: ['root'], elements: true }]);
    expect(guardOf(teamKind, removeOlga, owners, ctx, [])).toMatch(/token's own user is not known/);
    expect(guardOf(teamKind, change('update', [{ path: 'members', before: ['olga', 'root'], after: [], elements: true }]), owners, ctx, [])).toMatch(/last member is never removed/);
  });

  it('judge the token’s own user from what prepare asked, only when a member of Owners would go', async () => {
    const c = client('root');
    const ctx = makeScopeContext(c, policy);
    await teamKind.prepare!({ ...requestOf(teamKind, ORG, ctx), desired: [{ key: 'Owners', fields: { members: ['root'] }, path: [] }], current: [owners] });
    expect(c.asked).toEqual(['user']);
    expect(guardOf(teamKind, change('update', [{ path: 'members', before: ['olga', 'root'], after: ['root'], elements: true }]), owners, ctx, [])).toBeUndefined();
    expect(guardOf(teamKind, change('update', [{ path: 'members', before: ['olga', 'root'], after: ['olga'], elements: true }]), owners, ctx, [])).toMatch(/token's own user is never removed/);
    // Nothing to remove: no need to ask who the token is.
    const quiet = client();
    await teamKind.prepare!({ ...requestOf(teamKind, ORG, makeScopeContext(quiet, policy)), desired: [{ key: 'Owners', fields: { members: ['olga', 'root', 'zoe'] }, path: [] }], current: [owners] });
    expect(quiet.asked).toEqual([]);
  });
});

describe('the requests of a team change', () => {
  const ctx = makeScopeContext(client(), policy);
  const devs: CurrentObject = { key: 'devs', id: 7, fields: { permission: 'none', members: ['alice', 'carol'], repositories: ['widgets'], includes_all_repositories: false } };

  it('one PUT per member or repository added, one DELETE per one removed, additions first, nothing for the rest', () => {
    const ops = teamKind.ops(opsInput(teamKind, { scope: ORG, ctx, action: 'update', changed: ['members', 'repositories'], desired: { key: 'devs', fields: { members: ['alice', 'bob'], repositories: ['gadgets', 'widgets'] }, path: [] }, current: devs }));
    expect(ops.map((o) => `${o.method} ${o.path}`)).toEqual(['PUT teams/7/members/bob', 'DELETE teams/7/members/carol', 'PUT teams/7/repos/acme/gadgets']);
  });

  it('sends the permission with includes_all_repositories, which an edit without one ignores', () => {
    const ops = teamKind.ops(opsInput(teamKind, { scope: ORG, ctx, action: 'update', changed: ['includes_all_repositories'], desired: { key: 'devs', fields: { includes_all_repositories: true }, path: [] }, current: devs }));
    expect(ops).toEqual([{ method: 'PATCH', path: 'teams/7', body: { includes_all_repositories: true, permission: 'none' }, restsOn: 'orgs/acme/teams' }]);
  });
});

describe('units as compared', () => {
  it('leave out units at none, lower-case keys, and fold units into units_map at the permission', () => {
    expect(comparableUnits({ 'repo.Code': 'WRITE', 'repo.wiki': 'none' })).toEqual({ 'repo.code': 'write' });
    expect(declaredUnits('write', ['repo.code', 'repo.pulls'], { 'repo.pulls': 'read' })).toEqual({ 'repo.code': 'write', 'repo.pulls': 'read' });
    expect(declaredUnits('read', undefined, undefined)).toBeUndefined();
  });

  it('compare a team below admin as below admin, whatever its permission reads back (none on Gitea 1.24+)', () => {
    const same = teamKind.compare!('permission', { desired: { key: 'devs', fields: {}, path: [] }, current: undefined, prepared: undefined });
    expect(same!('write', 'none')).toBe(true);
    expect(same!('write', 'read')).toBe(true);
    expect(same!('admin', 'none')).toBe(false);
  });
});
