import { normalizeFields } from '../fields.js';
import type { DesiredObject, Planning, Problem } from '../../model/index.js';
import { fields } from './fields.js';
import { refusedName } from './names.js';
import type { ActionsVariableTypes } from './types.js';

/** The config section of a scope type's entries. */
const SECTION = { repo: 'repos', org: 'orgs', server: '' } as const;

export const planning = {
  async desired({ entry, scope, ctx }) {
    const declared = entry?.variables;
    if (!declared) return undefined;
    const objects: DesiredObject[] = [];
    const problems: Problem[] = [];
    for (const [name, v] of Object.entries(declared)) {
      const path = [SECTION[scope.type], scope.name, 'variables', name];
      const refused = refusedName(name, 'variable', ctx.server);
      if (refused) problems.push({ path, message: refused });
      objects.push({ key: name, fields: normalizeFields(fields, { ...v }, true), path });
    }
    return { objects, problems };
  },
} satisfies Planning<ActionsVariableTypes>;
