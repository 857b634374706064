import type { CurrentObject, KindExport } from '../../model/index.js';

export const exporting = {
  toConfig(current: CurrentObject) {
    const f = current.fields;
    const out: Record<string, unknown> = { value: f.value };
    if (typeof f.description === 'string' && f.description !== '') out.description = f.description;
    return out;
  },
} satisfies KindExport;
