import { bool, normalizeFields, shapeOfFields, text } from '../fields.js';
import type { FieldSpec, KindReading, Scope, ScopeContext } from '../../model/index.js';

/** Gitea stores #rrggbb and answers rrggbb: compare lower-case, without '#', 3 digits expanded. */
export function normalizeColor(value: unknown): string {
  let c = String(value ?? '').trim().toLowerCase().replace(/^#/, '');
  if (/^[0-9a-f]{3}$/.test(c)) c = c.replace(/./g, (d) => d + d);
  return c;
}

export const fields: FieldSpec[] = [
  { name: 'color', type: 'scalar', answer: 'string', normalize: normalizeColor },
  text('description'),
  bool('exclusive'),
  bool('is_archived'),
];

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
