import { normalizeFields } from '../fields.js';
import { declaredByName } from '../actions-values.js';
import { unitOffNotice, unitOffOf, unitOffProblem, unitTurnedOffProblem } from '../actions-unit.js';
import type { Planning } from '../../model/index.js';
import { fields } from './fields.js';
import type { ActionsVariableTypes } from './types.js';

export const planning = {
  async desired({ entry, scope, ctx }) {
    return declaredByName(entry?.variables, 'variable', scope, ctx.server, (v) => normalizeFields(fields, { ...v }, true));
  },

  /** A repository whose Actions unit is off and stays off or turns off in this plan (src/kinds/actions-unit.ts): its variables cannot be written. */
  check({ desired, scope, ctx, prepared }) {
    return [...unitOffProblem('variable', desired.path, scope, ctx, prepared), ...unitTurnedOffProblem('variable', desired.path, scope, ctx)];
  },

  notices({ desired, scope, ctx, run }) {
    return desired.length ? [] : unitOffNotice('variable', scope, unitOffOf(scope, ctx, run));
  },
} satisfies Planning<ActionsVariableTypes>;
