import type { BranchProtectionConfig, RepoConfig } from '../../config/types.js';
import { apiPath } from '../../gitea/path.js';
import { userKind } from '../user/index.js';
import type { Op } from '../../model/index.js';
import { bool, inEither, inForgejo, inGitea, int, normalizeFields, only, set, str } from '../fields.js';
import { accountProblems, lookUpAccounts, rememberDeclaredLists, type KnownAccounts } from './accounts.js';
import type { CurrentObject, DesiredObject, FieldSpec, Kind, KindContext, Problem } from '../../model/index.js';

/** Force-push settings, rule order, admin merge override: Gitea 1.23 (#28086, #32286, #32248), in no Forgejo. */
const GITEA_1_23 = inGitea('1.23');
/**
 * In no release: not in Gitea 1.25.4 nor in Gitea main of 2026-04-06 (modules/structs/repo_branch.go),
 * nor in any Forgejo. Only the sandbox's idealised server (gitea@main, which reports 1.27.0) has them,
 * so "1.27" stands for the first release that may.
 */
const UNRELEASED = inGitea('1.27');

// Every field of Gitea's and Forgejo's EditBranchProtectionOption, with the releases that have it (modules/structs/repo_branch.go of each tag).
// rule_name is the identity and cannot be edited.
const fields: FieldSpec[] = [
  bool('enable_push'), set('push_whitelist_usernames'), set('push_whitelist_teams'), bool('enable_push_whitelist'), bool('push_whitelist_deploy_keys'),
  only(GITEA_1_23, bool('enable_force_push')), only(GITEA_1_23, bool('enable_force_push_allowlist')), only(GITEA_1_23, set('force_push_allowlist_usernames')), only(GITEA_1_23, set('force_push_allowlist_teams')), only(GITEA_1_23, bool('force_push_allowlist_deploy_keys')),
  bool('enable_merge_whitelist'), set('merge_whitelist_usernames'), set('merge_whitelist_teams'),
  bool('enable_status_check'), set('status_check_contexts'),
  int('required_approvals'), bool('enable_approvals_whitelist'), set('approvals_whitelist_username'), set('approvals_whitelist_teams'),
  bool('block_on_rejected_reviews'), bool('block_on_official_review_requests'), bool('block_on_outdated_branch'), only(UNRELEASED, bool('block_on_codeowner_reviews')),
  only(GITEA_1_23, bool('block_admin_merge_override')), bool('dismiss_stale_approvals'),
  // Gitea 1.22 (#28498); every Forgejo (inherited before v7).
  only(inEither(inGitea('1.22'), inForgejo()), bool('ignore_stale_approvals')),
  bool('require_signed_commits'),
  // Forgejo's own (v7.0.0, 79b7089360): the rule binds repository administrators too, for merges and pushes. Gitea has none.
  only(inForgejo(), bool('apply_to_admins')),
  str('protected_file_patterns'), str('unprotected_file_patterns'),
  only(UNRELEASED, bool('enable_bypass_allowlist')), only(UNRELEASED, set('bypass_allowlist_usernames')), only(UNRELEASED, set('bypass_allowlist_teams')),
  only(UNRELEASED, bool('enable_deletion')), only(UNRELEASED, bool('enable_deletion_allowlist')), only(UNRELEASED, set('deletion_allowlist_usernames')), only(UNRELEASED, set('deletion_allowlist_teams')),
  only(GITEA_1_23, int('priority')),
];

/**
 * The server keeps a flag only when its parents are true in the same request body, so any PATCH body
 * that carries a flag of a chain also carries its parents.
 */
const patchGates: Record<string, string[]> = {
  enable_push_whitelist: ['enable_push'],
  push_whitelist_deploy_keys: ['enable_push', 'enable_push_whitelist'],
  enable_force_push_allowlist: ['enable_force_push'],
  force_push_allowlist_deploy_keys: ['enable_force_push', 'enable_force_push_allowlist'],
};

/** On create the force-push chain also hangs on enable_push (whose default is false). */
const createGates: Record<string, string[]> = {
  ...patchGates,
  enable_force_push: ['enable_push'],
  enable_force_push_allowlist: ['enable_push', 'enable_force_push'],
  force_push_allowlist_deploy_keys: ['enable_push', 'enable_force_push', 'enable_force_push_allowlist'],
};

/**
 * Gitea ≤ 1.25 re-reads force_push_allowlist_usernames only when force_push_allowlist_deploy_keys is in
 * the body, and clears the list when the flag comes alone: the two always travel together.
 */
const companions: Record<string, string[]> = {
  force_push_allowlist_usernames: ['force_push_allowlist_deploy_keys'],
  force_push_allowlist_deploy_keys: ['force_push_allowlist_usernames'],
};

const teamFields = fields.filter((f) => f.name.endsWith('_teams')).map((f) => f.name);

