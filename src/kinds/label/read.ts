import { normalizeFields, shapeOfFields } from '../fields.js';
import type { KindReading, Scope, ScopeContext } from '../../model/index.js';
import { fields } from './fields.js';

export { fields, normalizeColor } from './fields.js';

/** A label as answered (modules/structs/issue_label.go): its id is what issues are given. */
export const shape = shapeOfFields(fields, { id: 'id', name: 'string' });

/** Reading a label, from the list of its scope (repository or organisation). */
export function labelReading(listPath: (scope: Scope) => string) {
  return {
    fields,
    shape,

    async read(scope, ctx: ScopeContext) {
      const raw = await ctx.client.list<unknown>(listPath(scope), { object: `labels of ${scope.name}`, shape });
      return raw.map((r) => this.fromServer(r));
    },

    fromServer(raw) {
      const r = raw as Record<string, unknown>;
      return { key: String(r.name), id: Number(r.id), fields: normalizeFields(fields, r, false) };
    },
  } satisfies KindReading;
}
