import { describe, expect, it } from 'vitest';
import { opsInput } from '../support/ops-input.js';
import { branchProtectionKind } from '../../src/kinds/branch_protection/index.js';
import { normalizeColor, orgLabelKind, repoLabelKind } from '../../src/kinds/label/index.js';
import { diffFields } from '../../src/plan/diff.js';
import type { Scope } from '../../src/kinds/types.js';
import { makeKindContext } from '../../src/plan/planner.js';
import type { LoadedConfig } from '../../src/config/types.js';
import type { GiteaClient } from '../../src/gitea/client.js';
import { planRequest } from '../../src/model/index.js';

const ctx = makeKindContext({} as GiteaClient, {} as LoadedConfig);

const repo: Scope = { type: 'repo', name: 'acme/widgets', repo: { owner: 'acme', name: 'widgets', ownerIsOrg: true, archived: false } };
const userRepo: Scope = { type: 'repo', name: 'alice/dots', repo: { owner: 'alice', name: 'dots', ownerIsOrg: false, archived: false } };

describe('label colours', () => {
  it('compare after the server normalisation', () => {
    expect(normalizeColor('#ABC')).toBe('aabbcc');
    expect(normalizeColor(' EE0701 ')).toBe('ee0701');
    expect(normalizeColor('#ee0701')).toBe('ee0701');
    const d = repoLabelKind.fromServer({ id: 1, name: 'bug', color: 'aabbcc', description: '', exclusive: false, is_archived: false });
    expect(diffFields(repoLabelKind.fields, { color: '#ABC' }, d.fields)).toEqual([]);
    expect(diffFields(repoLabelKind.fields, { color: '#ABD' }, d.fields)).toEqual([{ path: 'color', before: 'aabbcc', after: '#ABD' }]);
  });
});

describe('label operations', () => {
  const current = repoLabelKind.fromServer({ id: 7, name: 'defect', color: 'ee0701', description: 'x', exclusive: false, is_archived: true });
  it('rename is one PATCH by id that keeps is_archived', () => {
    const ops = repoLabelKind.ops(opsInput(repoLabelKind, { scope: repo, action: 'rename', desired: { key: 'bug', fields: { color: 'ee0701' }, path: [] }, current, changed: [], ctx }));
    expect(ops).toEqual([{ method: 'PATCH', path: 'repos/acme/widgets/labels/7', body: { name: 'bug', is_archived: true } }]);
  });
  it('an org label created archived needs a second request', () => {
    const ops = orgLabelKind.ops(opsInput(orgLabelKind, { scope: { type: 'org', name: 'acme' }, action: 'create', desired: { key: 'old', fields: { color: 'aaaaaa', is_archived: true }, path: [] }, changed: [], ctx }));
    expect(ops.map((o) => o.method)).toEqual(['POST', 'PATCH']);
  });
  it('delete addresses the label by id', () => {
    expect(repoLabelKind.ops(opsInput(repoLabelKind, { scope: repo, action: 'delete', current, changed: [], ctx }))).toEqual([{ method: 'DELETE', path: 'repos/acme/widgets/labels/7' }]);
  });
});

describe('branch protections', () => {
  const current = branchProtectionKind.fromServer({
    rule_name: 'release/*', branch_name: '', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['alice'],
    status_check_contexts: null, required_approvals: 1, force_push_allowlist_usernames: [], force_push_allowlist_deploy_keys: false,
  });
  it('treat a null status-check list as empty and compare user lists as sets', () => {
    expect(diffFields(branchProtectionKind.fields, { status_check_contexts: [], push_whitelist_usernames: ['alice'] }, current.fields)).toEqual([]);
    const both = branchProtectionKind.fromServer({ rule_name: 'x', push_whitelist_usernames: ['bob', 'alice'] });
    expect(diffFields(branchProtectionKind.fields, { push_whitelist_usernames: ['alice', 'bob'] }, both.fields)).toEqual([]);
  });
  it('a PATCH of a gated flag carries its parents, and encodes the rule name as one segment', () => {
    const ops = branchProtectionKind.ops(opsInput(branchProtectionKind, {
      scope: repo, action: 'update', current, changed: ['push_whitelist_deploy_keys'], ctx,
      desired: { key: 'release/*', fields: { push_whitelist_deploy_keys: true }, path: [] },
    }));
    expect(ops).toEqual([{ method: 'PATCH', path: 'repos/acme/widgets/branch_protections/release%2F*', body: { push_whitelist_deploy_keys: true, enable_push: true, enable_push_whitelist: true } }]);
  });
  it('force-push user lists travel with the deploy-keys flag', () => {
    const ops = branchProtectionKind.ops(opsInput(branchProtectionKind, {
      scope: repo, action: 'update', current, changed: ['force_push_allowlist_usernames'], ctx,
      desired: { key: 'release/*', fields: { force_push_allowlist_usernames: ['bob'] }, path: [] },
    }));
    expect(ops[0]!.body).toEqual({ force_push_allowlist_usernames: ['bob'], force_push_allowlist_deploy_keys: false, enable_force_push: false, enable_force_push_allowlist: false });
  });
  it('reports flags Gitea would drop and teams on user repositories', () => {
    const d = { key: 'main', fields: { enable_push_whitelist: true, push_whitelist_teams: ['devs'] }, path: ['repos', 'alice/dots', 'branch_protections', 'main'] };
    const problems = branchProtectionKind.check!({ ...planRequest(branchProtectionKind, userRepo, ctx), desired: d, current: undefined, prepared: { users: new Map() } }).map((p) => p.message);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/enable_push_whitelist: true has no effect unless enable_push is true/);
    expect(problems[1]).toMatch(/owned by a user/);
  });
});
