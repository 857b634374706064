import { hasUserinfo } from '../url-userinfo.js';
import type { HookConfig } from '../../config/types.js';
import { isDeepStrictEqual } from 'node:util';
import { asSet, normalizeFields } from '../fields.js';
import { secretFromEnvironment } from '../secrets.js';
import { isSecret } from '../../secret.js';
import { describeAvailability, describeServer, type ConfigPath, type CurrentObject, type DesiredObject, type KindContext, type Op, type Planning, type Problem, type Reading, type Safety, type ScopeContext } from '../../model/index.js';
import { eventsEditCannotChange, expandEvents, normalizeEvents } from './events.js';
import { fields, FROM_SERVER, hookKey, identityOf, LIST_BY_TYPE, listsByType, revealed, type HookTypes, type Identity } from './read.js';

/** Where a hook's edit goes and where its web UI is, as refusals name them. */
export interface HookHome {
  edit: string;
  ui: string;
}

/**
 * Hook types whose own settings the hook API cannot set (`addHook` writes the Slack ones only,
 * `routers/api/v1/utils/hook.go`; Forgejo's sourcehut_builds needs a manifest path, v15.0.3
 * `services/webhook/sourcehut/builds.go` l.50).
 */
const UNSETTABLE: Record<string, string> = { matrix: 'room', packagist: 'package', sourcehut_builds: 'manifest' };

/**
 * What this server's API cannot do with a declared hook, wherever it lives: change an event its edit
 * ignores (src/kinds/hook/events.ts EDIT_EVENTS); create a type whose settings the API cannot set.
 * A name or an event it lacks altogether is the field's or feature's availability, refused before
 * anything is read.
 */
export function hookRefusals(desired: DesiredObject, current: CurrentObject | undefined, type: string, ctx: ScopeContext, home: HookHome): Problem[] {
  const unset = UNSETTABLE[type];
  if (!current && unset) return [{ path: [...desired.path, 'type'], message: `Gitea's API cannot set the ${unset} settings of a ${type} hook: create it in the web UI; forgeform then manages its other fields` }];
  const server = ctx.server;
  if (!server || !current || !('events' in desired.fields)) return [];
  const stuck = eventsEditCannotChange(expandEvents(asSet(desired.fields.events)), normalizeEvents(current.fields.events), server);
  // --rotate-secrets with a declared secret replaces the hook: its create sets every event.
  const replaced = ctx.options.rotateSecrets && desired.fields.secret !== undefined;
  if (!stuck.length || replaced) return [];
  const [them, theyAre] = stuck.length > 1 ? ['them', 'they are'] : ['it', 'it is'];
  return [
    {
      path: [...desired.path, 'events'],
      message: `${describeServer(server)} cannot add or remove the event${stuck.length > 1 ? 's' : ''} ${stuck.join(', ')} of an existing hook (its ${home.edit} leaves ${them} as ${theyAre}; a create sets ${them}, and Gitea ≥ 1.24 edits every event): change ${them} in the web UI (${home.ui}), or have forgeform create the hook again: declare its secret and plan with --rotate-secrets, which replaces the hook`,
    },
  ];
}

/** What the admin hooks' list cannot tell: whether a default hook exists, where the server lists system hooks only. */
function defaultHookRefusal(desired: DesiredObject, id: Identity, ctx: ScopeContext): Problem[] {
  const server = ctx.server;
  if (!server || id.scope !== 'default' || listsByType(server)) return [];
  return [
    {
      path: [...desired.path, 'scope'],
      message: `${describeServer(server)} cannot list default hooks (GET /admin/hooks lists system hooks only; ${describeAvailability(LIST_BY_TYPE)} has ?type=default), so forgeform cannot tell whether this one exists: manage it in the web UI (Site Administration → Default Webhooks), or declare it as a system hook`,
    },
  ];
}

/** A declared hook as the shared code reads it: identity keys, fields, secrets. */
export interface DeclaredHook {
  url: string;
  events?: string[];
  secret?: string;
  authorization_header?: string;
}

/**
 * The objects of one declared list of hooks (admin, or one repository's or organisation's): URLs with
 * credentials refused, the same identity twice named at both places, secrets from the environment.
 * `identify` gives a hook's key and how the duplicate error describes its identity; `identity` names
 * the config keys that are identity, not fields.
 */
