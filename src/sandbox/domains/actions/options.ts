/** Request bodies of the Actions admin routes. */
import { f, option, p } from '../../http/options.js';

/** `disabled` is `*bool`; the handler (not a binding rule) answers `[Disabled]: Required` when it is nil. */
export const EditActionRunnerOption = option('EditActionRunnerOption', [p('disabled', 'bool')]);

/** Forgejo 15's `RegisterRunnerOptions` (v15.0.3 `modules/structs/runner.go` l.8–23): `name` required. */
export const RegisterRunnerOption = option('RegisterRunnerOptions', [f('name', 'string', { rules: ['Required'] }), f('description', 'string'), f('ephemeral', 'bool')]);
