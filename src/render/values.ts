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
export function show(value: unknown, sensitive = false, abbreviated = false): string {
  if (isSecret(value)) return inert(String(value));
  if (sensitive) return typeof value === 'string' && isSecretDescription(value) ? inert(value) : SENSITIVE;
  if (value === undefined) return '(unset)';
  if (Array.isArray(value)) return `[${value.map((v) => show(v)).join(', ')}]`;
  if (typeof value === 'string') return abbreviated ? abbreviate(value) : quote(value);
  return inert(JSON.stringify(value) ?? String(value));
}

export function isMultiline(f: FieldChange): boolean {
  return !f.sensitive && [f.before, f.after].some((v) => typeof v === 'string' && v.includes('\n'));
}

/** How many characters of a long value (FieldSpec.abbreviated) are shown at each end. */
const ABBREVIATED_END = 24;

/**
 * A long one-line value quoted with its middle left out and its length said: `"ssh-ed25519 AAAAC3NzaC1l…Hq3Lk9f2 ci@example"
 * (80 chars)`. The end of an SSH key (its last characters and comment) is what tells two keys of one type apart.
 */
export function abbreviate(value: string): string {
  const chars = [...value];
  if (chars.length <= ABBREVIATED_END * 2 + 8) return quote(value);
  return `${quote(`${chars.slice(0, ABBREVIATED_END).join('')}…${chars.slice(-ABBREVIATED_END).join('')}`)} (${chars.length} chars)`;
}