export function declaredHooks<H extends DeclaredHook>(list: H[], at: ConfigPath, identity: string[], identify: (h: H) => { key: string; described: string }, ctx: KindContext): { objects: DesiredObject[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const objects: DesiredObject[] = [];
  const seen = new Map<string, number>();
  list.forEach((h, i) => {
    const path = [...at, i];
    // A password in the URL would be printed in every plan line naming the hook and kept in plan files
    // (the URL is the hook's identity): refused, without repeating it (issue 17).
    if (hasUserinfo(h.url)) {
      problems.push({ path: [...path, 'url'], message: 'url: the URL holds credentials (user:password@), which would be printed and saved with every plan: remove them and declare authorization_header: "Basic ${NAME}" from an environment variable instead' });
      return;
    }
    // Gitea 1.26 trims the name on create and edit (main routers/api/v1/utils/hook.go:218, :397), so a
    // name with surrounding spaces would differ forever: refused (issue 27).
    const name: unknown = Object.entries(h).find(([k]) => k === 'name')?.[1];
    if (typeof name === 'string' && name !== name.trim()) {
      problems.push({ path: [...path, 'name'], message: `name: ${JSON.stringify(name)} has surrounding spaces, which Gitea 1.26 trims (it would differ on every plan): write it without the spaces` });
      return;
    }
    const { key, described } = identify(h);
    const first = seen.get(key);
    if (first !== undefined) {
      const place = ctx.loaded.locate?.([...at, first]);
      const where = place ? `${place.file}:${place.line}:${place.col}` : `${at.join('.')}[${first}]`;
      problems.push({ path, message: `this hook (${described}) is declared twice: here and at ${where}` });
      return;
    }
    seen.set(key, i);
    const rest = Object.fromEntries(Object.entries(h).filter(([k]) => !identity.includes(k) && k !== 'events'));
    const f = normalizeFields(fields, rest, true);
    if (h.events) f.events = h.events;
    for (const field of ['secret', 'authorization_header'] as const) {
      if (h[field] === undefined) continue;
      const { secret, problems: p } = secretFromEnvironment(h[field], [...path, field], field, ctx);
      problems.push(...p);
      if (secret) f[field] = secret;
    }
    objects.push({ key, fields: f, path });
  });
  return { objects, problems };
}

/** How hook fields compare where equality is not plain (every hook kind's `compare`). */
export function hookCompare(field: string): ((want: unknown, have: unknown) => boolean) | undefined {
  // Gitea stores "issues" as issues and its sub-events: compare what it will store with what it has.
  if (field === 'events') return (want, have) => isDeepStrictEqual(expandEvents(asSet(want)), normalizeEvents(have));
  // Secrets compare as their values (their templates differ: the config's ${NAME}, the server's read).
  if (field === 'authorization_header') return (want, have) => revealed(want) === revealed(have);
  return undefined;
}

export const planning = {
  async desired({ entry, ctx }) {
    const hooks = entry?.hooks;
    if (!hooks) return undefined;
    return declaredHooks(hooks, ['hooks'], ['url', 'scope', 'type'], (h: HookConfig) => {
      const id: Identity = { scope: h.scope ?? 'system', type: h.type ?? 'gitea', url: h.url };
      return { key: hookKey(id), described: `scope ${id.scope}, type ${id.type}, url ${id.url}` };
    }, ctx);
  },

  compare: hookCompare,

  check({ desired, current, ctx }) {
    const id = identityOf(desired.key);
    const refused = hookRefusals(desired, current, id.type, ctx, { edit: 'PATCH /admin/hooks/{id}', ui: 'Site Administration → System Webhooks' });
    return [...refused, ...defaultHookRefusal(desired, id, ctx)];
  },

} satisfies Planning<HookTypes> & Pick<Reading<HookTypes>, 'compare'>;

/** What a hook change's plan lines add (every hook kind's `annotate`): the authorization header an edit resends, why a hook is replaced. */
export function hookNotes(change: { ops: readonly Op[] }): { notes: string[] } | undefined {
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
}

export const safety = {
  async annotate({ change }) {
    return hookNotes(change);
  },
} satisfies Safety<HookTypes>;
