/** Request bodies of the branch protection routes (`modules/structs/repo_branch.go`). */
import { f, option } from '../../http/options.js';

const BRANCH_PROTECTION_FIELDS = [
  f('branch_name', 'string'),
  f('rule_name', 'string'),
  f('priority', 'int'),
  f('enable_push', 'bool'),
  f('enable_push_whitelist', 'bool'),
  f('push_whitelist_usernames', 'string[]'),
  f('push_whitelist_teams', 'string[]'),
  f('push_whitelist_deploy_keys', 'bool'),
  f('enable_force_push', 'bool'),
  f('enable_force_push_allowlist', 'bool'),
  f('force_push_allowlist_usernames', 'string[]'),
  f('force_push_allowlist_teams', 'string[]'),
  f('force_push_allowlist_deploy_keys', 'bool'),
  f('enable_merge_whitelist', 'bool'),
  f('merge_whitelist_usernames', 'string[]'),
  f('merge_whitelist_teams', 'string[]'),
  f('enable_bypass_allowlist', 'bool'),
  f('bypass_allowlist_usernames', 'string[]'),
  f('bypass_allowlist_teams', 'string[]'),
  f('enable_deletion', 'bool'),
  f('enable_deletion_allowlist', 'bool'),
  f('deletion_allowlist_usernames', 'string[]'),
  f('deletion_allowlist_teams', 'string[]'),
  f('enable_status_check', 'bool'),
  f('status_check_contexts', 'string[]'),
  f('required_approvals', 'int'),
  f('enable_approvals_whitelist', 'bool'),
  f('approvals_whitelist_username', 'string[]', { go: 'ApprovalsWhitelistUsernames' }),
  f('approvals_whitelist_teams', 'string[]'),
  f('block_on_rejected_reviews', 'bool'),
  f('block_on_official_review_requests', 'bool'),
  f('block_on_codeowner_reviews', 'bool'),
  f('block_on_outdated_branch', 'bool'),
  f('dismiss_stale_approvals', 'bool'),
  f('ignore_stale_approvals', 'bool'),
  f('require_signed_commits', 'bool'),
  f('protected_file_patterns', 'string'),
  f('unprotected_file_patterns', 'string'),
  f('block_admin_merge_override', 'bool'),
  f('apply_to_admins', 'bool'),
];

export const CreateBranchProtectionOption = option('CreateBranchProtectionOption', BRANCH_PROTECTION_FIELDS);

/** Every field a pointer (PATCH semantics); no `rule_name` / `branch_name`. */
export const EditBranchProtectionOption = option(
  'EditBranchProtectionOption',
  BRANCH_PROTECTION_FIELDS.filter((d): d is Exclude<typeof d, { json: 'rule_name' | 'branch_name' }> => d.json !== 'rule_name' && d.json !== 'branch_name').map((d) => ({ ...d, pointer: true })),
);

export const UpdateBranchProtectionPriories = option('UpdateBranchProtectionPriories', [f('ids', 'int[]', { go: 'IDs' })]);
