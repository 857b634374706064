import { normalizeFields, str, text, shapeOfFields } from '../fields.js';
import { LOCK_ORG } from '../../model/index.js';
import type { FieldSpec, KindReading } from '../../model/index.js';

export const fields: FieldSpec[] = [str('full_name'), text('description'), str('visibility'), str('website'), str('location'), str('email')];

/** An organisation as answered: `name` (Gitea ≥ 1.?) or `username` names it. */
export const shape = shapeOfFields(fields, { id: 'id', name: 'string?', username: 'string?' });

export const reading = {
  fields,
  shape,

  async read(_scope, { client }) {
    const raw = await client.list<unknown>('admin/orgs', { object: 'organisations', shape });
    // apply's lock (src/lock/lock.ts) is no organisation of the configuration: never planned, exported or pruned.
    return raw.map((r) => this.fromServer(r)).filter((o) => o.key.toLowerCase() !== LOCK_ORG);
  },
  fromServer(raw) {
    const r = raw as Record<string, unknown>;
    return { key: String(r.name ?? r.username), id: Number(r.id), fields: normalizeFields(fields, r, false) };
  },
} satisfies KindReading;
