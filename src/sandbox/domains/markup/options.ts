/** Request bodies of the rendering routes (`modules/structs/miscellaneous.go`). */
import { f, option } from '../../http/options.js';

/** No json tags: the keys are the Go field names (matched case-insensitively). */
export const MarkdownOption = option('MarkdownOption', [f('Text', 'string'), f('Mode', 'string'), f('Context', 'string'), f('Wiki', 'bool')]);

export const MarkupOption = option('MarkupOption', [f('Text', 'string'), f('Mode', 'string'), f('Context', 'string'), f('Wiki', 'bool'), f('FilePath', 'string')]);
