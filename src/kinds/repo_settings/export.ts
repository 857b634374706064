import type { CurrentObject, KindExport } from '../../model/index.js';
import { PULL_REQUEST_SETTINGS } from './fields.js';

const PR_SETTINGS: ReadonlySet<string> = new Set(PULL_REQUEST_SETTINGS);

/**
 * A repository's settings as a config writes them, so that planning the export against the same
 * server finds nothing to change: every field the answer carries (export leaves out those the release
 * lacks), but the pull-request settings only while the unit is enabled (otherwise Gitea answers
 * defaults that cannot be written), and of an archived repository only `archived` (nothing else is
 * written to it).
 */
export const exporting = {
  toConfig(current: CurrentObject) {
    const f = current.fields;
    if (f.archived === true) return { archived: true };
    return Object.fromEntries(Object.entries(f).filter(([k]) => f.has_pull_requests !== false || !PR_SETTINGS.has(k)));
  },

  /** `settings:` holds the repository's one object, not a map by key. */
  exportInto(entry: Record<string, unknown>, objects: Record<string, Record<string, unknown>>) {
    const [only] = Object.values(objects);
    if (only) entry.settings = only;
  },
} satisfies KindExport;
