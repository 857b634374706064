import { apiPath } from '../../gitea/path.js';
import { normalizeFields, shapeOfFields } from '../fields.js';
import type { Reading } from '../../model/index.js';
import { fields } from './fields.js';
import type { ServerTagProtection, TagProtectionTypes } from './types.js';

export { fields } from './fields.js';

/** `/repos/{owner}/{repo}/tag_protections`: Gitea 1.23 (#31295), Forgejo 8 (routers/api/v1/api.go). */
export function listPath(segments: string[]): string {
  return apiPath(...segments, 'tag_protections');
}

/** A tag protection as answered (convert.ToTagProtection): its id is what PATCH and DELETE take, its pattern is its name. */
export const shape = shapeOfFields(fields, { id: 'id', name_pattern: 'string' });

function fromServer(r: ServerTagProtection) {
  return { key: String(r.name_pattern), id: Number(r.id), fields: normalizeFields(fields, r, false) };
}

export const reading = {
  fields,
  shape,

  async read({ scope, ctx }) {
    // ListTagProtection answers every protection of the repository at once (GetProtectedTags, no paging).
    const raw = await ctx.client.get<ServerTagProtection[] | undefined>(listPath(scope.segments), { object: `tag protections of ${scope.name}`, expect: 'list', shape });
    return (raw ?? []).map(fromServer);
  },

  fromServer,
} satisfies Reading<TagProtectionTypes>;
