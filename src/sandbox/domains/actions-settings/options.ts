/** Request bodies of the Actions secret and variable routes (`modules/structs/secret.go`, `variable.go`). */
import { f, option } from '../../http/options.js';

/** `data` required; `description` from Gitea 1.24 (the release's swagger table decides whether it is bound). */
export const CreateOrUpdateSecretOption = option('CreateOrUpdateSecretOption', [f('data', 'string', { rules: ['Required'] }), f('description', 'string')]);

/** `value` required; `description` from Gitea 1.24. */
export const CreateVariableOption = option('CreateVariableOption', [f('value', 'string', { rules: ['Required'] }), f('description', 'string')]);

/** `name` (a rename; empty: the path's name), `value` required, `description` from Gitea 1.24. */
export const UpdateVariableOption = option('UpdateVariableOption', [f('name', 'string'), f('value', 'string', { rules: ['Required'] }), f('description', 'string')]);
