import type { Config, OrgConfig } from '../../config/types.js';
import { apiPath } from '../../gitea/path.js';
import { userKind } from '../user/index.js';
import type { Op } from '../../model/index.js';
import { normalizeFields, str, text } from '../fields.js';
import { describeServer, serverHas, type Availability, type CurrentObject, type DesiredObject, type FieldSpec, type Kind, type OpsInput, type Problem, type Scope, type ScopeContext, type ServerInfo } from '../../model/index.js';
import { notAnActionOf } from '../actions.js';

const fields: FieldSpec[] = [str('full_name'), text('description'), str('visibility'), str('website'), str('location'), str('email')];

/**
 * `PATCH /orgs/{org}` on Gitea ≤ 1.25 and every Forgejo writes these from plain strings, whether sent
 * or not: an omitted one is cleared (routers/api/v1/org/org.go `optional.Some(form.FullName)`). Every
 * edit sends all four, the current value where the config is silent; harmless where they are
 * pointers (Gitea 1.26), so it is done on every server.
 */
const WRITTEN_WHATEVER_SENT = ['full_name', 'description', 'website', 'location'];

/** Releases where `PATCH /orgs/{org}` with `email: ""` keeps the e-mail (no pointer yet): it cannot be cleared. */
const EMAIL_CANNOT_BE_CLEARED: Availability = { gitea: { until: '1.25' }, forgejo: { until: '9' } };
/** Forgejo reads visibility with `optional.FromNonDefault`, and public is the zero value: "public" is dropped. */
const PUBLIC_DROPPED: Availability = { forgejo: {} };

/** The owner a missing organisation is created for: not a compared field, shown with the create. */
const OWNER = 'owner';

/** Why an edit of an existing organisation cannot be made through this server's API (see the tables above). */
function editRefusals(desired: DesiredObject, current: CurrentObject, server: ServerInfo): Problem[] {
  const want = desired.fields;
  const have = current.fields;
  const problems: Problem[] = [];
  if (want.email === '' && have.email && serverHas(server, EMAIL_CANNOT_BE_CLEARED))
    problems.push({
      path: [...desired.path, 'email'],
      message: `${describeServer(server)} cannot clear an organisation's e-mail through its API (an empty e-mail leaves it as it is; Gitea 1.26 and Forgejo 10 can): clear it in the organisation's settings in the web UI, or remove email from the config`,
    });
  if (want.visibility === 'public' && have.visibility !== 'public' && serverHas(server, PUBLIC_DROPPED))
    problems.push({
      path: [...desired.path, 'visibility'],
      message: `${describeServer(server)} cannot make an organisation public through its API (PATCH /orgs/{org} drops visibility "public"): change it in the web UI (the organisation's Settings → Visibility), or remove visibility from the config`,
    });
  return problems;
}

/** The change ids that create or rename a user in this plan (a new owner must exist first). */
export function userChangeIds(ctx: ScopeContext, scope: Scope, name: string): string[] {
  const made = ctx.madeBy(userKind, scope, name);
  return made ? [made] : [];
}

/**
 * Organisations as objects of the server: `orgs.NAME.owner` creates a missing one (admin API, on
 * behalf of the owner); full_name, description, visibility, website and location are managed. The
 * change that creates one is `org/server:/NAME`, which the organisation's own kinds wait for.
 */
export const orgKind: Kind = {
  name: 'org',
  uniqueNames: true,
  title: 'organisation',
  // Organisations are never deleted: no policy.prune entry names them.
  pruneKey: 'orgs',
  configKey: 'orgs',
  scopeType: 'server',
  actions: ['create', 'update'],
  fields,
  context: [OWNER],
  target: { type: 'org', placeholder: 'NAME' },
  createsScope: 'org',
  // A new organisation's owner may be a user this plan creates.
  after: [userKind.name],

  async desired(scopeConfig) {
    const objects: DesiredObject[] = [];
    for (const [name, org] of Object.entries<OrgConfig>((scopeConfig as Config).orgs ?? {})) {
      const managed = normalizeFields(fields, org as Record<string, unknown>, true);
      if (!org.owner && Object.keys(managed).length === 0) continue;
      objects.push({ key: name, fields: { ...managed, ...(org.owner ? { [OWNER]: org.owner } : {}) }, path: ['orgs', name] });
    }
    return objects.length ? { objects, problems: [] } : undefined;
  },

  async read(_scope, { client }) {
    const raw = await client.list<unknown>('admin/orgs', { object: 'organisations' });
    return raw.map((r) => this.fromServer(r));
  },

  check(desired, current, _scope, ctx) {
    if (!current && !desired.fields[OWNER]) return [{ path: desired.path, message: `organisation "${desired.key}" does not exist on the server: add owner: USER to create it` }];
    return current && ctx.server ? editRefusals(desired, current, ctx.server) : [];
  },

  shown({ action, desired }) {
    return action === 'create' ? { [OWNER]: desired.fields[OWNER] } : undefined;
  },

  dependsOn({ action, shown, scope, ctx }: OpsInput) {
    return action === 'create' ? userChangeIds(ctx, scope, String(shown?.[OWNER])) : [];
  },

  ops({ action, desired, current, changed, shown }) {
    if (action === 'delete') return notAnActionOf('organisation', action);
    const want = desired.fields;
    if (action === 'create') {
      const body: Record<string, unknown> = { username: desired.key };
      for (const f of fields) if (f.name in want && f.name !== 'email') body[f.name] = want[f.name];
      const create: Op = { method: 'POST', path: apiPath('admin', 'users', String(shown?.[OWNER]), 'orgs'), body };
      if (!('email' in want)) return [create];
      // The admin create ignores the e-mail; the edit that sets it keeps what the create wrote.
      const kept = Object.fromEntries(WRITTEN_WHATEVER_SENT.map((f) => [f, want[f] ?? '']));
      return [create, { method: 'PATCH', path: apiPath('orgs', desired.key), body: { ...kept, email: want.email }, reason: 'Gitea does not set the e-mail when it creates an organisation' }];
    }
    const body: Record<string, unknown> = Object.fromEntries(WRITTEN_WHATEVER_SENT.map((f) => [f, current.fields[f] ?? '']));
    for (const f of changed) body[f] = want[f];
    return [{ method: 'PATCH', path: apiPath('orgs', current.key), body }];
  },

  fromServer(raw) {
    const r = raw as Record<string, unknown>;
    return { key: String(r.name ?? r.username), id: Number(r.id), fields: normalizeFields(fields, r, false) };
  },

  /** The organisation's settings first, then whatever its scope kinds (labels) add. */
  exportInto(config, objects) {
    const orgs = (config.orgs ??= {}) as Record<string, Record<string, unknown>>;
    for (const [name, settings] of Object.entries(objects)) orgs[name] = { ...settings, ...orgs[name] };
  },
  toConfig(current: CurrentObject) {
    const f = current.fields;
    const out: Record<string, unknown> = {};
    for (const k of ['full_name', 'description', 'website', 'location', 'email']) if (f[k]) out[k] = f[k];
    out.visibility = f.visibility;
    return out;
  },
};
