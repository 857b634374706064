// The types the branch protection kind is defined with (defineKind), apart from its modules so that each imports them without a cycle.
import type { RepoConfig } from '../../config/types.js';
import type { DesiredObject, KindTypes } from '../../model/index.js';

/** Which accounts exist, lower-cased (Gitea's names are case-insensitive); undefined = not looked up. */
export interface KnownAccounts {
  users: Map<string, 'exists' | 'missing' | 'renamed'>;
  teams?: Set<string>;
  /** Users a list adds that Gitea would drop from it (or from its answer) for want of access after the plan ("FIELD name", lower-cased → the access needed and why). */
  noAccess?: Map<string, { need: 'write' | 'reader'; reason: string }>;
  /** Teams a list adds that will not have the repository (or not enough of it) after the plan (lower-cased → why). */
  teamsWithoutRepo?: Map<string, string>;
}

/** What a kind whose objects name accounts keeps for one run (a plan, or the check and apply of a saved plan): branch and tag protections. */
export interface AccountsRun {
  /** One team list per organisation, whichever repositories ask. */
  teams: Map<string, Promise<Set<string>>>;
  /**
   * The lists as the config wrote them: the desired fields are sorted sets, but an error points at the
   * entry's own place in the list (lists are never merged, so the index is that of the entry that set it).
   */
  declared: WeakMap<DesiredObject, Record<string, unknown>>;
  /** The accounts each repository's rules name, as prepare looked them up (by scope name): what the guard judges at apply. */
  accounts: Map<string, KnownAccounts>;
  /** The changes of this plan that give the users and teams a repository's objects name their access (by scope name, then `user:NAME` or `team:NAME` lower-cased): the objects wait for them. */
  grants: Map<string, Map<string, string[]>>;
}

/** A rule as the server answers it (its shape checked): the fields by their names. */
export type ServerRule = Record<string, unknown> & { rule_name?: string | null; branch_name?: string | null };

export type BranchProtectionRun = AccountsRun;

/** What the branch protection kind is typed by: a repository's config, the rule as answered, the accounts looked up, its state per run. */
export type BranchProtectionTypes = KindTypes<RepoConfig, ServerRule, KnownAccounts, BranchProtectionRun>;

/** What the account lookup asks of the kind using it (its server answer does not matter to it). */
export type AccountTypes = KindTypes<unknown, unknown, KnownAccounts, AccountsRun>;
