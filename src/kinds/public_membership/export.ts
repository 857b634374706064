import type { CurrentObject, KindExport } from '../../model/index.js';

/** `public_members:` is the set itself; an organisation without public members writes none (its members are not managed then). */
export const exporting = {
  toConfig(current: CurrentObject) {
    return { members: current.fields.members };
  },

  exportInto(entry: Record<string, unknown>, objects: Record<string, Record<string, unknown>>) {
    const [only] = Object.values(objects);
    if (Array.isArray(only?.members) && only.members.length) entry.public_members = only.members;
  },
} satisfies KindExport;
