/**
 * The request bodies the sandbox binds, as the real server's Go option structs declare them
 * (`modules/structs/*.go`): JSON key, Go field name (used in binding messages such as
 * `[Username]: Required`), type, pointer-ness and `binding:"…"` rules, in struct order.
 *
 * `http/binding.ts` uses these tables to decode and validate bodies exactly as go-chi/binding
 * does, and to compute the `unknownFields` of the request log (keys the struct does not have:
 * the real server ignores them silently).
 *
 * Adding an operation: add its option struct here and pass its name to `bind()` in the route.
 */

export type Scalar = 'string' | 'bool' | 'int' | 'datetime' | 'string[]' | 'int[]' | 'any[]' | 'map';

export interface FieldDef {
  /** JSON key. */
  json: string;
  /** Go field name: `[GoName]: Rule` messages and the snake_case form key derive from it. */
  go: string;
  type: Scalar | OptionDef;
  /** `*T` in Go: absent or null means "not set" (PATCH semantics). */
  pointer?: boolean;
  /** go-chi binding rules in tag order, e.g. `Required`, `MaxSize(40)`, `In(,public,limited,private)`. */
  rules?: string[];
  /** Go type in decode errors when not the default for the type (int → `int64`). */
  goType?: string;
}

export interface OptionDef {
  /** Go struct name, as in `Go struct field CreateLabelOption.name`. */
  name: string;
  fields: FieldDef[];
}

interface FieldOpts {
  go?: string;
  pointer?: boolean;
  rules?: string[];
  goType?: string;
}

const INITIALISMS = new Set(['id', 'url', 'api', 'html', 'ssh', 'uid']);

/** `source_id` → `SourceID`, `html_url` → `HTMLURL`, `rule_name` → `RuleName`. */
function goName(json: string): string {
  return json
    .split('_')
    .map((p) => (INITIALISMS.has(p) ? p.toUpperCase() : p.charAt(0).toUpperCase() + p.slice(1)))
    .join('');
}

function f(json: string, type: Scalar | OptionDef, opts: FieldOpts = {}): FieldDef {
  return { json, go: opts.go ?? goName(json), type, pointer: opts.pointer, rules: opts.rules, goType: opts.goType };
}

/** A pointer field (`*T`): omitted or null leaves the value unchanged. */
function p(json: string, type: Scalar | OptionDef, opts: FieldOpts = {}): FieldDef {
  return f(json, type, { ...opts, pointer: true });
}

function option(name: string, fields: FieldDef[]): OptionDef {
  return { name, fields };
}

// ---- users, organisations, repositories ---------------------------------------------------------

const VISIBILITY_RULE = 'In(,public,limited,private)';

export const CreateUserOption = option('CreateUserOption', [
  f('source_id', 'int'),
  f('login_name', 'string'),
  f('username', 'string', { rules: ['Required', 'Username', 'MaxSize(40)'] }),
  f('full_name', 'string', { rules: ['MaxSize(100)'] }),
  f('email', 'string', { rules: ['Required', 'Email', 'MaxSize(254)'] }),
  f('password', 'string', { rules: ['MaxSize(255)'] }),
  p('must_change_password', 'bool'),
  f('send_notify', 'bool'),
  p('restricted', 'bool'),
  f('visibility', 'string', { rules: [VISIBILITY_RULE] }),
  p('created_at', 'datetime', { go: 'Created' }),
]);

export const CreateOrgOption = option('CreateOrgOption', [
  f('username', 'string', { go: 'UserName', rules: ['Required', 'Username', 'MaxSize(40)'] }),
  f('full_name', 'string', { rules: ['MaxSize(100)'] }),
  f('email', 'string', { rules: ['MaxSize(255)'] }),
  f('description', 'string', { rules: ['MaxSize(255)'] }),
  f('website', 'string', { rules: ['ValidUrl', 'MaxSize(255)'] }),
  f('location', 'string', { rules: ['MaxSize(50)'] }),
  f('visibility', 'string', { rules: [VISIBILITY_RULE] }),
  f('repo_admin_change_team_access', 'bool'),
]);

export const CreateRepoOption = option('CreateRepoOption', [
  f('name', 'string', { rules: ['Required', 'AlphaDashDot', 'MaxSize(100)'] }),
  f('description', 'string', { rules: ['MaxSize(2048)'] }),
  f('private', 'bool'),
  f('issue_labels', 'string'),
  f('auto_init', 'bool'),
  f('template', 'bool'),
  f('gitignores', 'string'),
  f('license', 'string'),
  f('readme', 'string'),
  f('default_branch', 'string', { rules: ['GitRefName', 'MaxSize(100)'] }),
  f('trust_model', 'string'),
  f('object_format_name', 'string', { rules: ['MaxSize(6)'] }),
]);

const InternalTracker = option('InternalTracker', [
  f('enable_time_tracker', 'bool'),
  f('allow_only_contributors_to_track_time', 'bool'),
  f('enable_issue_dependencies', 'bool'),
]);

