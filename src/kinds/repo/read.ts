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
 * A URL without its user name and password (`https://user:secret@host/x.git` → `https://host/x.git`),
 * where Go's url.Parse finds them: before the last "@" of the authority, the part after "://" up to the
 * first "/", "?" or "#" (from the start where there is no "://": an scp-like `user@host:path`). Every
 * release answers original_url through util.SanitizeURL already (src/sandbox/NOTES.md, pull mirrors);
 * this holds whatever answers, with junk before its scheme too.
 */
export function withoutUserinfo(url: string): string {
  const sep = url.indexOf('://');
  const start = sep < 0 ? 0 : sep + 3;
  const rest = url.slice(start);
  const end = rest.search(/[/?#]/);
  const at = (end < 0 ? rest : rest.slice(0, end)).lastIndexOf('@');
  return at < 0 ? url : url.slice(0, start) + rest.slice(at + 1);
}

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
