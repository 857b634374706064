import type { Config, HookConfig } from '../../config/types.js';
import { apiPath } from '../../gitea/path.js';
import type { Op } from '../../model/index.js';
import { isDeepStrictEqual } from 'node:util';
import { asSet, bool, normalizeFields, str } from '../fields.js';
import { secretFromEnvironment } from '../secrets.js';
import { isSecret, Secret } from '../../secret.js';
import { describeAvailability, describeServer, serverHas, type Availability, type CurrentObject, type DesiredObject, type FieldSpec, type Kind, type Problem, type ScopeContext, type ServerInfo } from '../../model/index.js';

const ISSUE_EVENTS = ['issue_assign', 'issue_label', 'issue_milestone', 'issue_comment'];
const PULL_EVENTS = ['pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment', 'pull_request_review', 'pull_request_review_request', 'pull_request_sync'];
/** Gitea stores one "reviewed" flag and reports it as three events. */
const REVIEW_EVENTS = ['pull_request_review_approved', 'pull_request_review_rejected', 'pull_request_review_comment'];
const SLACK_KEYS = ['channel', 'username', 'icon_url', 'color'];

/** Event names as Gitea reports them: lower case, the review event as its three parts, as a set. */
export function normalizeEvents(value: unknown): string[] {
  return asSet(asSet(value).flatMap((e) => (e.toLowerCase() === 'pull_request_review' ? REVIEW_EVENTS : [e.toLowerCase()])));
}

/** The events Gitea stores for the events a create or edit names (`routers/api/v1/utils/hook.go`). */
export function expandEvents(events: string[]): string[] {
  const out: string[] = [];
  for (const raw of events) {
    const e = raw.toLowerCase();
    if (e === 'issues') out.push('issues', ...ISSUE_EVENTS);
    else if (e === 'pull_request') out.push('pull_request', ...PULL_EVENTS);
    else if (e === 'issues_only') out.push('issues');
    else if (e === 'pull_request_only') out.push('pull_request');
    else out.push(e);
  }
  return normalizeEvents(out.length ? out : ['push']);
}

/** The shortest config names that select exactly the events a server reports (export, and edits that keep them). */
export function eventsToConfig(server: unknown): string[] {
  const have = new Set(normalizeEvents(server));
  const out = new Set<string>();
  const all = (list: string[]) => list.every((e) => have.has(e));
  const pullSubs = [...PULL_EVENTS.filter((e) => e !== 'pull_request_review'), ...REVIEW_EVENTS];
  const issuesAll = have.has('issues') && all(ISSUE_EVENTS);
  const pullAll = have.has('pull_request') && all(pullSubs);
  if (issuesAll) out.add('issues');
  if (pullAll) out.add('pull_request');
  for (const e of have) {
    if ((issuesAll && (e === 'issues' || ISSUE_EVENTS.includes(e))) || (pullAll && (e === 'pull_request' || pullSubs.includes(e)))) continue;
    if (e === 'issues') out.add('issues_only');
    else if (e === 'pull_request') out.add('pull_request_only');
    else if (REVIEW_EVENTS.includes(e)) out.add('pull_request_review');
    else out.add(e);
  }
  return [...out].sort();
}

const fields: FieldSpec[] = [
  str('content_type'),
  // Kept as written in the config (what is sent and shown); compared after Gitea's expansion (see compare).
  { name: 'events', type: 'set', normalize: normalizeEvents },
  str('branch_filter'),
  bool('active'),
  { ...str('name'), availability: { gitea: { since: '1.26' } } }, // Gitea 1.26 (#37025, modules/structs/hook.go); no Forgejo: elsewhere ignored, never converges
  ...SLACK_KEYS.map(str),
  // Never returned; Gitea cannot change the secret in place, and clears the header on an edit without it.
  { name: 'secret', type: 'scalar', writeOnly: true, sensitive: true },
  // Write-only where the server hides it (Gitea 1.27); released servers return it, and read() then gives it to the diff.
  { name: 'authorization_header', type: 'scalar', writeOnly: true, sensitive: true, resendOnEdit: true },
];

/**
 * What each release does with hooks, as data (docs/servers-writes.md). Every released Gitea and every
 * Forgejo answer a hook with its authorization header in clear (`ToHook`, services/webhook/general.go):
 * there forgeform compares it (as a Secret: it reaches no output) and sends it back on edits that do
 * not change it. Only Gitea ≥ 1.24 lists default hooks (`GET /admin/hooks?type=`); elsewhere the list
 * is the system hooks whatever `type` says. Hook names exist from Gitea 1.26 (the name field's availability).
 */
const HEADER_IN_CLEAR: Availability = { gitea: { until: '1.26' }, forgejo: {} };
const LIST_BY_TYPE: Availability = { gitea: { since: '1.24' } };

/** The template of a header read from the server: a saved plan stores this text, never the value; apply reads the server again. */
const FROM_SERVER = '(the header the server holds, read again at apply)';

