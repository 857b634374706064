import { apiPath } from '../../gitea/path.js';
import { normalizeFields, shapeOfFields } from '../fields.js';
import type { CurrentObject, Reading } from '../../model/index.js';
import { withoutCredentials } from '../hook/read.js';
import { fields } from './fields.js';
import type { ServerPushMirror, PushMirrorTypes } from './types.js';

export { fields } from './fields.js';

/** GET/POST /repos/{o}/{r}/push_mirrors: every release read (Gitea 1.21–1.26, Forgejo 7, 11, 15). */
export function listPath(segments: string[]): string {
  return apiPath(...segments, 'push_mirrors');
}

/** The fields the server answers (the credentials are never answered). */
const answered = fields.filter((f) => !f.writeOnly);

/** A push mirror as answered: its remote name is what the routes take, its address its identity. */
export const shape = shapeOfFields(answered, { remote_name: 'string', remote_address: 'string' });

/**
 * The server's remote address is its identity. Every release stores it without credentials
 * (util.SanitizeURL); a user name or password in one is replaced all the same, since the key is printed,
 * saved in plan files and exported.
 */
function fromServer(r: ServerPushMirror): CurrentObject {
  return { key: withoutCredentials(String(r.remote_address)), id: String(r.remote_name), fields: normalizeFields(answered, r, false) };
}

export const reading = {
  fields,
  shape,

  async read({ scope, ctx }) {
    const raw = await ctx.client.list<ServerPushMirror>(listPath(scope.segments), { object: `push mirrors of ${scope.name}`, shape });
    return raw.map(fromServer);
  },

  fromServer,
} satisfies Reading<PushMirrorTypes>;