const ExternalTracker = option('ExternalTracker', [
  f('external_tracker_url', 'string', { go: 'ExternalTrackerURL' }),
  f('external_tracker_format', 'string'),
  f('external_tracker_style', 'string'),
  f('external_tracker_regexp_pattern', 'string'),
]);

const ExternalWiki = option('ExternalWiki', [f('external_wiki_url', 'string', { go: 'ExternalWikiURL' })]);

export const EditRepoOption = option('EditRepoOption', [
  p('name', 'string', { rules: ['OmitEmpty', 'AlphaDashDot', 'MaxSize(100)'] }),
  p('description', 'string', { rules: ['MaxSize(2048)'] }),
  p('website', 'string', { rules: ['MaxSize(1024)'] }),
  p('private', 'bool'),
  p('template', 'bool'),
  p('has_issues', 'bool'),
  p('internal_tracker', InternalTracker),
  p('external_tracker', ExternalTracker),
  p('has_wiki', 'bool'),
  p('external_wiki', ExternalWiki),
  p('default_branch', 'string'),
  p('has_pull_requests', 'bool'),
  p('has_projects', 'bool'),
  p('projects_mode', 'string'),
  p('has_releases', 'bool'),
  p('has_packages', 'bool'),
  p('has_actions', 'bool'),
  p('ignore_whitespace_conflicts', 'bool'),
  p('allow_merge_commits', 'bool', { go: 'AllowMerge' }),
  p('allow_rebase', 'bool'),
  p('allow_rebase_explicit', 'bool', { go: 'AllowRebaseMerge' }),
  p('allow_squash_merge', 'bool', { go: 'AllowSquash' }),
  p('allow_fast_forward_only_merge', 'bool', { go: 'AllowFastForwardOnly' }),
  p('allow_manual_merge', 'bool'),
  p('autodetect_manual_merge', 'bool'),
  p('allow_rebase_update', 'bool'),
  p('default_delete_branch_after_merge', 'bool'),
  p('default_merge_style', 'string'),
  p('default_allow_maintainer_edit', 'bool'),
  p('archived', 'bool'),
  p('mirror_interval', 'string'),
  p('enable_prune', 'bool'),
]);

// ---- branch protections -------------------------------------------------------------------------

const BRANCH_PROTECTION_FIELDS: FieldDef[] = [
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
];

export const CreateBranchProtectionOption = option('CreateBranchProtectionOption', BRANCH_PROTECTION_FIELDS);

/** Every field a pointer (PATCH semantics); no `rule_name` / `branch_name`. */
export const EditBranchProtectionOption = option(
  'EditBranchProtectionOption',
  BRANCH_PROTECTION_FIELDS.filter((d) => d.json !== 'rule_name' && d.json !== 'branch_name').map((d) => ({ ...d, pointer: true })),
);

export const UpdateBranchProtectionPriories = option('UpdateBranchProtectionPriories', [f('ids', 'int[]', { go: 'IDs' })]);

// ---- labels and issues --------------------------------------------------------------------------

export const CreateLabelOption = option('CreateLabelOption', [
  f('name', 'string', { rules: ['Required'] }),
  f('exclusive', 'bool'),
  f('color', 'string', { rules: ['Required'] }),
  f('description', 'string'),
  f('is_archived', 'bool'),
]);

export const EditLabelOption = option('EditLabelOption', [
  p('name', 'string'),
  p('exclusive', 'bool'),
  p('color', 'string'),
  p('description', 'string'),
  p('is_archived', 'bool'),
]);

export const CreateIssueOption = option('CreateIssueOption', [
  f('title', 'string', { rules: ['Required'] }),
  f('body', 'string'),
  f('ref', 'string'),
  f('assignee', 'string'),
  f('assignees', 'string[]'),
  p('due_date', 'datetime', { go: 'Deadline' }),
  f('milestone', 'int'),
  f('labels', 'int[]'),
  f('closed', 'bool'),
]);

export const EditIssueOption = option('EditIssueOption', [
  f('title', 'string'),
  p('body', 'string'),
  p('ref', 'string'),
  p('assignee', 'string'),
  f('assignees', 'string[]'),
  p('milestone', 'int'),
  p('state', 'string'),
  p('due_date', 'datetime', { go: 'Deadline' }),
  p('unset_due_date', 'bool', { go: 'RemoveDeadline' }),
  p('content_version', 'int'),
  f('projects', 'int[]'),
]);

/** `labels` is `[]interface{}`: numbers are ids, strings are names (checked by the handler). */
export const IssueLabelsOption = option('IssueLabelsOption', [f('labels', 'any[]')]);

export const CreateMilestoneOption = option('CreateMilestoneOption', [
  f('title', 'string'),
  f('description', 'string'),
  p('due_on', 'datetime', { go: 'Deadline' }),
  f('state', 'string'),
]);

// ---- Actions runners, markdown / markup ---------------------------------------------------------

/** `disabled` is `*bool`; the handler (not a binding rule) answers `[Disabled]: Required` when it is nil. */
export const EditActionRunnerOption = option('EditActionRunnerOption', [p('disabled', 'bool')]);

