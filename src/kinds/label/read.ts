import { apiPath } from '../../gitea/path.js';
import { normalizeFields, shapeOfFields } from '../fields.js';
import type { Reading } from '../../model/index.js';
import type { LabelTypes, ServerLabel } from './types.js';
import { fields } from './fields.js';

export { fields, normalizeColor } from './fields.js';

/** A label as answered (modules/structs/issue_label.go): its id is what issues are given. */
export const shape = shapeOfFields(fields, { id: 'id', name: 'string' });


function fromServer(r: ServerLabel) {
  return { key: String(r.name), id: Number(r.id), fields: normalizeFields(fields, r, false) };
}

/** Reading labels, from the list of their scope (repository or organisation). */
export const reading = {
  fields,
  shape,

  async read({ scope, ctx }) {
    const raw = await ctx.client.list<ServerLabel>(listPath(scope.segments), { object: `labels of ${scope.name}`, shape });
    return raw.map(fromServer);
  },

  fromServer,
} satisfies Reading<LabelTypes>;

/** The labels of a scope: repos/{owner}/{repo}/labels or orgs/{org}/labels. */
export function listPath(segments: string[]): string {
  return apiPath(...segments, 'labels');
}
