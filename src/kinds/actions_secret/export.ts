import { UNMAPPED_SECRET } from '../../secret.js';
import { exportedDescription } from '../actions-values.js';
import type { CurrentObject, KindExport } from '../../model/index.js';

/**
 * A secret as config: its value cannot be read, so export writes a placeholder (UNMAPPED_SECRET) that fails to plan,
 * at its place, until the user maps it to the variable that holds it (`value: "${WIDGETS_DEPLOY_KEY}"`). Never a
 * reference named after the secret: its name is chosen by whoever owns the repository or organisation, and
 * `${AWS_SECRET_ACCESS_KEY}` would let her pick which of the operator's variables the next apply sends her (issue 28).
 */
export const exporting = {
  toConfig(current: CurrentObject) {
    return { value: UNMAPPED_SECRET, ...exportedDescription(current.fields) };
  },
} satisfies KindExport;
