/** Request bodies of the admin hook routes (`modules/structs/hook.go`). */
import { f, option, p } from '../../http/options.js';

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
