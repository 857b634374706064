import type { CurrentObject, KindExport } from '../../model/index.js';

export const exporting = {
  /** The key as the server stores it and its access: what plans again with no change. */
  toConfig(current: CurrentObject) {
    return { key: current.fields.key, read_only: current.fields.read_only };
  },
} satisfies KindExport;
