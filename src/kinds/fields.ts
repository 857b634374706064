import type { Shape } from '../gitea/answer.js';
import type { Availability, ConfigEntry, ConfigSchema, EntrySpec, FieldSpec } from '../model/index.js';

/** Lists the server may return as null (status_check_contexts before it is first set) compare as []. */
export function asSet(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) return [String(value)];
  return [...new Set(value.map(String))].sort();
}

/** What a field's or entry's definition says of it in the config: title and description, and checks beyond its type. */
export type ConfigDoc = ConfigSchema & { title: string; description: string };

/** The config type a field's comparison implies; a definition adds to it or overrides it. */
function baseSchema(spec: Pick<FieldSpec, 'type' | 'answer'>): ConfigSchema {
  if (spec.type === 'set') return { type: 'array', uniqueItems: true, items: { type: 'string', minLength: 1 } };
  if (spec.type === 'text') return { type: 'string' };
  return spec.answer === 'boolean' ? { type: 'boolean' } : spec.answer === 'integer' ? { type: 'integer' } : spec.answer === 'string' ? { type: 'string' } : {};
}

/** A field with its config definition: title and description first (as editors show them), then its type and checks. */
export function field(spec: FieldSpec, doc?: ConfigDoc): FieldSpec {
  if (!doc) return spec;
  const { title, description, ...checks } = doc;
  return { ...spec, config: { title, description, ...baseSchema(spec), ...checks } };
}

export const bool = (name: string, doc?: ConfigDoc): FieldSpec => field({ name, type: 'scalar', answer: 'boolean', normalize: (v) => (v === null || v === undefined ? false : Boolean(v)) }, doc);
export const int = (name: string, doc?: ConfigDoc): FieldSpec => field({ name, type: 'scalar', answer: 'integer', normalize: (v) => (v === null || v === undefined ? 0 : Number(v)) }, doc);
export const str = (name: string, doc?: ConfigDoc): FieldSpec => field({ name, type: 'scalar', answer: 'string', normalize: (v) => (v === null || v === undefined ? '' : String(v)) }, doc);
export const text = (name: string, doc?: ConfigDoc): FieldSpec => field({ name, type: 'text', answer: 'string', normalize: (v) => (v === null || v === undefined ? '' : String(v)) }, doc);
export const set = (name: string, doc?: ConfigDoc): FieldSpec => field({ name, type: 'set', answer: 'string[]', normalize: asSet }, doc);

/** An entry of the config that is no field of the server's object (`previously`, `labels_mode`): schema, types and docs only. */
export const configEntry = (name: string, doc: ConfigDoc): ConfigEntry => ({ name, config: { ...doc }, serverField: false });

/** `previously`: the former names under which an object is renamed instead of a new one being created (what it keeps, in the description). */
export const formerNames = (description: string): ConfigEntry =>
  configEntry('previously', { title: 'Former names', description, type: 'array', uniqueItems: true, items: { type: 'string', minLength: 1 } });

const isField = (e: EntrySpec): e is FieldSpec => !('serverField' in e);

/** The server fields among a kind's entries, in their order (what the diff, the digest and the plan see). */
export const serverFields = (entries: EntrySpec[]): FieldSpec[] => entries.filter(isField);

/** The config-only entries among a kind's entries. */
export const configEntries = (entries: EntrySpec[]): ConfigEntry[] => entries.filter((e): e is ConfigEntry => !isField(e));

/**
 * The schema of one declared object: its entries as properties, in their order, nothing else allowed;
 * conditions between them (if/then/else) after them.
 * Every entry must carry its config definition (a field without one is an error: it would be missing from the schema).
 */
export function objectSchema(doc: ConfigDoc & { required?: string[] }, entries: EntrySpec[]): ConfigDoc {
  const { title, description, required, ...rest } = doc;
  const properties: Record<string, ConfigSchema> = {};
  for (const e of entries) {
    if (!e.config) throw new Error(`${title}: the field ${e.name} has no config definition`);
    properties[e.name] = e.config;
  }
  return { title, description, type: 'object', additionalProperties: false, ...(required ? { required } : {}), properties, ...rest };
}

/** A field that only some releases have (see FieldSpec.availability); the others are in every release. */
export const only = (availability: Availability, spec: FieldSpec): FieldSpec => ({ ...spec, availability });

/**
 * Availability as the release notes say it: Gitea (from a release on), Forgejo (from a release on),
 * or either. Bounds are inclusive: "1.23" is every 1.23.x, "15" every 15.x. A fork not named has none.
 */
export const inGitea = (since?: string): Availability => ({ gitea: since === undefined ? {} : { since } });
export const inForgejo = (since?: string): Availability => ({ forgejo: since === undefined ? {} : { since } });
export const inEither = (...forks: Availability[]): Availability => forks.reduce<Availability>((all, fork) => ({ ...all, ...fork }), {});

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

/**
 * The objects of a repository section by name. The scope resolver has already removed the `name: null`
 * entries that drop an inherited object (src/scopes/inherit.ts); the config's type still allows them.
 */
export function declaredEntries<T>(section: Record<string, T | null>): [string, T][] {
  return Object.entries(section).filter((e): e is [string, T] => e[1] !== null);
}

/**
 * A config section that holds objects of one definition by name (`labels`, `branch_protections`,
 * `users`): `names` is the schema of a name (with the errorMessage a wrong one gets).
 */
export function byName(doc: ConfigDoc, names: ConfigSchema, definition: string, o: { droppable?: boolean } = {}): ConfigDoc {
  const ref = { $ref: `#/definitions/${definition}` };
  // A repository section: in an exact entry, `name: null` drops the object a glob gives it (src/scopes/inherit.ts).
  const item = o.droppable ? { if: { type: 'null' }, else: ref } : ref;
  return { title: doc.title, description: doc.description, type: 'object', propertyNames: names, additionalProperties: item };
}
