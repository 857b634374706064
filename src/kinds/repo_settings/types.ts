// The types the repository settings kind is defined with (defineKind), apart from its modules so that each imports them without a cycle.
import type { RepoConfig } from '../../config/types.js';
import type { KindTypes, Problem } from '../../model/index.js';

/** A repository as the server answers it (its shape checked): the settings are its fields. */
export type ServerRepo = Record<string, unknown> & { id: number; full_name: string; archived?: boolean; topics?: string[] | null };

/** What the kind keeps for one run: per repository, the declared fields withheld because it is archived. */
export interface SettingsRun {
  withheld: Map<string, string[]>;
}

/** What the repository settings kind is typed by: a repository's config, a repository as answered, what its lookups found wrong (branch.ts), its state per run. */
export type RepoSettingsTypes = KindTypes<Pick<RepoConfig, 'settings'>, ServerRepo, Problem[], SettingsRun>;
