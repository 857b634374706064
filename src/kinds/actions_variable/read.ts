import { normalizeFields, shapeOfFields } from '../fields.js';
import { actionsPath } from '../actions-values.js';
import { listUnlessUnitOff } from '../actions-unit.js';
import { serverHas, type CurrentObject, type Reading } from '../../model/index.js';
import { features, fields } from './fields.js';
import type { ActionsVariableTypes, ServerActionsVariable } from './types.js';

export { fields } from './fields.js';

/** A variable as answered: its value under `data`, no id (variables are named in every route). */
export const shape = shapeOfFields(fields, { name: 'string', data: 'string?' });

function fromServer(r: ServerActionsVariable): CurrentObject {
  return { key: String(r.name), fields: normalizeFields(fields, { ...r, value: r.data }, false) };
}

/**
 * Reading variables: one list per scope. Where a repository's list answers no values (Gitea 1.22–1.23,
 * Forgejo 8–13), each value is read with a GET of its own — of every listed variable, not only the declared
 * ones: a saved plan's check reads the variables its changes name (a pruned one too) and must find them as
 * the plan did.
 */
export const reading = {
  fields,
  shape,

  async read({ scope, ctx, run }) {
    const list = () => ctx.client.list<ServerActionsVariable>(actionsPath(scope.segments, 'variable'), { object: `Actions variables of ${scope.name}`, shape });
    const objects = (await listUnlessUnitOff(scope, ctx, run, list)).map(fromServer);
    if (scope.type !== 'repo' || !serverHas(ctx.server, features.repoListWithoutValues.availability) || !ctx.server) return objects;
    await Promise.all(
      objects.map(async (o) => {
        const one = await ctx.client.get<ServerActionsVariable>(actionsPath(scope.segments, 'variable', o.key), { object: `Actions variable ${o.key} of ${scope.name}`, shape });
        o.fields = fromServer(one).fields;
      }),
    );
    return objects;
  },

  fromServer,
} satisfies Reading<ActionsVariableTypes>;
