import type { CurrentObject, KindExport } from '../../model/index.js';

export const exporting = {
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
} satisfies KindExport;
