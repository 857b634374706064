import type { CurrentObject, KindExport } from '../../model/index.js';

export const exporting = {
  toConfig(current: CurrentObject) {
    const f = current.fields;
    const out: Record<string, unknown> = { color: f.color };
    if (f.description) out.description = f.description;
    if (f.exclusive) out.exclusive = true;
    if (f.is_archived) out.is_archived = true;
    return out;
  },
} satisfies KindExport;
