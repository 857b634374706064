import { apiPath } from '../../gitea/path.js';
import type { CurrentObject, DesiredObject, Op, Writing } from '../../model/index.js';
import { idOf, notAnActionOf } from '../actions.js';
import { listPath } from './read.js';
import type { PushMirrorTypes } from './types.js';

/** Gitea's default mirror interval (modules/setting/mirror.go DefaultInterval): the create needs one ("" is refused). */
export const DEFAULT_INTERVAL = '8h0m0s';

/**
 * The body of POST …/push_mirrors (CreatePushMirrorOption): the address, the interval (always: the server
 * refuses none), and what the change declares; a replacement keeps what the config does not manage as it was.
 */
function createBody(d: DesiredObject, replaced?: CurrentObject): Record<string, unknown> {
  const pick = (k: string): unknown => (k in d.fields ? d.fields[k] : replaced?.fields[k]);
  const body: Record<string, unknown> = { remote_address: d.key, interval: pick('interval') ?? DEFAULT_INTERVAL };
  for (const k of ['sync_on_commit', 'branch_filter']) if (pick(k) !== undefined && (k in d.fields || pick(k) !== '')) body[k] = pick(k);
  for (const k of ['remote_username', 'remote_password']) if (k in d.fields) body[k] = d.fields[k];
  return body;
}

export const writing = {
  ops({ scope, action, desired, current }) {
    const base = listPath(scope.segments);
    if (action === 'create') return [{ method: 'POST', path: base, body: createBody(desired) }];
    const remove: Op = { method: 'DELETE', path: `${base}/${apiPath(String(idOf('push_mirror', current)))}` };
    if (action === 'delete') return [remove];
    if (action !== 'replace') return notAnActionOf('push_mirror', action);
    return [remove, { method: 'POST', path: base, body: createBody(desired, current) }];
  },
} satisfies Writing<PushMirrorTypes>;
