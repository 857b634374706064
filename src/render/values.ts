import type { FieldChange } from '../model/index.js';
import { isSecret, isSecretDescription, SENSITIVE } from '../secret.js';
import { inert, quote } from './inert.js';

export { SENSITIVE };

/**
 * One value as shown in a plan: strings quoted, lists bracketed, secrets hidden but for where they come from
 * (`(sensitive, from ${NAME})`, src/secret.ts); always one line, with every control, bidi and invisible
 * character escaped (src/render/inert.ts). A sensitive value the CLI printed as JSON (the Action renders that)
 * is its description already; any other value of a sensitive field is only `(sensitive)`.
 */
export function show(value: unknown, sensitive = false): string {
  if (isSecret(value)) return inert(String(value));
  if (sensitive) return typeof value === 'string' && isSecretDescription(value) ? inert(value) : SENSITIVE;
  if (value === undefined) return '(unset)';
  if (Array.isArray(value)) return `[${value.map((v) => show(v)).join(', ')}]`;
  if (typeof value === 'string') return quote(value);
  return inert(JSON.stringify(value) ?? String(value));
}

export function isMultiline(f: FieldChange): boolean {
  return !f.sensitive && [f.before, f.after].some((v) => typeof v === 'string' && v.includes('\n'));
}
