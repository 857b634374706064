import { apiPath } from '../../gitea/path.js';
import type { KindWriting } from '../../model/index.js';
import { notAnActionOf } from '../actions.js';

export const writing = {
  ops({ action, desired, current }) {
    if (action !== 'update' && action !== 'delete') return notAnActionOf('runner', action);
    const path = apiPath('admin', 'actions', 'runners', current.id!);
    if (action === 'delete') return [{ method: 'DELETE', path }];
    // disabled is required in every edit body.
    return [{ method: 'PATCH', path, body: { disabled: desired.fields.disabled ?? current.fields.disabled } }];
  },
} satisfies KindWriting;
