import { withoutUserinfo } from '../url-userinfo.js';
import type { Shape } from '../../gitea/answer.js';
import { normalizeFields } from '../fields.js';
import { isSecret, Secret } from '../../secret.js';
import type { Config } from '../../config/types.js';
import { serverHas, type Availability, type CurrentObject, type KindTypes, type Reading, type ServerInfo } from '../../model/index.js';
import { fields, SLACK_KEYS } from './fields.js';

export { fields, SLACK_KEYS } from './fields.js';

/**
 * What each release does with hooks, as data (docs/servers-writes.md). Every released Gitea and every
 * Forgejo answer a hook with its authorization header in clear (`ToHook`, services/webhook/general.go):
 * there forgeform compares it (as a Secret: it reaches no output) and sends it back on edits that do
 * not change it. Only Gitea ≥ 1.24 lists default hooks (`GET /admin/hooks?type=`); elsewhere the list
 * is the system hooks whatever `type` says. Hook names exist from Gitea 1.26 (the name field's availability).
 */
const HEADER_IN_CLEAR: Availability = { gitea: { until: '1.26' }, forgejo: {} };
export const LIST_BY_TYPE: Availability = { gitea: { since: '1.24' } };

/** The template of a header read from the server: a saved plan stores this text, never the value; apply reads the server again. */
export const FROM_SERVER = '(the header the server holds, read again at apply)';

/** Unknown server (offline checks): the older behaviour of each, which never compares a value it may not get. */
const has = (server: ServerInfo | undefined, a: Availability) => server !== undefined && serverHas(server, a);
export const listsByType = (server: ServerInfo | undefined) => server === undefined || serverHas(server, LIST_BY_TYPE);

/** A secret's value, for comparison only. */
export const revealed = (v: unknown) => (isSecret(v) ? v.reveal() : v === null || v === undefined ? '' : String(v));

export interface Identity {
  scope: 'system' | 'default';
  type: string;
  url: string;
}

export function hookKey(id: Identity): string {
  return `${id.scope} ${id.type} ${id.url}`;
}

export function identityOf(key: string): Identity {
  const [scope, type, ...url] = key.split(' ');
  return { scope: scope === 'default' ? 'default' : 'system', type: type ?? '', url: url.join(' ') };
}

/**
 * A URL as forgeform may show it: a user name or password before the host is replaced by (sensitive).
 * The config cannot declare such a URL (plan.ts), so a server hook that holds one only ever shows as
 * undeclared, and its key is printed, saved in plan files and exported: it must not carry the password.
 */
export function withoutCredentials(url: string): string {
  return withoutUserinfo(url, '(sensitive)');
}

/**
 * A server hook as an object, keyed by what identifies it where it lives (keyOf gets its type and its
 * URL without credentials): admin, repository and organisation hooks alike.
 */
export function hookObject(r: ServerHook, keyOf: (type: string, url: string) => string): CurrentObject {
  const config = r.config ?? {};
  const type = String(r.type ?? '');
  const values: Record<string, unknown> = { content_type: config.content_type, events: r.events, branch_filter: r.branch_filter, active: r.active, name: r.name };
  if (type === 'slack') for (const k of SLACK_KEYS) values[k] = config[k];
  const readable = fields.filter((f) => !f.writeOnly && (type === 'slack' || !SLACK_KEYS.includes(f.name)));
  return { key: keyOf(type, withoutCredentials(String(config.url ?? ''))), id: Number(r.id), fields: normalizeFields(readable, values, false) };
}

/** A listed hook as an object, with its authorization header (a Secret, for comparison only) where the release answers it. */
export function listedHook(r: ServerHook, keyOf: (type: string, url: string) => string, server: ServerInfo | undefined): CurrentObject {
  const o = hookObject(r, keyOf);
  if (has(server, HEADER_IN_CLEAR)) o.fields.authorization_header = new Secret(revealed(r.authorization_header), FROM_SERVER);
  return o;
}

/** A server hook, in the list it came from (system or default): the hook itself does not say. */
function hookFromServer(r: ServerHook, scope: Identity['scope']): CurrentObject {
  return hookObject(r, (type, url) => hookKey({ scope, type, url }));
}

/**
 * A hook as answered (modules/structs/hook.go): its URL and content type sit in `config`, as do a
 * Slack hook's keys; `authorization_header` is a string where the release answers it.
 */
export const shape: Shape = {
  id: 'id',
  type: 'string',
  config: { object: { url: 'string', content_type: 'string?', ...Object.fromEntries(SLACK_KEYS.map((k) => [k, 'string?'])) } },
  events: 'string[]?',
  branch_filter: 'string?',
  active: 'boolean?',
  name: 'string?',
  authorization_header: 'string?',
};

/** A hook as the server answers it (its shape checked, see shape). */
export type ServerHook = Record<string, unknown> & { id: number; type: string; config?: Record<string, unknown> | null; authorization_header?: string | null };

/** What the hook kind is typed by: the whole config (admin hooks are server-wide), a hook as answered; no lookups, no state per run. */
export type HookTypes = KindTypes<Config, ServerHook>;

export const reading = {
  fields,
  shape,

  // The list does not say whether a hook is a system or a default one: list each type on its own, where the server can.
  async read({ ctx }) {
    const list = (type: 'system' | 'default') =>
      ctx.client.list<ServerHook>('admin/hooks', { query: { type }, object: `${type} webhooks`, shape }).then((hooks) => hooks.map((h) => listedHook(h, (t, url) => hookKey({ scope: type, type: t, url }), ctx.server)));
    const [system, dflt] = await Promise.all([list('system'), listsByType(ctx.server) ? list('default') : []]);
    return [...system, ...dflt];
  },

  // A write's answer does not say which list the hook is in either; apply compares its fields only.
  fromServer(raw) {
    return hookFromServer(raw, 'system');
  },
} satisfies Reading<HookTypes>;
