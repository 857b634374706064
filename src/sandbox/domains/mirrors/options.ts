/**
 * Request bodies of the push mirror routes (`modules/structs/mirror.go`). `use_ssh` exists from Forgejo 9 (v9.0.0
 * l.15), `branch_filter` from Forgejo 13 (v13.0.0 l.16; the swagger tables say which played release has which key).
 */
import { f, option } from '../../http/options.js';

export const CreatePushMirrorOption = option('CreatePushMirrorOption', [
  f('remote_address', 'string'),
  f('remote_username', 'string'),
  f('remote_password', 'string'),
  f('interval', 'string'),
  f('sync_on_commit', 'bool'),
  f('use_ssh', 'bool'),
  f('branch_filter', 'string'),
]);

/** `POST /repos/migrate` (`MigrateRepoOptions`); the AWS keys exist from Gitea 1.23 (the swagger tables say which release has which key). */
export const MigrateRepoOptions = option('MigrateRepoOptions', [
  f('clone_addr', 'string', { rules: ['Required'] }),
  f('uid', 'int', { go: 'RepoOwnerID' }),
  f('repo_owner', 'string'),
  f('repo_name', 'string', { rules: ['Required', 'AlphaDashDot', 'MaxSize(100)'] }),
  f('service', 'string'),
  f('auth_username', 'string'),
  f('auth_password', 'string'),
  f('auth_token', 'string'),
  f('mirror', 'bool'),
  f('lfs', 'bool', { go: 'LFS' }),
  f('lfs_endpoint', 'string', { go: 'LFSEndpoint' }),
  f('private', 'bool'),
  f('description', 'string', { rules: ['MaxSize(2048)'] }),
  f('wiki', 'bool'),
  f('milestones', 'bool'),
  f('labels', 'bool'),
  f('issues', 'bool'),
  f('pull_requests', 'bool'),
  f('releases', 'bool'),
  f('mirror_interval', 'string'),
  f('aws_access_key_id', 'string', { go: 'AWSAccessKeyID' }),
  f('aws_secret_access_key', 'string', { go: 'AWSSecretAccessKey' }),
]);
