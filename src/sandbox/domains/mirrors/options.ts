/**
 * Request bodies of the push mirror routes (`modules/structs/mirror.go`). `use_ssh` exists from Forgejo 11,
 * `branch_filter` in Forgejo 15 (the swagger tables say which release has which key).
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
