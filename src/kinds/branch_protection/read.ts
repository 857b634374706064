import { apiPath } from '../../gitea/path.js';
import { normalizeFields, shapeOfFields } from '../fields.js';
import type { KindTypes, Reading } from '../../model/index.js';
import type { RepoConfig } from '../../config/types.js';
import type { BranchProtectionRun, KnownAccounts } from './accounts.js';
import { fields } from './fields.js';

export { fields } from './fields.js';

/** A rule as answered: `rule_name` (or `branch_name` before it) names it. */
export const shape = shapeOfFields(fields, { rule_name: 'string?', branch_name: 'string?' });

/** A rule as the server answers it (its shape checked): the fields by their names. */
type ServerRule = Record<string, unknown> & { rule_name?: string | null; branch_name?: string | null };

/** What the branch protection kind is typed by: a repository's config, the rule as answered, the accounts looked up, its state per run. */
export type BranchProtectionTypes = KindTypes<RepoConfig, ServerRule, KnownAccounts, BranchProtectionRun>;

function fromServer(r: ServerRule) {
  return { key: String(r.rule_name ?? r.branch_name), fields: normalizeFields(fields, r, false) };
}

export const reading = {
  fields,
  shape,

  async read({ scope, ctx }) {
    // One unpaged call returns every rule of the repository.
    const raw = await ctx.client.get<ServerRule[] | undefined>(apiPath(...scope.segments, 'branch_protections'), {
      object: `branch protections of ${scope.name}`,
      expect: 'list',
      shape,
    });
    return (raw ?? []).map(fromServer);
  },

  fromServer,
} satisfies Reading<BranchProtectionTypes>;
