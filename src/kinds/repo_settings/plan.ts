import { normalizeFields } from '../fields.js';
import type { Planning, Problem, Safety, Writing } from '../../model/index.js';
import { defaultBranchProblems } from './branch.js';
import { fields, PULL_REQUEST_SETTINGS } from './fields.js';
import type { RepoSettingsTypes, SettingsRun } from './types.js';

export function runState(): SettingsRun {
  return { withheld: new Map() };
}

export const planning = {
  /**
   * The repository's one settings object, keyed by its full name. An archived repository that this
   * configuration does not un-archive is read-only: its declared settings other than `archived` are
   * withheld (and named in a warning, see notices).
   */
  async desired({ entry, scope, run }) {
    const declared = entry?.settings;
    if (!declared) return undefined;
    let wanted = normalizeFields(fields, { ...declared }, true);
    if (scope.repo?.archived && wanted.archived !== false) {
      const withheld = Object.keys(wanted).filter((k) => k !== 'archived');
      if (withheld.length) run.withheld.set(scope.name, withheld);
      wanted = 'archived' in wanted ? { archived: wanted.archived } : {};
    }
    return { objects: [{ key: scope.name, fields: wanted, path: ['repos', scope.name, 'settings'] }], problems: [] };
  },

  notices({ scope, run }) {
    const withheld = run.withheld.get(scope.name);
    if (!withheld) return [];
    return [`${scope.name} is archived, so forgeform writes nothing else to it: ${withheld.join(', ')} not compared (write archived: false to un-archive it first)`];
  },

  /** Gitea keeps a pull-request setting only in a PATCH that enables the pull-request unit (updateRepoUnits). */
  check({ desired, current, prepared }) {
    const prs = desired.fields.has_pull_requests ?? current?.fields.has_pull_requests;
    if (prs !== false) return prepared;
    const named = PULL_REQUEST_SETTINGS.filter((n) => n in desired.fields);
    if (!named.length) return prepared;
    const problems: Problem[] = named.map((n) => ({
      path: [...desired.path, n],
      message: `${n} needs the pull-request unit: ${desired.key} has has_pull_requests: false, and Gitea keeps pull-request settings only while it is enabled`,
    }));
    return [...problems, ...prepared];
  },
} satisfies Planning<RepoSettingsTypes>;

export const preparing = {
  prepare: defaultBranchProblems,
} satisfies Pick<Writing<RepoSettingsTypes>, 'prepare'>;

export const safety = {
  /** Un-archiving (archived: true → false) makes the repository writable for the other kinds' changes, which wait for it. */
  liftsReadOnly(change) {
    return change.fields.some((f) => f.path === 'archived' && f.before === true && f.after === false);
  },
  /** Archiving (to archived: true) makes the repository read-only: Gitea refuses most writes there after it (423 repo is archived). */
  makesReadOnly(change) {
    return change.fields.some((f) => f.path === 'archived' && f.after === true && f.before !== true);
  },
} satisfies Safety<RepoSettingsTypes>;
