import { apiPath } from '../../gitea/path.js';
import { normalizeFields, shapeOfFields } from '../fields.js';
import type { Reading } from '../../model/index.js';
import type { BranchProtectionTypes, ServerRule } from './types.js';
import { fields } from './fields.js';

export { fields } from './fields.js';

/** A rule as answered: `rule_name` (or `branch_name` before it) names it. */
export const shape = shapeOfFields(fields, { rule_name: 'string?', branch_name: 'string?' });


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
