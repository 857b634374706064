/** Request bodies of the repository routes (`modules/structs/repo.go`). */
import { f, option, p } from '../../http/options.js';

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
