import type { Config, OrgConfig } from '../../config/types.js';
import { apiPath } from '../../gitea/path.js';
import { userKind } from '../user/index.js';
import { normalizeFields, str, text } from '../fields.js';
import type { CurrentObject, DesiredObject, FieldSpec, Kind, OpsInput, Scope, ScopeContext } from '../../model/index.js';

const fields: FieldSpec[] = [str('full_name'), text('description'), str('visibility'), str('website'), str('location')];

/** The owner a missing organisation is created for: not a compared field, shown with the create. */
const OWNER = 'owner';

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

  check(desired, current) {
    if (current || desired.fields[OWNER]) return [];
    return [{ path: desired.path, message: `organisation "${desired.key}" does not exist on the server: add owner: USER to create it` }];
  },

  shown({ action, desired }) {
    return action === 'create' ? { [OWNER]: desired!.fields[OWNER] } : undefined;
  },

  dependsOn({ action, shown, scope, ctx }: OpsInput) {
    return action === 'create' ? userChangeIds(ctx, scope, String(shown?.[OWNER])) : [];
  },

  ops({ action, desired, current, changed, shown }) {
    const want = desired!.fields;
    if (action === 'create') {
      const body: Record<string, unknown> = { username: desired!.key };
      for (const f of fields) if (f.name in want) body[f.name] = want[f.name];
      return [{ method: 'POST', path: apiPath('admin', 'users', String(shown?.[OWNER]), 'orgs'), body }];
    }
    const body: Record<string, unknown> = {};
    for (const f of changed) body[f] = want[f];
    return [{ method: 'PATCH', path: apiPath('orgs', current!.key), body }];
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
    for (const k of ['full_name', 'description', 'website', 'location']) if (f[k]) out[k] = f[k];
    out.visibility = f.visibility;
    return out;
  },
};
