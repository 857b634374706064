import type { FieldChange } from '../model/index.js';
import { isSecret, SENSITIVE } from '../secret.js';

export { SENSITIVE };

/** One value as shown in a plan: strings quoted, lists bracketed, secrets hidden. */
export function show(value: unknown, sensitive = false): string {
  if (sensitive || isSecret(value)) return SENSITIVE;
  if (value === undefined) return '(unset)';
  if (Array.isArray(value)) return `[${value.map((v) => show(v)).join(', ')}]`;
  return JSON.stringify(value);
}

export function isMultiline(f: FieldChange): boolean {
  return !f.sensitive && [f.before, f.after].some((v) => typeof v === 'string' && v.includes('\n'));
}
