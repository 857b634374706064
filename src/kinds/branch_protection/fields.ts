import { bool, field, inEither, inForgejo, inGitea, int, objectSchema, only, serverFields, set, str, type ConfigDoc } from '../fields.js';
import type { EntrySpec, FieldSpec, SchemaFragment } from '../../model/index.js';
import { nameSet } from '../team/fields.js';

/**
 * A list of users or teams: names are case-insensitive on the server, which answers them as it stores
 * them ("Bob" for a config's "bob"), so they are compared lower-cased, as sorted sets.
 */
const accounts = (name: string, doc: ConfigDoc): FieldSpec => field({ name, type: 'set', answer: 'string[]', normalize: nameSet }, doc);

/** Force-push settings, rule order, admin merge override: Gitea 1.23 (#28086, #32286, #32248), in no Forgejo. */
const GITEA_1_23 = inGitea('1.23');
/**
 * In no release: not in Gitea 1.25.4 nor in Gitea main of 2026-04-06 (modules/structs/repo_branch.go),
 * nor in any Forgejo. Only the sandbox's idealised server (gitea@main, which reports 1.27.0) has them,
 * so "1.27" stands for the first release that may.
 */
const UNRELEASED = inGitea('1.27');

/**
 * Every field of Gitea's and Forgejo's EditBranchProtectionOption, with the releases that have it
 * (modules/structs/repo_branch.go of each tag), in the order plans list them. rule_name is the
 * identity and cannot be edited.
 */
