import type { FieldSpec } from '../model/index.js';

/** Lists the server may return as null (status_check_contexts before it is first set) compare as []. */
export function asSet(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) return [String(value)];
  return [...new Set(value.map(String))].sort();
}

export const bool = (name: string): FieldSpec => ({ name, type: 'scalar', normalize: (v) => (v === null || v === undefined ? false : Boolean(v)) });
export const int = (name: string): FieldSpec => ({ name, type: 'scalar', normalize: (v) => (v === null || v === undefined ? 0 : Number(v)) });
export const str = (name: string): FieldSpec => ({ name, type: 'scalar', normalize: (v) => (v === null || v === undefined ? '' : String(v)) });
export const text = (name: string): FieldSpec => ({ name, type: 'text', normalize: (v) => (v === null || v === undefined ? '' : String(v)) });
export const set = (name: string): FieldSpec => ({ name, type: 'set', normalize: asSet });

/** Applies each field's normalisation to the fields present in a record. */
export function normalizeFields(specs: FieldSpec[], raw: Record<string, unknown>, onlyPresent: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const spec of specs) {
    if (onlyPresent && !(spec.name in raw)) continue;
    const v = raw[spec.name];
    out[spec.name] = spec.normalize ? spec.normalize(v) : v;
  }
  return out;
}
