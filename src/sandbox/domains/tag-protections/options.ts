/** Request bodies of the tag protection routes (`modules/structs/repo_tag.go`). */
import { f, option, p } from '../../http/options.js';

export const CreateTagProtectionOption = option('CreateTagProtectionOption', [
  f('name_pattern', 'string'),
  f('whitelist_usernames', 'string[]'),
  f('whitelist_teams', 'string[]'),
]);

/** Every field a pointer: an absent one is left as it is. */
export const EditTagProtectionOption = option('EditTagProtectionOption', [
  p('name_pattern', 'string'),
  p('whitelist_usernames', 'string[]'),
  p('whitelist_teams', 'string[]'),
]);
