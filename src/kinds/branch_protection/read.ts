import { apiPath } from '../../gitea/path.js';
import { normalizeFields, shapeOfFields } from '../fields.js';
import { splitRepo, type KindReading } from '../../model/index.js';
import { fields } from './fields.js';

export { fields } from './fields.js';

/** A rule as answered: `rule_name` (or `branch_name` before it) names it. */
export const shape = shapeOfFields(fields, { rule_name: 'string?', branch_name: 'string?' });

export const reading = {
  fields,
  shape,

  async read(scope, { client }) {
    const [owner, repo] = splitRepo(scope.name);
    // One unpaged call returns every rule of the repository.
    const raw = await client.get<unknown[]>(apiPath('repos', owner, repo, 'branch_protections'), {
      object: `branch protections of ${scope.name}`,
      expect: 'list',
      shape,
    });
    return (raw ?? []).map((r) => this.fromServer(r));
  },

  fromServer(raw) {
    const r = raw as Record<string, unknown>;
    return { key: String(r.rule_name ?? r.branch_name), fields: normalizeFields(fields, r, false) };
  },
} satisfies KindReading;
