import type { FieldChange } from '../model/index.js';
import { isSecret, SENSITIVE } from '../secret.js';
import { inert, quote } from './inert.js';

export { SENSITIVE };

/**
 * One value as shown in a plan: strings quoted, lists bracketed, secrets hidden; always one line, with
 * every control, bidi and invisible character escaped (src/render/inert.ts).
 */
export function show(value: unknown, sensitive = false): string {
  if (sensitive || isSecret(value)) return SENSITIVE;
  if (value === undefined) return '(unset)';
  if (Array.isArray(value)) return `[${value.map((v) => show(v)).join(', ')}]`;
  if (typeof value === 'string') return quote(value);
  return inert(JSON.stringify(value) ?? String(value));
}

export function isMultiline(f: FieldChange): boolean {
  return !f.sensitive && [f.before, f.after].some((v) => typeof v === 'string' && v.includes('\n'));
}
