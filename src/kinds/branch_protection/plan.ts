import type { BranchProtectionConfig, RepoConfig } from '../../config/types.js';
import { normalizeFields } from '../fields.js';
import { accountProblems, lookUpAccounts, rememberDeclaredLists, type KnownAccounts } from './accounts.js';
import type { DesiredObject, Kind, KindContext, Problem } from '../../model/index.js';
import { patchGates } from './ops.js';
import { fields } from './read.js';

/** On create the force-push chain also hangs on enable_push (whose default is false). */
const createGates: Record<string, string[]> = {
  ...patchGates,
  enable_force_push: ['enable_push'],
  enable_force_push_allowlist: ['enable_push', 'enable_force_push'],
  force_push_allowlist_deploy_keys: ['enable_push', 'enable_force_push', 'enable_force_push_allowlist'],
};

const teamFields = fields.filter((f) => f.name.endsWith('_teams')).map((f) => f.name);

export const planning = {
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
  async prepare(scope, desired, current, ctx) {
    return 'loaded' in ctx ? lookUpAccounts(scope, desired, current, ctx as KindContext) : undefined;
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
} satisfies Partial<Kind>;
