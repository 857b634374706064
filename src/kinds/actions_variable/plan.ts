import { normalizeFields } from '../fields.js';
import { declaredByName } from '../actions-values.js';
import type { Planning } from '../../model/index.js';
import { fields } from './fields.js';
import type { ActionsVariableTypes } from './types.js';

export const planning = {
  async desired({ entry, scope, ctx }) {
    return declaredByName(entry?.variables, 'variable', scope, ctx.server, (v) => normalizeFields(fields, { ...v }, true));
  },
} satisfies Planning<ActionsVariableTypes>;
