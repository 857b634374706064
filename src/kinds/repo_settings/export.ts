import type { CurrentObject, KindExport } from '../../model/index.js';

/**
 * A repository's settings as a config writes them: every field the answer carries (availability is
 * applied by export), so that planning the export against the same server finds nothing to change.
 */
export const exporting = {
  toConfig(current: CurrentObject) {
    return { ...current.fields };
  },
} satisfies KindExport;