export const entries: EntrySpec[] = [
  bool('enable_push', {
    title: 'Allow direct pushes',
    description: 'Allow direct pushes to matching branches. Gitea\'s default is false: a rule with only a name blocks every direct push, so changes land through merged pull requests only. enable_push_whitelist, push_whitelist_deploy_keys and the force-push settings only take effect with enable_push: true.',
    default: false,
  }),
  accounts('push_whitelist_usernames', {
    title: 'Users allowed to push',
    description: 'Users who may push directly when enable_push_whitelist is true. Gitea silently drops users without write access to the code.',
  }),
  accounts('push_whitelist_teams', {
    title: 'Teams allowed to push',
    description: 'Teams whose members may push directly when enable_push_whitelist is true. Organisation repositories only: Gitea ignores team lists on repositories owned by a user.',
  }),
  bool('enable_push_whitelist', {
    title: 'Restrict pushes to a whitelist',
    description: 'Only the users and teams in push_whitelist_usernames / push_whitelist_teams may push directly. Only takes effect with enable_push: true (Gitea drops it otherwise).',
  }),
  bool('push_whitelist_deploy_keys', {
    title: 'Deploy keys may push',
    description: 'Deploy keys with write access may also push. Only takes effect with enable_push: true and enable_push_whitelist: true.',
  }),
  only(GITEA_1_23, bool('enable_force_push', {
    title: 'Allow force pushes',
    description: 'Allow force pushes to matching branches. Only takes effect with enable_push: true. Gitea 1.23 and newer only; Forgejo has no such setting (forgeform refuses it there).',
  })),
  only(GITEA_1_23, bool('enable_force_push_allowlist', {
    title: 'Restrict force pushes to an allowlist',
    description: 'Only the users and teams in force_push_allowlist_usernames / force_push_allowlist_teams may force-push. Only takes effect with enable_push: true and enable_force_push: true. Gitea 1.23 and newer only; Forgejo has no such setting (forgeform refuses it there).',
  })),
  only(GITEA_1_23, accounts('force_push_allowlist_usernames', {
    title: 'Users allowed to force-push',
    description: 'Users who may force-push when enable_force_push_allowlist is true. Gitea 1.23 and newer only; Forgejo has no such setting (forgeform refuses it there).',
  })),
  only(GITEA_1_23, accounts('force_push_allowlist_teams', {
    title: 'Teams allowed to force-push',
    description: 'Teams whose members may force-push when enable_force_push_allowlist is true. Organisation repositories only: Gitea ignores team lists on repositories owned by a user. Gitea 1.23 and newer only; Forgejo has no such setting (forgeform refuses it there).',
  })),
  only(GITEA_1_23, bool('force_push_allowlist_deploy_keys', {
    title: 'Deploy keys may force-push',
    description: 'Deploy keys with write access may also force-push. Only takes effect with enable_push, enable_force_push and enable_force_push_allowlist all true. Gitea 1.23 and newer only; Forgejo has no such setting (forgeform refuses it there).',
  })),
  bool('enable_merge_whitelist', {
    title: 'Restrict merging to a whitelist',
    description: 'Only the users and teams in merge_whitelist_usernames / merge_whitelist_teams may merge pull requests into matching branches.',
  }),
  accounts('merge_whitelist_usernames', {
    title: 'Users allowed to merge',
    description: 'Users who may merge pull requests when enable_merge_whitelist is true.',
  }),
  accounts('merge_whitelist_teams', {
    title: 'Teams allowed to merge',
    description: 'Teams whose members may merge pull requests when enable_merge_whitelist is true. Organisation repositories only: Gitea ignores team lists on repositories owned by a user.',
  }),
  bool('enable_status_check', {
    title: 'Require status checks',
    description: 'Pull requests can be merged only when the checks in status_check_contexts have passed.',
  }),
  set('status_check_contexts', {
    title: 'Required status checks',
    description: 'Status check contexts (glob patterns allowed) that must succeed before a pull request can be merged, when enable_status_check is true.',
  }),
  int('required_approvals', {
    title: 'Required approvals',
    description: 'Number of approving reviews a pull request needs before it can be merged (0: none).',
    minimum: 0,
  }),
  bool('enable_approvals_whitelist', {
    title: 'Count approvals from a whitelist only',
    description: 'Only approvals from approvals_whitelist_username / approvals_whitelist_teams count towards required_approvals.',
  }),
  accounts('approvals_whitelist_username', {
    title: 'Users whose approvals count',
    description: 'Users whose approvals count when enable_approvals_whitelist is true. The API spells this field in the singular.',
  }),
  accounts('approvals_whitelist_teams', {
    title: 'Teams whose approvals count',
    description: 'Teams whose members\' approvals count when enable_approvals_whitelist is true. Organisation repositories only: Gitea ignores team lists on repositories owned by a user.',
  }),
  bool('block_on_rejected_reviews', {
    title: 'Block on rejected reviews',
    description: 'Merging is blocked while an official reviewer has requested changes.',
  }),
  bool('block_on_official_review_requests', {
    title: 'Block on pending official review requests',
    description: 'Merging is blocked while official review requests are pending.',
  }),
  bool('block_on_outdated_branch', {
    title: 'Block on outdated branch',
    description: 'Merging is blocked while the head branch is behind the base branch.',
  }),
  only(UNRELEASED, bool('block_on_codeowner_reviews', {
    title: 'Block until code owners approve',
    description: 'Merging is blocked until the code owners (CODEOWNERS file) have approved. In no released Gitea or Forgejo yet (only Gitea development builds after 1.26): forgeform refuses it on servers that would ignore it.',
  })),
  only(GITEA_1_23, bool('block_admin_merge_override', {
    title: 'No merge override for administrators',
    description: 'Repository administrators may not merge pull requests that do not satisfy this rule. Gitea 1.23 and newer only; Forgejo has no such setting (forgeform refuses it there).',
  })),
  bool('dismiss_stale_approvals', {
    title: 'Dismiss stale approvals',
    description: 'Approvals are dismissed when new commits are pushed to the pull request.',
  }),
  // Gitea 1.22 (#28498); every Forgejo (inherited before v7).
  only(inEither(inGitea('1.22'), inForgejo()), bool('ignore_stale_approvals', {
    title: 'Ignore stale approvals',
    description: 'Approvals given to older commits of the pull request do not count towards required_approvals. Gitea 1.22 and newer, and Forgejo.',
  })),
  bool('require_signed_commits', {
    title: 'Require signed commits',
    description: 'Pushes containing unsigned or unverifiable commits are rejected.',
  }),
  // Forgejo's own (v7.0.0, 79b7089360): the rule binds repository administrators too, for merges and pushes. Gitea has none.
  only(inForgejo(), bool('apply_to_admins', {
    title: 'Apply to administrators',
    description: 'The rule binds repository administrators too: they may not merge past it or push protected files (Forgejo only; Gitea has block_admin_merge_override instead, for merges).',
  })),
  str('protected_file_patterns', {
    title: 'Protected files',
    description: 'Glob patterns separated by ";" of files that may not be changed by direct pushes, even by users allowed to push (e.g. "*.lock;.gitea/**").',
  }),
  str('unprotected_file_patterns', {
    title: 'Unprotected files',
    description: 'Glob patterns separated by ";" of files that users with write access may change directly even when pushing is restricted.',
  }),
  only(UNRELEASED, bool('enable_bypass_allowlist', {
    title: 'Enable the bypass allowlist',
    description: 'The users and teams in bypass_allowlist_usernames / bypass_allowlist_teams may bypass this rule. In no released Gitea or Forgejo yet (only Gitea development builds after 1.26): forgeform refuses it on servers that would ignore it.',
  })),
  only(UNRELEASED, accounts('bypass_allowlist_usernames', {
    title: 'Users who may bypass the rule',
    description: 'Users who may bypass this rule when enable_bypass_allowlist is true. In no released Gitea or Forgejo yet (only Gitea development builds after 1.26): forgeform refuses it on servers that would ignore it.',
  })),
  only(UNRELEASED, accounts('bypass_allowlist_teams', {
    title: 'Teams who may bypass the rule',
    description: 'Teams whose members may bypass this rule when enable_bypass_allowlist is true. Organisation repositories only: Gitea ignores team lists on repositories owned by a user. In no released Gitea or Forgejo yet (only Gitea development builds after 1.26): forgeform refuses it on servers that would ignore it.',
  })),
  only(UNRELEASED, bool('enable_deletion', {
    title: 'Allow deleting the branch',
    description: 'Matching branches may be deleted. In no released Gitea or Forgejo yet (only Gitea development builds after 1.26): forgeform refuses it on servers that would ignore it.',
  })),
  only(UNRELEASED, bool('enable_deletion_allowlist', {
    title: 'Restrict deletion to an allowlist',
    description: 'Only the users and teams in deletion_allowlist_usernames / deletion_allowlist_teams may delete matching branches. Only takes effect with enable_deletion: true. In no released Gitea or Forgejo yet (only Gitea development builds after 1.26): forgeform refuses it on servers that would ignore it.',
  })),
  only(UNRELEASED, accounts('deletion_allowlist_usernames', {
    title: 'Users who may delete the branch',
    description: 'Users who may delete matching branches when enable_deletion_allowlist is true. In no released Gitea or Forgejo yet (only Gitea development builds after 1.26): forgeform refuses it on servers that would ignore it.',
  })),
  only(UNRELEASED, accounts('deletion_allowlist_teams', {
    title: 'Teams who may delete the branch',
    description: 'Teams whose members may delete matching branches when enable_deletion_allowlist is true. Organisation repositories only: Gitea ignores team lists on repositories owned by a user. In no released Gitea or Forgejo yet (only Gitea development builds after 1.26): forgeform refuses it on servers that would ignore it.',
  })),
  only(GITEA_1_23, int('priority', {
    title: 'Priority',
    description: 'Position of this rule among the repository\'s rules when several match a branch (1 = first). Omit it to let Gitea assign one. Gitea 1.23 and newer only; Forgejo has no such setting (forgeform refuses it there).',
    minimum: 1,
  })),

];

export const fields = serverFields(entries);

export const fragment: SchemaFragment = {
  definitions: {
    branch_protection: objectSchema(
      {
        title: 'Branch protection rule',
        description:
          "Settings of one branch protection rule (every field of Gitea's and Forgejo's EditBranchProtectionOption; some exist only in some releases, see docs/servers.md). A field that is not written is not managed. Gitea defaults enable_push to false: a rule with only a name blocks all direct pushes (changes land through merged pull requests only). The push whitelist flags only take effect with enable_push: true.",
      },
      entries,
    ),
  },
};
