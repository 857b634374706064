/** `AddCollaboratorOption` (modules/structs/repo_collaborator.go): `Permission *string`, no binding rule, every release. */
import { option, p } from '../../http/options.js';

export const AddCollaboratorOption = option('AddCollaboratorOption', [p('permission', 'string')]);
