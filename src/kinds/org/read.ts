import { normalizeFields, shapeOfFields } from '../fields.js';
import { LOCK_ORG } from '../../model/index.js';
import type { KindReading } from '../../model/index.js';
import { fields } from './fields.js';

export { fields } from './fields.js';

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
