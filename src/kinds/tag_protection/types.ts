// The types the tag_protection kind is defined with (defineKind), apart from its modules so that each imports them without a cycle.
import type { RepoConfig } from '../../config/types.js';
import type { KindTypes } from '../../model/index.js';
import type { AccountsRun, KnownAccounts } from '../branch_protection/types.js';

/** A tag protection as the server answers it (api.TagProtection; its shape checked, see read.ts). */
export type ServerTagProtection = Record<string, unknown> & { id: number; name_pattern: string };

/** The accounts the allowlists name, as looked up (shared with branch protections, with the access each will have after the plan). */
export type TagAccounts = KnownAccounts;

/** What the kind keeps for one run: the branch protections' account lookups, and what prepare found per repository. */
export interface TagProtectionRun extends AccountsRun {
  tagAccounts: Map<string, TagAccounts>;
}

/** What the kind is typed by: its section of the repository's config, a tag protection as answered, the accounts looked up, its state per run. */
export type TagProtectionTypes = KindTypes<Pick<RepoConfig, 'tag_protections'>, ServerTagProtection, TagAccounts, TagProtectionRun>;