/** No json tags: the keys are the Go field names (matched case-insensitively). */
export const MarkdownOption = option('MarkdownOption', [f('Text', 'string'), f('Mode', 'string'), f('Context', 'string'), f('Wiki', 'bool')]);

export const MarkupOption = option('MarkupOption', [f('Text', 'string'), f('Mode', 'string'), f('Context', 'string'), f('Wiki', 'bool'), f('FilePath', 'string')]);

// ---- admin users, keys, badges, organisations, hooks (routes/admin-*.ts) ------------------------

/**
 * A Go `*string` whose binding rules the newest binder runs on the pointed-to value (behavior.md
 * §7.3: a non-URL `website` is a 422 on user PATCH). Declared plain: the decoder only sets keys
 * that are present, so the handlers still see "omitted" as undefined.
 */
const ps = (json: string, rules: string[], opts: FieldOpts = {}): FieldDef => f(json, 'string', { ...opts, rules });

/** `login_name` is `binding:"Required"` at `9d3f04eb` (`[LoginName]: Required`); `source_id` 0 = unchanged. */
export const EditUserOption = option('EditUserOption', [
  f('source_id', 'int'),
  f('login_name', 'string', { rules: ['Required'] }),
  ps('email', ['MaxSize(254)']),
  ps('full_name', ['MaxSize(100)']),
  f('password', 'string', { rules: ['MaxSize(255)'] }),
  p('must_change_password', 'bool'),
  ps('website', ['OmitEmpty', 'ValidUrl', 'MaxSize(255)']),
  ps('location', ['MaxSize(50)']),
  ps('description', ['MaxSize(255)']),
  p('active', 'bool'),
  p('admin', 'bool'),
  p('allow_git_hook', 'bool'),
  p('allow_import_local', 'bool'),
  p('max_repo_creation', 'int', { goType: 'int' }),
  p('prohibit_login', 'bool'),
  p('allow_create_organization', 'bool'),
  p('restricted', 'bool'),
  f('visibility', 'string', { rules: [VISIBILITY_RULE] }),
]);

/** JSON `new_username`, form key `new_name`. */
export const RenameUserOption = option('RenameUserOption', [f('new_username', 'string', { go: 'NewName', rules: ['Required'] })]);

export const UserBadgeOption = option('UserBadgeOption', [f('badge_slugs', 'string[]', { rules: ['Required'] })]);

export const CreateKeyOption = option('CreateKeyOption', [
  f('title', 'string', { rules: ['Required'] }),
  f('key', 'string', { rules: ['Required'] }),
  f('read_only', 'bool'),
]);

/** Newest generation: every field a pointer (only given fields change). */
export const EditOrgOption = option('EditOrgOption', [
  ps('full_name', ['MaxSize(100)']),
  ps('email', ['MaxSize(255)']),
  ps('description', ['MaxSize(255)']),
  ps('website', ['ValidUrl', 'MaxSize(255)']),
  ps('location', ['MaxSize(50)']),
  ps('visibility', [VISIBILITY_RULE]),
  p('repo_admin_change_team_access', 'bool'),
]);

/** `config` is a free-form string map (`CreateHookOptionConfig`): its keys are never unknown fields. */
export const CreateHookOption = option('CreateHookOption', [
  f('type', 'string', { rules: ['Required'] }),
  f('config', 'map', { rules: ['Required'], goType: 'structs.CreateHookOptionConfig' }),
  f('events', 'string[]'),
  f('branch_filter', 'string', { rules: ['GlobPattern'] }),
  f('authorization_header', 'string'),
  f('active', 'bool'),
  f('name', 'string', { rules: ['MaxSize(255)'] }),
]);

export const EditHookOption = option('EditHookOption', [
  f('config', 'map'),
  f('events', 'string[]'),
  f('branch_filter', 'string', { rules: ['GlobPattern'] }),
  f('authorization_header', 'string'),
  p('active', 'bool'),
  p('name', 'string'),
]);

const ACCOUNT_OPTIONS = [EditUserOption, RenameUserOption, UserBadgeOption, CreateKeyOption, EditOrgOption, CreateHookOption, EditHookOption];

/** All option structs by Go name. */
export const OPTIONS: Record<string, OptionDef> = Object.fromEntries(
  [
    CreateUserOption,
    ...ACCOUNT_OPTIONS,
    CreateOrgOption,
    CreateRepoOption,
    EditRepoOption,
    CreateBranchProtectionOption,
    EditBranchProtectionOption,
    EditActionRunnerOption,
    MarkdownOption,
    MarkupOption,
    UpdateBranchProtectionPriories,
    CreateLabelOption,
    EditLabelOption,
    CreateIssueOption,
    EditIssueOption,
    IssueLabelsOption,
    CreateMilestoneOption,
  ].map((o) => [o.name, o]),
);

/** The JSON keys of an option struct (nested ones as dotted paths). */
export function knownFields(opt: OptionDef, prefix = ''): string[] {
  return opt.fields.flatMap((d) => (typeof d.type === 'object' ? [prefix + d.json, ...knownFields(d.type, `${prefix}${d.json}.`)] : [prefix + d.json]));
}
