import type { BranchProtectionConfig } from '../../config/types.js';
import { asSet, declaredEntries, normalizeFields } from '../fields.js';
import { accountProblems, lookUpAccounts } from './accounts.js';
import type { DesiredObject, Planning, Problem, Safety, Writing } from '../../model/index.js';
import { patchGates } from './ops.js';
import { fields } from './read.js';
import type { BranchProtectionTypes } from './types.js';

/** On create the force-push chain also hangs on enable_push (whose default is false). */
const createGates: Record<string, string[]> = {
  ...patchGates,
  enable_force_push: ['enable_push'],
  enable_force_push_allowlist: ['enable_push', 'enable_force_push'],
  force_push_allowlist_deploy_keys: ['enable_push', 'enable_force_push', 'enable_force_push_allowlist'],
};

const teamFields = fields.filter((f) => f.name.endsWith('_teams')).map((f) => f.name);

export const planning = {
  async desired({ entry, scope, run }) {
    const rules = entry?.branch_protections;
    if (!rules) return undefined;
    const objects: DesiredObject[] = declaredEntries(rules).map(([rule, declared]: [string, BranchProtectionConfig]) => {
      // The rule's settings as data: the field specs say how each is compared and sent.
      const cfg: Record<string, unknown> = { ...declared };
      const d = { key: rule, fields: normalizeFields(fields, cfg, true), path: ['repos', scope.name, 'branch_protections', rule] };
      run.declared.set(d, cfg);
      return d;
    });
    return { objects, problems: [] };
  },

  check({ desired, current, scope, prepared, run }) {
    const problems: Problem[] = [...accountProblems(desired, prepared, scope, run.declared.get(desired))];
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
        if (asSet(f[t]).length > 0) problems.push({ path: [...desired.path, t], message: `${t}: ${scope.name} is owned by a user, and Gitea ignores team lists there` });
      }
    }
    return problems;
  },
} satisfies Planning<BranchProtectionTypes>;

export const preparing = {
  // Users and teams named in the lists must exist: Gitea refuses the whole rule (422) otherwise. Looked
  // up when the plan is made (check) and again when a saved plan is applied (guard), on what its changes show.
  prepare: lookUpAccounts,
} satisfies Pick<Writing<BranchProtectionTypes>, 'prepare'>;

export const safety = {
  readOnlyReason(scope) {
    return scope.repo?.archived ? `${scope.name} is archived: Gitea refuses branch-protection writes (423)` : undefined;
  },

  /**
   * At apply, the accounts a rule names as they are now: one gone (or renamed, or without write access)
   * since the plan refuses the saved plan, as Gitea would refuse the rule. At plan time check has left
   * such a rule out already. Fails closed: a change whose accounts were not looked up is refused.
   */
  guard({ change, intent, scope, run }) {
    if (change.action === 'delete') return undefined;
    const known = run.accounts.get(scope.name);
    if (!known) return 'the users and teams it names were not looked up on the server, so forgeform cannot tell that Gitea would take the rule';
    const problems = accountProblems({ key: change.key, fields: intent.fields, path: [] }, known, scope);
    return problems.length ? problems.map((p) => p.message).join('; ') : undefined;
  },
} satisfies Safety<BranchProtectionTypes>;
