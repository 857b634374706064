import { serverHas, type Writing } from '../../model/index.js';
import { notAnActionOf } from '../actions.js';
import { actionsPath, DESCRIPTIONS } from '../actions-values.js';
import { unitWriting } from '../actions-unit.js';
import type { ActionsVariableTypes } from './types.js';

/**
 * Writing a variable, by name: POST to create it (409 when the name exists), PUT to change it, DELETE.
 * A PUT sets the value and, where the release has descriptions, the description (what it omits is cleared:
 * Gitea v1.24.7 routers/api/v1/repo/action.go:437 `v.Description = opt.Description`), so it sends both,
 * the server's description where the config writes none. The name is not sent: the path's is kept.
 */
export const writing = {
  ...unitWriting,

  ops({ scope, action, desired, current, ctx }) {
    if (action === 'delete') return [{ method: 'DELETE', path: actionsPath(scope.segments, 'variable', current.key) }];
    const describes = serverHas(ctx.server, DESCRIPTIONS);
    const want = desired.fields;
    if (action === 'create') {
      const body: Record<string, unknown> = { value: want.value };
      if (describes && typeof want.description === 'string' && want.description !== '') body.description = want.description;
      return [{ method: 'POST', path: actionsPath(scope.segments, 'variable', desired.key), body }];
    }
    if (action !== 'update') return notAnActionOf('actions variable', action);
    const body: Record<string, unknown> = { value: 'value' in want ? want.value : current.fields.value };
    if (describes) body.description = 'description' in want ? want.description : (current.fields.description ?? '');
    return [{ method: 'PUT', path: actionsPath(scope.segments, 'variable', current.key), body }];
  },
} satisfies Writing<ActionsVariableTypes>;
