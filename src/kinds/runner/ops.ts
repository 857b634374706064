import { apiPath } from '../../gitea/path.js';
import type { Writing } from '../../model/index.js';
import { idOf, notAnActionOf } from '../actions.js';
import type { RunnerTypes } from './read.js';

export const writing = {
  ops({ action, desired, current }) {
    if (action !== 'update' && action !== 'delete') return notAnActionOf('runner', action);
    const path = apiPath('admin', 'actions', 'runners', idOf('runner', current));
    if (action === 'delete') return [{ method: 'DELETE', path }];
    // disabled is required in every edit body.
    return [{ method: 'PATCH', path, body: { disabled: desired.fields.disabled ?? current.fields.disabled } }];
  },
} satisfies Writing<RunnerTypes>;
