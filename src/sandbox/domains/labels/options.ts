/** Request bodies of the label routes (`modules/structs/issue_label.go`). */
import { f, option, p } from '../../http/options.js';

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
