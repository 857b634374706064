import type { HookConfig } from '../../config/types.js';
import { isDeepStrictEqual } from 'node:util';
import { asSet, normalizeFields } from '../fields.js';
import { secretFromEnvironment } from '../secrets.js';
import { isSecret } from '../../secret.js';
import { describeAvailability, describeServer, type CurrentObject, type DesiredObject, type Planning, type Problem, type Reading, type Safety, type ScopeContext } from '../../model/index.js';
import { eventsEditCannotChange, expandEvents, normalizeEvents } from './events.js';
import { fields, FROM_SERVER, hookKey, identityOf, LIST_BY_TYPE, listsByType, revealed, type HookTypes, type Identity } from './read.js';

/**
 * What this server's API cannot do with a declared hook: list its default hooks; change an event its
 * edit ignores (src/kinds/hook/events.ts EDIT_EVENTS). A name or an event it lacks altogether is the
 * field's or feature's availability, refused before anything is read.
 */
function serverRefusals(desired: DesiredObject, current: CurrentObject | undefined, id: Identity, ctx: ScopeContext): Problem[] {
  const server = ctx.server;
  if (!server) return [];
  const problems: Problem[] = [];
  if (current && 'events' in desired.fields) {
    const stuck = eventsEditCannotChange(expandEvents(asSet(desired.fields.events)), normalizeEvents(current.fields.events), server);
    // --rotate-secrets with a declared secret replaces the hook: its create sets every event.
    const replaced = ctx.options.rotateSecrets && desired.fields.secret !== undefined;
    if (stuck.length && !replaced)
      problems.push({
        path: [...desired.path, 'events'],
        message: `${describeServer(server)} cannot add or remove the event${stuck.length > 1 ? 's' : ''} ${stuck.join(', ')} of an existing hook (its PATCH /admin/hooks/{id} leaves ${stuck.length > 1 ? 'them' : 'it'} as ${stuck.length > 1 ? 'they are' : 'it is'}; a create sets ${stuck.length > 1 ? 'them' : 'it'}, and Gitea ≥ 1.24 edits every event): change ${stuck.length > 1 ? 'them' : 'it'} in the web UI (Site Administration → System Webhooks), or have forgeform create the hook again: declare its secret and plan with --rotate-secrets, which replaces the hook`,
      });
  }
  if (id.scope === 'default' && !listsByType(server))
    problems.push({
      path: [...desired.path, 'scope'],
      message: `${describeServer(server)} cannot list default hooks (GET /admin/hooks lists system hooks only; ${describeAvailability(LIST_BY_TYPE)} has ?type=default), so forgeform cannot tell whether this one exists: manage it in the web UI (Site Administration → Default Webhooks), or declare it as a system hook`,
    });
  return problems;
}

/** Whether a URL carries a user name or password before its host (https://user:password@host/…). */
export function hasUserinfo(url: string): boolean {
  try {
    const u = new URL(url);
    return u.username !== '' || u.password !== '';
  } catch {
    return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(url);
  }
}

export const planning = {
  async desired({ entry, ctx }) {
    const hooks = entry?.hooks;
    if (!hooks) return undefined;
    const problems: Problem[] = [];
    const objects: DesiredObject[] = [];
    const seen = new Map<string, number>();
    hooks.forEach((h: HookConfig, i) => {
      const path = ['hooks', i];
      // A password in the URL would be printed in every plan line naming the hook and kept in plan files
      // (the URL is the hook's identity): refused, without repeating it (issue 17).
      if (hasUserinfo(h.url)) {
        problems.push({ path: [...path, 'url'], message: 'url: the URL holds credentials (user:password@), which would be printed and saved with every plan: remove them and declare authorization_header: "Basic ${NAME}" from an environment variable instead' });
        return;
      }
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

  compare(field) {
    // Gitea stores "issues" as issues and its sub-events: compare what it will store with what it has.
    if (field === 'events') return (want, have) => isDeepStrictEqual(expandEvents(asSet(want)), normalizeEvents(have));
    // Secrets compare as their values (their templates differ: the config's ${NAME}, the server's read).
    if (field === 'authorization_header') return (want, have) => revealed(want) === revealed(have);
    return undefined;
  },

  check({ desired, current, ctx }) {
    const id = identityOf(desired.key);
    if (!current && (id.type === 'matrix' || id.type === 'packagist'))
      return [{ path: [...desired.path, 'type'], message: `Gitea's API cannot set the ${id.type === 'matrix' ? 'room' : 'package'} settings of a ${id.type} hook: create it in Gitea's web UI; forgeform then manages its other fields` }];
    return serverRefusals(desired, current, id, ctx);
  },

} satisfies Planning<HookTypes> & Pick<Reading<HookTypes>, 'compare'>;

export const safety = {
  async annotate({ change }) {
    const notes: string[] = [];
    const edit = change.ops.find((o) => o.method === 'PATCH');
    if (edit) {
      const body = edit.body;
      const sent = body && typeof body === 'object' && 'authorization_header' in body ? body.authorization_header : undefined;
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
} satisfies Safety<HookTypes>;
