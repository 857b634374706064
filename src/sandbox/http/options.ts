/**
 * How the sandbox declares the request bodies it binds: the real server's Go option structs
 * (`modules/structs/*.go`) as data — JSON key, Go field name (used in binding messages such as
 * `[Username]: Required`), type, pointer-ness and `binding:"…"` rules, in struct order. Each domain
 * declares its structs in its `options.ts`.
 *
 * `binding.ts` decodes and validates bodies with these tables exactly as go-chi/binding does, and
 * computes the `unknownFields` of the request log (keys the struct does not have: the real server
 * ignores them silently). {@link FormOf} derives the TypeScript type of a bound body from the same
 * table, so a handler's view of the body cannot drift from what binding produces.
 */

import type { BindingMode } from '../../releases/rules.js';

export type Scalar = 'string' | 'bool' | 'int' | 'datetime' | 'string[]' | 'int[]' | 'any[]' | 'map';

export interface FieldDef {
  /** JSON key. */
  json: string;
  /** Go field name: `[GoName]: Rule` messages and the snake_case form key derive from it. */
  go: string;
  type: Scalar | OptionDef;
  /** `*T` in Go: absent or null means "not set" (PATCH semantics). */
  pointer?: boolean;
  /** go-chi binding rules in tag order, e.g. `Required`, `MaxSize(40)`, `In(,public,limited,private)`. */
  rules?: readonly string[];
  /** Go type in decode errors when not the default for the type (int → `int64`). */
  goType?: string;
  /**
   * Whether the release's struct declares the field a pointer, for its rules (a released flavour's
   * field-rules table: `*string`); unset: `pointer`. A field declared plain with `ps()` decodes as
   * a plain value but is judged as the pointer it is.
   */
  rulePointer?: boolean;
}

export interface OptionDef {
  /** Go struct name, as in `Go struct field CreateLabelOption.name`. */
  name: string;
  fields: readonly FieldDef[];
  /** How the release's binder judges pointer fields (src/releases/rules.ts); unset: `value`. */
  binding?: BindingMode;
}

/** A field as `f()` / `p()` declare it: key, type and rules kept as literal types for {@link FormOf}. */
export interface TypedField<J extends string, T extends Scalar | OptionDef, R extends readonly string[]> extends FieldDef {
  json: J;
  type: T;
  rules?: R;
}

export interface TypedOption<F extends readonly FieldDef[]> extends OptionDef {
  fields: F;
}

type Split<S extends string> = S extends `${infer A},${infer B}` ? A | Split<B> : S;

/** The values an `In(a,b,…)` rule allows, or never. */
type InValues<R> = R extends readonly (infer X)[] ? (X extends `In(${infer L})` ? Split<L> : never) : never;

/** What binding stores for a field of each type (a string with an `In(…)` rule: one of its values). */
type ValueOf<T, R = never> = T extends 'string'
  ? [InValues<R>] extends [never]
    ? string
    : InValues<R>
  : T extends 'datetime'
    ? string
    : T extends 'bool'
      ? boolean
      : T extends 'int'
        ? number
        : T extends 'string[]'
          ? string[]
          : T extends 'int[]'
            ? number[]
            : T extends 'any[]'
              ? unknown[]
              : T extends 'map'
                ? Record<string, string>
                : T extends OptionDef
                  ? FormOf<T>
                  : never;

type RulesOf<D> = D extends TypedField<string, Scalar | OptionDef, infer R> ? R : never;

/** The JSON keys of the fields with a `Required` rule (rules inferred as plain `string[]` mean none). */
type RequiredKeys<D> = D extends TypedField<infer J, Scalar | OptionDef, infer R> ? (string extends R[number] ? never : 'Required' extends R[number] ? J : never) : never;

/**
 * A bound body: every field of the struct optional (binding sets only the keys it decoded), except
 * those with a `Required` rule, which binding refuses to leave unset.
 */
export type FormOf<O extends OptionDef> = {
  [D in O['fields'][number] as Exclude<D['json'], RequiredKeys<O['fields'][number]>>]?: ValueOf<D['type'], RulesOf<D>>;
} & {
  [D in O['fields'][number] as Extract<D['json'], RequiredKeys<O['fields'][number]>>]: ValueOf<D['type'], RulesOf<D>>;
};

interface FieldOpts<R extends readonly string[]> {
  go?: string;
  pointer?: boolean;
  rules?: R;
  goType?: string;
}

const INITIALISMS = new Set(['id', 'url', 'api', 'html', 'ssh', 'uid']);

/** `source_id` → `SourceID`, `html_url` → `HTMLURL`, `rule_name` → `RuleName`. */
function goName(json: string): string {
  return json
    .split('_')
    .map((p) => (INITIALISMS.has(p) ? p.toUpperCase() : p.charAt(0).toUpperCase() + p.slice(1)))
    .join('');
}

/** A plain field (`T`). */
export function f<const J extends string, const T extends Scalar | OptionDef, const R extends readonly string[] = []>(json: J, type: T, opts: FieldOpts<R> = {}): TypedField<J, T, R> {
  return { json, go: opts.go ?? goName(json), type, pointer: opts.pointer, rules: opts.rules, goType: opts.goType };
}

/** A pointer field (`*T`): omitted or null leaves the value unchanged. */
export function p<const J extends string, const T extends Scalar | OptionDef, const R extends readonly string[] = []>(json: J, type: T, opts: FieldOpts<R> = {}): TypedField<J, T, R> {
  return f(json, type, { ...opts, pointer: true });
}

/**
 * A Go `*string` whose binding rules the newest binder runs on the pointed-to value
 * (`modules/structs/admin_user.go` `EditUserOption.Website`: a non-URL `website` is a 422 on user
 * PATCH). Declared plain: the decoder only sets keys that are present, so the handlers still see
 * "omitted" as undefined.
 */
export function ps<const J extends string, const R extends readonly string[]>(json: J, rules: R, opts: FieldOpts<R> = {}): TypedField<J, 'string', R> {
  return f(json, 'string', { ...opts, rules });
}

export function option<const F extends readonly FieldDef[]>(name: string, fields: F): TypedOption<F> {
  return { name, fields };
}

export const VISIBILITY_RULE = 'In(,public,limited,private)';
