import { isApiError } from '../../gitea/errors.js';
import { apiPath } from '../../gitea/path.js';
import { shapeOfFields } from '../fields.js';
import { splitRepo, type CurrentObject, type Reading } from '../../model/index.js';
import type { RepoTypes, ServerRepo } from './types.js';
import { fields } from './fields.js';

export { fields } from './fields.js';

/** A repository as answered: only its id and name are used. */
export const shape = shapeOfFields(fields, { id: 'id', full_name: 'string' });

export const reading = {
  fields,
  shape,

  // One GET per repository to create; the scope resolution made the same GETs, and they are shared.
  async read({ ctx, desired }) {
    const found = await Promise.all(
      (desired ?? []).map(async (d): Promise<CurrentObject | undefined> => {
        const [owner, name] = splitRepo(d.key);
        try {
          const r = await ctx.cachedGet<{ id: number }>(apiPath('repos', owner, name), { object: `repository ${d.key}`, shape });
          return { key: d.key, id: r.id, fields: {} };
        } catch (e) {
          if (isApiError(e, 404)) return undefined;
          throw e;
        }
      }),
    );
    return found.filter((r): r is CurrentObject => r !== undefined);
  },

  fromServer(r: ServerRepo) {
    return { key: String(r.full_name), id: Number(r.id), fields: {} };
  },
} satisfies Reading<RepoTypes>;
