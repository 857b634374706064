/** Request bodies of the user routes (`modules/structs/admin_user.go`, `user_key.go`, …). */
import { f, option, p, ps, VISIBILITY_RULE } from '../../http/options.js';

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
  // Forgejo only (v7.0.16 `modules/structs/admin_user.go` l.44: `*string`, `MaxSize(50)`).
  ps('pronouns', ['MaxSize(50)']),
]);

/** `DeleteEmailOption` (`modules/structs/user_email.go`). */
export const DeleteEmailOption = option('DeleteEmailOption', [f('emails', 'string[]')]);

/** JSON `new_username`, form key `new_name`. */
export const RenameUserOption = option('RenameUserOption', [f('new_username', 'string', { go: 'NewName', rules: ['Required'] })]);

export const UserBadgeOption = option('UserBadgeOption', [f('badge_slugs', 'string[]', { rules: ['Required'] })]);

export const CreateKeyOption = option('CreateKeyOption', [
  f('title', 'string', { rules: ['Required'] }),
  f('key', 'string', { rules: ['Required'] }),
  f('read_only', 'bool'),
]);

