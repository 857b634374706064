import { withoutUserinfo } from '../url-userinfo.js';
import { isApiError } from '../../gitea/errors.js';
import { apiPath } from '../../gitea/path.js';
import { shapeOfFields } from '../fields.js';
import { splitRepo, type CurrentObject, type Reading } from '../../model/index.js';
import type { RepoTypes, ServerRepo } from './types.js';
import { fields } from './fields.js';
import { durationString } from '../../go-duration.js';

export { fields } from './fields.js';

/** A repository as answered: its id and name, and whether it is a pull mirror, of what and how often. */
export const shape = shapeOfFields(fields, { id: 'id', full_name: 'string', mirror: 'boolean?', mirror_interval: 'string?', original_url: 'string?' });

/**
 * A repository as an object of this kind: a pull mirror carries its interval and its source, never
 * with credentials (ToRepo: mirror_interval is "" on other repositories). The source is printed,
 * saved in plan files and exported.
 */
function repoObject(key: string, r: ServerRepo): CurrentObject {
  return { key, id: Number(r.id), fields: r.mirror === true ? { interval: durationString(r.mirror_interval), from: withoutUserinfo(String(r.original_url ?? '')) } : {} };
}

export const reading = {
  fields,
  shape,

  // One GET per repository to create (or, for export, per repository exported); the scope resolution made the same GETs, and they are shared.
  async read({ ctx, desired }) {
    const found = await Promise.all(
      (desired ?? []).map(async (d): Promise<CurrentObject | undefined> => {
        const [owner, name] = splitRepo(d.key);
        try {
          const r = await ctx.cachedGet<ServerRepo>(apiPath('repos', owner, name), { object: `repository ${d.key}`, shape });
          return repoObject(d.key, r);
        } catch (e) {
          if (isApiError(e, 404)) return undefined;
          throw e;
        }
      }),
    );
    return found.filter((r): r is CurrentObject => r !== undefined);
  },

  fromServer(r: ServerRepo) {
    return repoObject(String(r.full_name), r);
  },
} satisfies Reading<RepoTypes>;