export const branchProtectionKind: Kind = {
  name: 'branch_protection',
  uniqueNames: true,
  title: 'branch protection',
  pruneKey: 'branch_protections',
  configKey: 'branch_protections',
  scopeType: 'repo',
  actions: ['create', 'update', 'delete'],
  fields,
  // Users the plan creates count as existing in the allowlists (src/kinds/branch-protection/accounts.ts).
  after: [userKind.name],

  async desired(scopeConfig, scope) {
    const rules = (scopeConfig as RepoConfig | undefined)?.branch_protections;
    if (!rules) return undefined;
    const objects: DesiredObject[] = Object.entries(rules).map(([rule, declared]: [string, BranchProtectionConfig]) => {
      // The rule's settings as data: the field specs say how each is compared and sent.
      const cfg: Record<string, unknown> = { ...declared };
      const d = { key: rule, fields: normalizeFields(fields, cfg, true), path: ['repos', scope.name, 'branch_protections', rule] };
      rememberDeclaredLists(d, cfg);
      return d;
    });
    return { objects, problems: [] };
  },

  // Users and teams named in the lists must exist: Gitea refuses the whole rule (422) otherwise.
  // Checked when the plan is made; apply re-derives requests without the config and does not check again.
  async prepare(scope, desired, _current, ctx) {
    return 'loaded' in ctx ? lookUpAccounts(scope, desired, ctx as KindContext) : undefined;
  },

  async read(scope, { client }) {
    const [owner, repo] = splitRepo(scope.name);
    // One unpaged call returns every rule of the repository.
    const raw = await client.get<unknown[]>(apiPath('repos', owner, repo, 'branch_protections'), {
      object: `branch protections of ${scope.name}`,
    });
    return (raw ?? []).map((r) => this.fromServer(r));
  },

  check(desired, current, scope, _ctx, prepared) {
    const problems: Problem[] = [...accountProblems(desired, prepared as KnownAccounts | undefined, scope)];
    const f = desired.fields;
    for (const [flag, parents] of Object.entries(current ? patchGates : createGates)) {
      if (f[flag] !== true) continue;
      for (const parent of parents) {
        const value = parent in f ? f[parent] : current?.fields[parent];
        if (value !== true)
          problems.push({ path: [...desired.path, flag], message: `${flag}: true has no effect unless ${parent} is true (Gitea drops it${value === undefined ? '; its default is false' : ''}): set ${parent}: true` });
      }
    }
    if (scope.repo && !scope.repo.ownerIsOrg) {
      for (const t of teamFields) {
        if (Array.isArray(f[t]) && (f[t] as unknown[]).length > 0)
          problems.push({ path: [...desired.path, t], message: `${t}: ${scope.name} is owned by a user, and Gitea ignores team lists there` });
      }
    }
    return problems;
  },

  readOnlyReason(scope) {
    return scope.repo?.archived ? `${scope.name} is archived: Gitea refuses branch-protection writes (423)` : undefined;
  },

  ops({ scope, action, desired, current, changed }) {
    const [owner, repo] = splitRepo(scope.name);
    const base = apiPath('repos', owner, repo, 'branch_protections');
    if (action === 'delete') return [{ method: 'DELETE', path: `${base}/${encodeURIComponent(current.key)}` }];
    const want = desired.fields;
    if (action === 'create') {
      return [{ method: 'POST', path: base, body: { rule_name: desired.key, ...want } }];
    }
    const body: Record<string, unknown> = {};
    const add = (name: string) => {
      if (name in body) return;
      body[name] = name in want ? want[name] : current.fields[name];
    };
    for (const name of changed) add(name);
    for (const name of Object.keys(body)) for (const c of companions[name] ?? []) add(c);
    for (const name of Object.keys(body)) for (const g of patchGates[name] ?? []) add(g);
    const op: Op = { method: 'PATCH', path: `${base}/${encodeURIComponent(desired.key)}`, body };
    return [op];
  },

  fromServer(raw) {
    const r = raw as Record<string, unknown>;
    return { key: String(r.rule_name ?? r.branch_name), fields: normalizeFields(fields, r, false) };
  },

  toConfig(current: CurrentObject) {
    const out: Record<string, unknown> = {};
    for (const spec of fields) {
      const v = current.fields[spec.name];
      if (spec.name === 'priority') continue; // auto-assigned by the server; exporting it would pin the order
      if (Array.isArray(v) ? v.length > 0 : v !== false && v !== 0 && v !== '') out[spec.name] = v;
    }
    // enable_push false is the server default but the most important fact of a rule: always state it.
    out.enable_push = current.fields.enable_push;
    return out;
  },
};

export function splitRepo(name: string): [string, string] {
  const i = name.indexOf('/');
  return [name.slice(0, i), name.slice(i + 1)];
}
