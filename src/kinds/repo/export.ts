import type { CurrentObject, KindExport } from '../../model/index.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A repository exported as what makes it again: a pull mirror's `mirror: {from, interval}` (read.ts
 * reads `from` without credentials), so that a repository deleted by mistake comes back as the mirror
 * it was, not as an empty repository. Its user name and password are write-only (no release answers
 * them): the user adds them, from the environment, to recreate a mirror that needs them. Another
 * repository has nothing of its own to export (its settings are repo_settings').
 */
export const exporting = {
  // The repositories export writes, and no other: read.ts reads those named, from the GETs the scopes made.
  exportedWithScopes: true,

  toConfig(current: CurrentObject) {
    const { from, interval } = current.fields;
    // No source answered (Go's url.Parse refused the stored one: SanitizedOriginalURL answers ""): nothing a config could create it from.
    if (typeof from !== 'string' || from === '') return {};
    // An interval the release did not answer (it always does for a mirror) is left to the server's default.
    return { from, ...(typeof interval === 'string' && interval !== '' ? { interval } : {}) };
  },

  /** `repos."owner/name".mirror`, first in the repository's entry. */
  exportInto(config, objects) {
    const repos: Record<string, unknown> = isRecord(config.repos) ? config.repos : (config.repos = {});
    for (const [name, mirror] of Object.entries(objects)) {
      if (!Object.keys(mirror).length) continue;
      const scoped = repos[name];
      repos[name] = { mirror, ...(isRecord(scoped) ? scoped : {}) };
    }
  },
} satisfies KindExport;