/** Unknown server (offline checks): the older behaviour of each, which never compares a value it may not get. */
const has = (server: ServerInfo | undefined, a: Availability) => server !== undefined && serverHas(server, a);
const listsByType = (server: ServerInfo | undefined) => server === undefined || serverHas(server, LIST_BY_TYPE);

/** A secret's value, for comparison only. */
const revealed = (v: unknown) => (isSecret(v) ? v.reveal() : v === null || v === undefined ? '' : String(v));

interface Identity {
  scope: 'system' | 'default';
  type: string;
  url: string;
}

export function hookKey(id: Identity): string {
  return `${id.scope} ${id.type} ${id.url}`;
}

function identityOf(key: string): Identity {
  const [scope, type, ...url] = key.split(' ');
  return { scope: scope as Identity['scope'], type: type ?? '', url: url.join(' ') };
}

/**
 * The body of POST /admin/hooks: identity (from the key), secret and every field the change carries;
 * active unless said otherwise. A replacement keeps what the config does not manage as it was.
 */
function createBody(d: DesiredObject, replaced?: CurrentObject): Record<string, unknown> {
  const kept = replaced ? Object.fromEntries(['content_type', 'branch_filter', 'active', 'authorization_header', ...SLACK_KEYS].filter((k) => k in replaced.fields).map((k) => [k, replaced.fields[k]])) : {};
  const want = { ...kept, ...d.fields };
  const id = identityOf(d.key);
  // Values are strings, or the Secret of config.secret (revealed only when the body is sent).
  const config: Record<string, unknown> = {
    url: id.url,
    content_type: want.content_type || 'json',
    // Without it, POST /admin/hooks creates a default hook.
    is_system_webhook: id.scope === 'system' ? 'true' : 'false',
  };
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
 * The body of PATCH /admin/hooks/{id}: Gitea resets what an edit omits (events to [push], branch filter
 * and authorization header cleared, Slack settings cleared when channel is sent), so it carries the
 * hook's whole state — desired where the config manages it, current elsewhere (the header too, where
 * the server returned it).
 */
