import { apiPath } from '../../gitea/path.js';
import { bool, inEither, inForgejo, inGitea, int, normalizeFields, only, set, str, shapeOfFields } from '../fields.js';
import { splitRepo, type FieldSpec, type KindReading } from '../../model/index.js';

/** Force-push settings, rule order, admin merge override: Gitea 1.23 (#28086, #32286, #32248), in no Forgejo. */
const GITEA_1_23 = inGitea('1.23');
/**
 * In no release: not in Gitea 1.25.4 nor in Gitea main of 2026-04-06 (modules/structs/repo_branch.go),
 * nor in any Forgejo. Only the sandbox's idealised server (gitea@main, which reports 1.27.0) has them,
 * so "1.27" stands for the first release that may.
 */
const UNRELEASED = inGitea('1.27');

// Every field of Gitea's and Forgejo's EditBranchProtectionOption, with the releases that have it (modules/structs/repo_branch.go of each tag).
// rule_name is the identity and cannot be edited.
export const fields: FieldSpec[] = [
  bool('enable_push'), set('push_whitelist_usernames'), set('push_whitelist_teams'), bool('enable_push_whitelist'), bool('push_whitelist_deploy_keys'),
  only(GITEA_1_23, bool('enable_force_push')), only(GITEA_1_23, bool('enable_force_push_allowlist')), only(GITEA_1_23, set('force_push_allowlist_usernames')), only(GITEA_1_23, set('force_push_allowlist_teams')), only(GITEA_1_23, bool('force_push_allowlist_deploy_keys')),
  bool('enable_merge_whitelist'), set('merge_whitelist_usernames'), set('merge_whitelist_teams'),
  bool('enable_status_check'), set('status_check_contexts'),
  int('required_approvals'), bool('enable_approvals_whitelist'), set('approvals_whitelist_username'), set('approvals_whitelist_teams'),
  bool('block_on_rejected_reviews'), bool('block_on_official_review_requests'), bool('block_on_outdated_branch'), only(UNRELEASED, bool('block_on_codeowner_reviews')),
  only(GITEA_1_23, bool('block_admin_merge_override')), bool('dismiss_stale_approvals'),
  // Gitea 1.22 (#28498); every Forgejo (inherited before v7).
  only(inEither(inGitea('1.22'), inForgejo()), bool('ignore_stale_approvals')),
  bool('require_signed_commits'),
  // Forgejo's own (v7.0.0, 79b7089360): the rule binds repository administrators too, for merges and pushes. Gitea has none.
  only(inForgejo(), bool('apply_to_admins')),
  str('protected_file_patterns'), str('unprotected_file_patterns'),
  only(UNRELEASED, bool('enable_bypass_allowlist')), only(UNRELEASED, set('bypass_allowlist_usernames')), only(UNRELEASED, set('bypass_allowlist_teams')),
  only(UNRELEASED, bool('enable_deletion')), only(UNRELEASED, bool('enable_deletion_allowlist')), only(UNRELEASED, set('deletion_allowlist_usernames')), only(UNRELEASED, set('deletion_allowlist_teams')),
  only(GITEA_1_23, int('priority')),
];

/** A rule as answered: `rule_name` (or `branch_name` before it) names it. */
export const shape = shapeOfFields(fields, { rule_name: 'string?', branch_name: 'string?' });

export const reading = {
  fields,
  shape,

  async read(scope, { client }) {
    const [owner, repo] = splitRepo(scope.name);
    // One unpaged call returns every rule of the repository.
    const raw = await client.get<unknown[]>(apiPath('repos', owner, repo, 'branch_protections'), {
      object: `branch protections of ${scope.name}`,
      expect: 'list',
      shape,
    });
    return (raw ?? []).map((r) => this.fromServer(r));
  },

  fromServer(raw) {
    const r = raw as Record<string, unknown>;
    return { key: String(r.rule_name ?? r.branch_name), fields: normalizeFields(fields, r, false) };
  },
} satisfies KindReading;
