import { apiPath } from '../../gitea/path.js';
import { changeId, type Op, type Writing } from '../../model/index.js';
import { idOf, notAnActionOf } from '../actions.js';
import { preparing } from './plan.js';
import { listPath } from './read.js';
import { keyIdentity } from './ssh-key.js';
import type { DeployKeyTypes } from './types.js';

/**
 * POST …/keys (CreateKeyOption: title, key, read_only; 201) and DELETE …/keys/{id} (204): no release edits a deploy
 * key, so a changed key or read_only is a replacement, the old key deleted first (the server refuses a key twice in a
 * repository). A replacement keeps what the config does not manage as it was (read_only, or the key itself).
 */
export const writing = {
  ...preparing,

  ops({ scope, action, desired, current }) {
    const base = listPath(scope.segments);
    if (action === 'create') return [{ method: 'POST', path: base, body: { title: desired.key, ...desired.fields } }];
    const remove: Op = { method: 'DELETE', path: `${base}/${apiPath(String(idOf('deploy_key', current)))}` };
    if (action === 'delete') return [remove];
    if (action !== 'replace') return notAnActionOf('deploy_key', action);
    return [remove, { method: 'POST', path: base, body: { title: desired.key, ...current.fields, ...desired.fields } }];
  },

  /**
   * A key that another title holds on the server now is added after that title's delete or replacement (with
   * policy.prune, or when the config gives that title another key): the server refuses it while the other holds it.
   */
  dependsOn({ scope, action, desired, prepared, self }) {
    if (action !== 'create' && action !== 'replace') return [];
    const holders = prepared.holders.get(keyIdentity(desired.fields.key)) ?? [];
    return holders.filter((t) => t !== desired.key).map((t) => changeId(self, scope, t));
  },
} satisfies Writing<DeployKeyTypes>;
