import type { CurrentObject, KindExport } from '../../model/index.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const exporting = {
  /** The organisation's settings first, then whatever its scope kinds (labels) add. */
  exportInto(config, objects) {
    const orgs: Record<string, unknown> = isRecord(config.orgs) ? config.orgs : (config.orgs = {});
    for (const [name, settings] of Object.entries(objects)) {
      const scoped = orgs[name];
      orgs[name] = { ...settings, ...(isRecord(scoped) ? scoped : {}) };
    }
  },
  toConfig(current: CurrentObject) {
    const f = current.fields;
    const out: Record<string, unknown> = {};
    for (const k of ['full_name', 'description', 'website', 'location', 'email']) if (f[k]) out[k] = f[k];
    out.visibility = f.visibility;
    return out;
  },
} satisfies KindExport;
