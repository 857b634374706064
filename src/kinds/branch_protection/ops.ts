import { apiPath } from '../../gitea/path.js';
import type { Op, Writing } from '../../model/index.js';
import { waitForGrants } from './accounts.js';
import type { BranchProtectionTypes } from './types.js';

/**
 * The server keeps a flag only when its parents are true in the same request body, so any PATCH body
 * that carries a flag of a chain also carries its parents.
 */
export const patchGates: Record<string, string[]> = {
  enable_push_whitelist: ['enable_push'],
  push_whitelist_deploy_keys: ['enable_push', 'enable_push_whitelist'],
  enable_force_push_allowlist: ['enable_force_push'],
  force_push_allowlist_deploy_keys: ['enable_force_push', 'enable_force_push_allowlist'],
};

/**
 * Gitea ≤ 1.25 re-reads force_push_allowlist_usernames only when force_push_allowlist_deploy_keys is in
 * the body, and clears the list when the flag comes alone: the two always travel together.
 */
const companions: Record<string, string[]> = {
  force_push_allowlist_usernames: ['force_push_allowlist_deploy_keys'],
  force_push_allowlist_deploy_keys: ['force_push_allowlist_usernames'],
};

export const writing = {
  ops({ scope, action, desired, current, changed }) {
    const base = apiPath(...scope.segments, 'branch_protections');
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

  /** A user or team the rule names whom this plan gives access to the repository (a collaborator's PUT, a team's member or repository added): the rule is written after, or Gitea would drop the name. */
  dependsOn: waitForGrants,
} satisfies Writing<BranchProtectionTypes>;
