import type { Shape } from '../gitea/answer.js';
import type { Availability, FieldSpec } from '../model/index.js';

/** Lists the server may return as null (status_check_contexts before it is first set) compare as []. */
export function asSet(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) return [String(value)];
  return [...new Set(value.map(String))].sort();
}

export const bool = (name: string): FieldSpec => ({ name, type: 'scalar', answer: 'boolean', normalize: (v) => (v === null || v === undefined ? false : Boolean(v)) });
export const int = (name: string): FieldSpec => ({ name, type: 'scalar', answer: 'integer', normalize: (v) => (v === null || v === undefined ? 0 : Number(v)) });
export const str = (name: string): FieldSpec => ({ name, type: 'scalar', answer: 'string', normalize: (v) => (v === null || v === undefined ? '' : String(v)) });
export const text = (name: string): FieldSpec => ({ name, type: 'text', answer: 'string', normalize: (v) => (v === null || v === undefined ? '' : String(v)) });
export const set = (name: string): FieldSpec => ({ name, type: 'set', answer: 'string[]', normalize: asSet });

/** A field that only some releases have (see FieldSpec.availability); the others are in every release. */
export const only = (availability: Availability, spec: FieldSpec): FieldSpec => ({ ...spec, availability });

/**
 * Availability as the release notes say it: Gitea (from a release on), Forgejo (from a release on),
 * or either. Bounds are inclusive: "1.23" is every 1.23.x, "15" every 15.x. A fork not named has none.
 */
export const inGitea = (since?: string): Availability => ({ gitea: since === undefined ? {} : { since } });
export const inForgejo = (since?: string): Availability => ({ forgejo: since === undefined ? {} : { since } });
export const inEither = (...forks: Availability[]): Availability => Object.assign({}, ...forks) as Availability;

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

/**
 * The shape of an object's answer: `identity` (its id and name, which the kind cannot do without)
 * and each field the server answers under its own name, in the type its spec says, absent or null
 * allowed (Go omits or nulls empty values). Write-only fields are never answered.
 */
export function shapeOfFields(specs: FieldSpec[], identity: Shape): Shape {
  const out: Record<string, Shape[string]> = {};
  for (const spec of specs) if (spec.answer && !spec.writeOnly) out[spec.name] = `${spec.answer}?`;
  return { ...out, ...identity };
}
