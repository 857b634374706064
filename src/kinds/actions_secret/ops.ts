import { serverHas, type Writing } from '../../model/index.js';
import { notAnActionOf } from '../actions.js';
import { actionsPath, DESCRIPTIONS } from '../actions-values.js';
import { unitWriting } from '../actions-unit.js';
import type { ActionsSecretTypes } from './types.js';

/**
 * Writing a secret, by name: one PUT creates or replaces it (201 or 204: routers/api/v1/repo/action.go
 * CreateOrUpdateSecret), with its value (`data`, required) and, where the release has descriptions, the
 * description (an update without one clears it: Gitea v1.24.7 models/secret/secret.go UpdateSecret writes
 * both columns), so it sends the server's description where the config writes none. DELETE removes it.
 */
export const writing = {
  ...unitWriting,

  ops({ scope, action, desired, current, ctx }) {
    if (action === 'delete') return [{ method: 'DELETE', path: actionsPath(scope.segments, 'secret', current.key) }];
    if (action !== 'create' && action !== 'update') return notAnActionOf('Actions secret', action);
    const want = desired.fields;
    const body: Record<string, unknown> = { data: want.value };
    if (serverHas(ctx.server, DESCRIPTIONS)) {
      const description = 'description' in want ? want.description : current?.fields.description;
      if (typeof description === 'string' && (description !== '' || action === 'update')) body.description = description;
    }
    return [{ method: 'PUT', path: actionsPath(scope.segments, 'secret', desired.key), body }];
  },
} satisfies Writing<ActionsSecretTypes>;