function editBody(d: DesiredObject, cur: CurrentObject): Record<string, unknown> {
  const want = d.fields;
  const have = cur.fields;
  const pick = (k: string) => (k in want ? want[k] : have[k]);
  const id = identityOf(d.key);
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

/** What this server's API cannot do with a declared hook: list its default hooks. (A name it lacks is the name field's availability.) */
function serverRefusals(desired: DesiredObject, id: Identity, ctx: ScopeContext): Problem[] {
  const server = ctx.server;
  if (!server) return [];
  const problems: Problem[] = [];
  if (id.scope === 'default' && !listsByType(server))
    problems.push({
      path: [...desired.path, 'scope'],
      message: `${describeServer(server)} cannot list default hooks (GET /admin/hooks lists system hooks only; ${describeAvailability(LIST_BY_TYPE)} has ?type=default), so forgeform cannot tell whether this one exists: manage it in the web UI (Site Administration → Default Webhooks), or declare it as a system hook`,
    });
  return problems;
}

/**
 * Admin webhooks (system and default). The server gives them no name: identity is scope + type +
 * url, and the change key reads e.g. "system gitea https://ci.example.com/hook".
 */
/** A server hook, in the list it came from (system or default): the hook itself does not say. */
function hookFromServer(raw: unknown, scope: Identity['scope']): CurrentObject {
  const r = raw as Record<string, unknown> & { config?: Record<string, unknown> };
  const config = r.config ?? {};
  const type = String(r.type ?? '');
  const values: Record<string, unknown> = { content_type: config.content_type, events: r.events, branch_filter: r.branch_filter, active: r.active, name: r.name };
  if (type === 'slack') for (const k of SLACK_KEYS) values[k] = config[k];
  const readable = fields.filter((f) => !f.writeOnly && (type === 'slack' || !SLACK_KEYS.includes(f.name)));
  return { key: hookKey({ scope, type, url: String(config.url ?? '') }), id: Number(r.id), fields: normalizeFields(readable, values, false) };
}

export const hookKind: Kind = {
  name: 'hook',
  title: 'admin webhook',
  pruneKey: 'hooks',
  configKey: 'hooks',
  scopeType: 'server',
  actions: ['create', 'update', 'delete', 'replace'],
  fields,
  target: { type: 'hook', placeholder: 'URL', name: (key) => identityOf(key).url, acrossSlashes: true },
  replaceToRotate: true,

  async desired(scopeConfig, _scope, ctx) {
    const hooks = (scopeConfig as Config).hooks;
    if (!hooks) return undefined;
    const problems: Problem[] = [];
    const objects: DesiredObject[] = [];
    const seen = new Map<string, number>();
    hooks.forEach((h: HookConfig, i) => {
      const path = ['hooks', i];
      const id: Identity = { scope: h.scope ?? 'system', type: h.type ?? 'gitea', url: h.url };
      const key = hookKey(id);
      const first = seen.get(key);
      if (first !== undefined) {
        const at = ctx.loaded.locate?.(['hooks', first]);
        const where = at ? `${at.file}:${at.line}:${at.col}` : `hooks[${first}]`;
        problems.push({ path, message: `this hook (scope ${id.scope}, type ${id.type}, url ${id.url}) is declared twice: here and at ${where}` });
        return;
      }
      seen.set(key, i);
      const { url: _url, scope: _scope, type: _type, events, ...rest } = h;
      const f = normalizeFields(fields, rest, true);
      if (events) f.events = events;
      for (const field of ['secret', 'authorization_header'] as const) {
        if (h[field] === undefined) continue;
        const { secret, problems: p } = secretFromEnvironment(h[field], [...path, field], field, ctx);
        problems.push(...p);
        if (secret) f[field] = secret;
      }
      objects.push({ key, fields: f, path });
    });
    return { objects, problems };
  },

  // The list does not say whether a hook is a system or a default one: list each type on its own, where the server can.
  async read(_scope, ctx) {
    const inClear = has(ctx.server, HEADER_IN_CLEAR);
    const list = (type: 'system' | 'default') =>
      ctx.client.list<Record<string, unknown>>('admin/hooks', { query: { type }, object: `${type} webhooks` }).then((hooks) =>
        hooks.map((h) => {
          const o = hookFromServer(h, type);
          if (inClear) o.fields.authorization_header = new Secret(revealed(h.authorization_header), FROM_SERVER);
          return o;
        }),
      );
    const [system, dflt] = await Promise.all([list('system'), listsByType(ctx.server) ? list('default') : []]);
    return [...system, ...dflt];
  },

  compare(field) {
    // Gitea stores "issues" as issues and its sub-events: compare what it will store with what it has.
    if (field === 'events') return (want, have) => isDeepStrictEqual(expandEvents(asSet(want)), normalizeEvents(have));
    // Secrets compare as their values (their templates differ: the config's ${NAME}, the server's read).
    if (field === 'authorization_header') return (want, have) => revealed(want) === revealed(have);
    return undefined;
  },

  check(desired, current, _scope, ctx) {
    const id = identityOf(desired.key);
    if (!current && (id.type === 'matrix' || id.type === 'packagist'))
      return [{ path: [...desired.path, 'type'], message: `Gitea's API cannot set the ${id.type === 'matrix' ? 'room' : 'package'} settings of a ${id.type} hook: create it in Gitea's web UI; forgeform then manages its other fields` }];
    return serverRefusals(desired, id, ctx);
  },

  ops({ action, desired, current }) {
    const remove: Op = { method: 'DELETE', path: apiPath('admin', 'hooks', current?.id ?? 0) };
    if (action === 'delete') return [remove];
    const create: Op = { method: 'POST', path: 'admin/hooks', body: createBody(desired, action === 'replace' ? current : undefined) };
    if (action === 'create') return [create];
    if (action === 'replace') return [{ ...remove, reason: 'Gitea cannot change a hook secret in place: the hook is deleted and created again (it gets a new id)' }, create];
    return [
      {
        method: 'PATCH',
        path: apiPath('admin', 'hooks', current.id!),
        body: editBody(desired, current),
        onStatus: { '500': 'the hook no longer exists on the server (Gitea answers 500 for an unknown hook id): plan again' },
      },
    ];
  },

  async annotate(change) {
    const notes: string[] = [];
    const edit = change.ops.find((o) => o.method === 'PATCH');
    if (edit) {
      const sent = (edit.body as Record<string, unknown>).authorization_header;
      notes.push(
        sent === undefined
          ? 'Gitea clears the authorization header of a hook on every edit that does not send it: declare authorization_header if this hook has one'
          : isSecret(sent) && sent.template === FROM_SERVER
            ? 'the authorization header is sent back as the server holds it: Gitea clears it on any edit that omits it'
            : 'authorization_header is sent again: Gitea clears it on any edit that omits it',
      );
    }
    for (const op of change.ops) if (op.reason) notes.push(op.reason);
    return notes.length ? { notes } : undefined;
  },

  // A write's answer does not say which list the hook is in either; apply compares its fields only.
  fromServer(raw) {
    return hookFromServer(raw, 'system');
  },

  /** Hooks are a list in the config: their identity is scope + type + url, not a map key. */
  exportInto(config, objects) {
    config.hooks = Object.values(objects);
  },
  toConfig(current: CurrentObject) {
    const id = identityOf(current.key);
    const f = current.fields;
    const out: Record<string, unknown> = { url: id.url, scope: id.scope, type: id.type, content_type: f.content_type, events: eventsToConfig(f.events) };
    if (f.branch_filter) out.branch_filter = f.branch_filter;
    out.active = f.active;
    if (f.name) out.name = f.name;
    if (id.type === 'slack') for (const k of SLACK_KEYS) if (f[k]) out[k] = f[k];
    return out;
  },
};
