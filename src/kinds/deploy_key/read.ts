import { apiPath } from '../../gitea/path.js';
import { normalizeFields, shapeOfFields } from '../fields.js';
import type { CurrentObject, Reading } from '../../model/index.js';
import { fields } from './fields.js';
import { keyIdentity } from './ssh-key.js';
import type { ServerDeployKey, DeployKeyTypes } from './types.js';

export { fields } from './fields.js';

/**
 * GET/POST /repos/{o}/{r}/keys, GET/DELETE …/keys/{id}: every release (routers/api/v1/api.go Gitea v1.21.11
 * l.1120-1125, v1.25.4 l.1306-1311, 1.26 main l.1273-1278, Forgejo v15.0.3 l.1248-1253), for repository admins
 * (reqToken, reqAdmin).
 */
export function listPath(segments: string[]): string {
  return apiPath(...segments, 'keys');
}

/** A deploy key as answered: its id is what the routes take, its title its identity (unique in a repository). */
export const shape = shapeOfFields(fields, { id: 'id', title: 'string' });

/**
 * The key as the server stores it (the text it was first added with, comment included) and read_only, which
 * every answer has (convert.ToDeployKey, services/convert/convert.go Gitea v1.25.4 l.632, Forgejo v15.0.3 l.331).
 */
function fromServer(r: ServerDeployKey): CurrentObject {
  return { key: String(r.title), id: Number(r.id), fields: normalizeFields(fields, r, false) };
}

export const reading = {
  fields,
  shape,

  async read({ scope, ctx }) {
    const raw = await ctx.client.list<ServerDeployKey>(listPath(scope.segments), { object: `deploy keys of ${scope.name}`, shape });
    return raw.map(fromServer);
  },

  fromServer,

  /** Two texts of one key material are one key: the comment (and spacing the server drops) never makes a change. */
  compare(field) {
    return field === 'key' ? (want, have) => keyIdentity(want) === keyIdentity(have) : undefined;
  },
} satisfies Reading<DeployKeyTypes>;
