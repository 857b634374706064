import type { CurrentObject, KindExport } from '../../model/index.js';

/** A protection as config: its non-empty allowlists (an empty one is what the server answers when none is set). */
export const exporting = {
  toConfig(current: CurrentObject) {
    const out: Record<string, unknown> = {};
    for (const name of ['whitelist_usernames', 'whitelist_teams']) {
      const v = current.fields[name];
      if (Array.isArray(v) && v.length > 0) out[name] = v;
    }
    return out;
  },
} satisfies KindExport;
