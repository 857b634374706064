import { apiPath } from '../../gitea/path.js';
import { normalizeFields, shapeOfFields } from '../fields.js';
import type { CurrentObject, Reading } from '../../model/index.js';
import { fields } from './fields.js';
import type { ActionsSecretTypes, ServerActionsSecret } from './types.js';

export { fields } from './fields.js';

/** A scope's secrets: repos/{owner}/{repo}/actions/secrets or orgs/{org}/actions/secrets. */
export function listPath(segments: string[]): string {
  return apiPath(...segments, 'actions', 'secrets');
}

/** One secret, by name (PUT, DELETE). */
export function secretPath(segments: string[], name: string): string {
  return apiPath(...segments, 'actions', 'secrets', name);
}

/** A secret as listed: its name (and description); no id, no value. */
export const shape = shapeOfFields(fields, { name: 'string' });

/** The fields a list answers: never the value. */
const answered = fields.filter((f) => !f.writeOnly);

function fromServer(r: ServerActionsSecret): CurrentObject {
  return { key: String(r.name), fields: normalizeFields(answered, r, false) };
}

/** Reading secrets: one list per scope (names and descriptions only: the server never gives a value back). */
export const reading = {
  fields,
  shape,

  async read({ scope, ctx }) {
    return (await ctx.client.list<ServerActionsSecret>(listPath(scope.segments), { object: `Actions secrets of ${scope.name}`, shape })).map(fromServer);
  },

  fromServer,
} satisfies Reading<ActionsSecretTypes>;
