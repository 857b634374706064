import type { CurrentObject, KindExport } from '../../model/index.js';
import { fields } from './read.js';

export const exporting = {
  toConfig(current: CurrentObject) {
    const out: Record<string, unknown> = {};
    for (const spec of fields) {
      const v = current.fields[spec.name];
      if (spec.name === 'priority') continue; // auto-assigned by the server; exporting it would pin the order
      if (Array.isArray(v) ? v.length > 0 : v !== false && v !== 0 && v !== '') out[spec.name] = v;
    }
    // enable_push false is the server default but the most important fact of a rule: always state it.
    out.enable_push = current.fields.enable_push;
    return out;
  },
} satisfies KindExport;
