import type { CurrentObject, DesiredObject, Op, OpsInput, Writing } from '../../model/index.js';
import { idOf } from '../actions.js';
import { eventsToConfig } from './events.js';
import { identityOf, SLACK_KEYS, type HookTypes } from './read.js';

/** What identifies a hook in its requests: its type and URL, and config values its home adds (an admin hook's is_system_webhook). */
export interface HookTarget {
  type: string;
  url: string;
  config?: Record<string, string>;
}

/**
 * The body of a hook's POST: identity, secret and every field the change carries; active unless said
 * otherwise. A replacement keeps what the config does not manage as it was.
 */
function createBody(d: DesiredObject, id: HookTarget, replaced?: CurrentObject): Record<string, unknown> {
  const kept = replaced ? Object.fromEntries(['content_type', 'branch_filter', 'active', 'authorization_header', ...SLACK_KEYS].filter((k) => k in replaced.fields).map((k) => [k, replaced.fields[k]])) : {};
  const want = { ...kept, ...d.fields };
  // Values are strings, or the Secret of config.secret (revealed only when the body is sent).
  const config: Record<string, unknown> = { url: id.url, content_type: want.content_type || 'json', ...id.config };
  if (want.secret !== undefined) config.secret = want.secret;
  for (const k of SLACK_KEYS) if (k in want) config[k] = String(want[k]);
  return {
    type: id.type,
    config,
    events: 'events' in d.fields ? d.fields.events : replaced ? eventsToConfig(replaced.fields.events) : ['push'],
    // Gitea's default is an inactive hook.
    active: want.active ?? true,
    ...('branch_filter' in want ? { branch_filter: want.branch_filter } : {}),
    ...('authorization_header' in want ? { authorization_header: want.authorization_header } : {}),
    ...('name' in want ? { name: want.name } : {}),
  };
}

/**
 * The body of a hook's PATCH (`utils.editHook`, shared by admin, repository and organisation hooks): Gitea resets what an edit omits (events to [push], branch filter
 * and authorization header cleared, Slack settings cleared when channel is sent), so it carries the
 * hook's whole state — desired where the config manages it, current elsewhere (the header too, where
 * the server returned it).
 */
function editBody(d: DesiredObject, cur: CurrentObject, id: HookTarget): Record<string, unknown> {
  const want = d.fields;
  const have = cur.fields;
  const pick = (k: string) => (k in want ? want[k] : have[k]);
  const config: Record<string, string> = { url: id.url, content_type: String(pick('content_type') || 'json') };
  if (id.type === 'slack') for (const k of SLACK_KEYS) config[k] = String(pick(k) ?? '');
  return {
    config,
    events: 'events' in want ? want.events : eventsToConfig(have.events),
    branch_filter: pick('branch_filter') ?? '',
    active: pick('active'),
    ...('authorization_header' in want || 'authorization_header' in have ? { authorization_header: pick('authorization_header') } : {}),
    ...('name' in want ? { name: want.name } : {}),
  };
}

/**
 * The requests of a hook change at its list path `base`: a POST, a PATCH of its whole state, a DELETE, or
 * (to change its secret, which no edit can) a DELETE then a POST. `missing` is how the PATCH's answer to
 * an unknown id reads.
 */
export function hookOps(input: OpsInput, base: string, target: (key: string) => HookTarget, missing: Record<string, string>): Op[] {
  const { action, desired, current } = input;
  if (action === 'create') return [{ method: 'POST', path: base, body: createBody(desired, target(desired.key)) }];
  const remove: Op = { method: 'DELETE', path: `${base}/${idOf('hook', current)}` };
  if (action === 'delete') return [remove];
  const id = target(desired.key);
  if (action === 'replace') return [{ ...remove, reason: 'Gitea cannot change a hook secret in place: the hook is deleted and created again (it gets a new id)' }, { method: 'POST', path: base, body: createBody(desired, id, current) }];
  return [{ method: 'PATCH', path: `${base}/${idOf('hook', current)}`, body: editBody(desired, current, id), onStatus: missing }];
}

export const writing = {
  ops(input) {
    return hookOps(input, 'admin/hooks', (key) => {
      const id = identityOf(key);
      // Without it, POST /admin/hooks creates a default hook.
      return { type: id.type, url: id.url, config: { is_system_webhook: id.scope === 'system' ? 'true' : 'false' } };
    }, { '500': 'the hook no longer exists on the server (Gitea answers 500 for an unknown hook id): plan again' });
  },
} satisfies Writing<HookTypes>;
