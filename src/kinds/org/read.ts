import type { Config } from '../../config/types.js';
import { normalizeFields, shapeOfFields } from '../fields.js';
import { isLockName, lockNameOf, type KindTypes, type Reading } from '../../model/index.js';
import { fields } from './fields.js';

/** The list an organisation is read from, and so the one list its edits rest on (Op.restsOn: not every list under the API's root). */
export const ORG_LIST = 'admin/orgs';

export { fields } from './fields.js';

/** An organisation as answered: `name` (Gitea ≥ 1.?) or `username` names it. */
export const shape = shapeOfFields(fields, { id: 'id', name: 'string?', username: 'string?' });

/** An organisation as the server answers it (its shape checked). */
type ServerOrg = Record<string, unknown> & { id: number; name?: string | null; username?: string | null };

/** What the organisation kind is typed by: the whole config (organisations are server-wide), an organisation as answered, the owners found missing. */
export type OrgTypes = KindTypes<Config, ServerOrg, Set<string>>;

function fromServer(r: ServerOrg) {
  return { key: String(r.name ?? r.username), id: Number(r.id), fields: normalizeFields(fields, r, false) };
}

export const reading = {
  fields,
  shape,

  async read({ ctx }) {
    const raw = await ctx.client.list<ServerOrg>(ORG_LIST, { object: 'organisations', shape });
    // apply's lock (src/lock/lock.ts), by the name policy.apply_lock gives it, is no organisation of the configuration: never planned, exported or pruned.
    const lock = lockNameOf(ctx.policy);
    return raw.map(fromServer).filter((o) => !isLockName(o.key, lock));
  },
  fromServer,
} satisfies Reading<OrgTypes>;
