import { normalizeFields, shapeOfFields } from '../fields.js';
import { actionsPath } from '../actions-values.js';
import { listUnlessUnitOff } from '../actions-unit.js';
import type { CurrentObject, Reading } from '../../model/index.js';
import { fields } from './fields.js';
import type { ActionsSecretTypes, ServerActionsSecret } from './types.js';

export { fields } from './fields.js';

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

  async read({ scope, ctx, run }) {
    const list = () => ctx.client.list<ServerActionsSecret>(actionsPath(scope.segments, 'secret'), { object: `Actions secrets of ${scope.name}`, shape });
    return (await listUnlessUnitOff(scope, ctx, run, list)).map(fromServer);
  },

  fromServer,
} satisfies Reading<ActionsSecretTypes>;
