import { apiPath } from '../../gitea/path.js';
import { normalizeFields, shapeOfFields } from '../fields.js';
import { serverHas, type CurrentObject, type Reading } from '../../model/index.js';
import { features, fields } from './fields.js';
import type { ActionsVariableTypes, ServerActionsVariable } from './types.js';

export { fields } from './fields.js';

/** A scope's variables: repos/{owner}/{repo}/actions/variables or orgs/{org}/actions/variables. */
export function listPath(segments: string[]): string {
  return apiPath(...segments, 'actions', 'variables');
}

/** One variable, by name (GET, POST, PUT, DELETE). */
export function variablePath(segments: string[], name: string): string {
  return apiPath(...segments, 'actions', 'variables', name);
}

/** A variable as answered: its value under `data`, no id (variables are named in every route). */
export const shape = shapeOfFields(fields, { name: 'string', data: 'string?' });

function fromServer(r: ServerActionsVariable): CurrentObject {
  return { key: String(r.name), fields: normalizeFields(fields, { ...r, value: r.data }, false) };
}

/**
 * Reading variables: one list per scope. Where a repository's list answers no values (Gitea 1.22–1.23,
 * Forgejo 8–11), each value the plan needs — of the declared variables, or of all for an export — is read
 * with a GET of its own; the others stay without one (nothing compares them).
 */
export const reading = {
  fields,
  shape,

  async read({ scope, ctx, desired }) {
    const objects = (await ctx.client.list<ServerActionsVariable>(listPath(scope.segments), { object: `Actions variables of ${scope.name}`, shape })).map(fromServer);
    if (scope.type !== 'repo' || !serverHas(ctx.server, features.repoListWithoutValues.availability) || !ctx.server) return objects;
    const wanted = new Set((desired ?? []).map((d) => d.key.toUpperCase()));
    const reads = objects.filter((o) => ctx.options.readEverything === true || wanted.has(o.key.toUpperCase()));
    for (const o of objects) if (!reads.includes(o)) delete o.fields.value;
    await Promise.all(
      reads.map(async (o) => {
        const one = await ctx.client.get<ServerActionsVariable>(variablePath(scope.segments, o.key), { object: `Actions variable ${o.key} of ${scope.name}`, shape });
        o.fields = fromServer(one).fields;
      }),
    );
    return objects;
  },

  fromServer,
} satisfies Reading<ActionsVariableTypes>;
