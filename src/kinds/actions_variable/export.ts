import { exportedDescription } from '../actions-values.js';
import type { CurrentObject, KindExport } from '../../model/index.js';

export const exporting = {
  toConfig(current: CurrentObject) {
    return { value: current.fields.value, ...exportedDescription(current.fields) };
  },
} satisfies KindExport;
