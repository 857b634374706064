/** Request bodies of the Actions admin routes. */
import { option, p } from '../../http/options.js';

/** `disabled` is `*bool`; the handler (not a binding rule) answers `[Disabled]: Required` when it is nil. */
export const EditActionRunnerOption = option('EditActionRunnerOption', [p('disabled', 'bool')]);
