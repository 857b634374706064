import { reservedVariableReason } from '../../secret.js';
import { exportedDescription } from '../actions-values.js';
import type { CurrentObject, KindExport } from '../../model/index.js';

/**
 * A secret as config: its value cannot be read, so export writes a reference to an environment variable
 * of the secret's own name (`${DEPLOY_TOKEN}`; `${SECRET_RUNNER_X}` where the name is one forgeform may not
 * read), which the user sets before planning, as Terraform imports a secret without its value.
 */
export const exporting = {
  toConfig(current: CurrentObject) {
    const variable = reservedVariableReason(current.key) ? `SECRET_${current.key}` : current.key;
    return { value: `\${${variable}}`, ...exportedDescription(current.fields) };
  },
} satisfies KindExport;
