import type { CurrentObject, KindExport } from '../../model/index.js';

export const exporting = {
  /** Push mirrors are a list in the config: their identity is the remote address, not a map key. */
  exportInto(entry, objects) {
    entry.push_mirrors = Object.values(objects);
  },
  /** What plans it again with no change; the credentials are never answered, so never exported. */
  toConfig(current: CurrentObject) {
    const f = current.fields;
    const out: Record<string, unknown> = { remote_address: current.key, interval: f.interval, sync_on_commit: f.sync_on_commit };
    if (f.branch_filter) out.branch_filter = f.branch_filter;
    return out;
  },
} satisfies KindExport;
