import { apiPath } from '../../gitea/path.js';
import { SERVER_SCOPE, type Writing } from '../../model/index.js';
import { notAnActionOf } from '../actions.js';
import { userKind } from '../user/index.js';
import type { CollaboratorTypes } from './types.js';

/**
 * One request per collaborator added, changed or removed, none for those already right:
 * `PUT /repos/{o}/{r}/collaborators/{user}` with `{permission}` adds one or changes its permission
 * (always sent: without it Gitea 1.23+ resets an existing collaborator to write, and before adds at
 * write and keeps an existing one's), `DELETE` removes one. Both are idempotent on the server.
 */
export const writing = {
  ops({ scope, action, desired, current }) {
    if (action === 'delete') return [{ method: 'DELETE', path: apiPath(...scope.segments, 'collaborators', current.key), idempotent: true }];
    if (action !== 'create' && action !== 'update') return notAnActionOf('collaborator', action);
    return [{ method: 'PUT', path: apiPath(...scope.segments, 'collaborators', desired.key), body: { permission: desired.fields.permission }, idempotent: true }];
  },

  /** A user this plan creates is added once it exists. */
  dependsOn({ action, desired, ctx }) {
    if (action !== 'create') return [];
    const made = ctx.madeBy(userKind, SERVER_SCOPE, desired.key);
    return made ? [made] : [];
  },
} satisfies Writing<CollaboratorTypes>;
