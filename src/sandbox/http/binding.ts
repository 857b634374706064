/**
 * Request-body binding as Gitea does it with go-chi/binding and encoding/json:
 *
 * - the Content-Type picks the decoder: anything containing `json` → JSON; urlencoded or multipart
 *   → form fields (named by the snake_case of the Go field name); no usable type on POST/PUT →
 *   422 `[]: Empty Content-Type` / `[]: Unsupported Content-Type`; PATCH/DELETE without a
 *   Content-Type bind the query string as a form;
 * - JSON keys match struct fields case-insensitively (exact match preferred), unknown keys are
 *   ignored, `null` leaves a field unset, an empty body is an empty object;
 * - a wrong JSON type is reported as Go's decoder words it (`[]: json: cannot unmarshal …`),
 *   then the `binding:"…"` rules run in struct order; only the first error is answered:
 *   422 `[GoFieldName]: Rule`.
 */
import type { FieldDef, FormOf, OptionDef } from './options.js';
import { bindingFailure, isValidUsername, type BindingMode } from '../../releases/rules.js';

export type Form = Record<string, unknown>;

export interface BindResult<F = Form> {
  /** The decoded body; complete (every `Required` field set) only when there is no `error`. */
  form: F;
  /** The message of the 422 answer, when binding failed. */
  error?: string;
  /** Body keys the option struct does not have (dotted paths for nested objects). */
  unknownFields: string[];
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function jsonTypeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

function goTypeOf(d: FieldDef): string {
  if (d.goType) return d.goType;
  if (typeof d.type === 'object') return `structs.${d.type.name}`;
  switch (d.type) {
    case 'string':
      return 'string';
    case 'bool':
      return 'bool';
    case 'int':
      return 'int64';
    case 'datetime':
      return 'time.Time';
    case 'string[]':
      return '[]string';
    case 'int[]':
      return '[]int64';
    case 'any[]':
      return '[]interface {}';
    case 'map':
      return 'map[string]string';
  }
}

function matchField(opt: OptionDef, key: string): FieldDef | undefined {
  return opt.fields.find((d) => d.json === key) ?? opt.fields.find((d) => d.json.toLowerCase() === key.toLowerCase());
}

class Decoder {
  firstError: string | undefined;
  unknown: string[] = [];

  private typeError(v: unknown, structPath: string, goType: string): void {
    if (this.firstError) return;
    const what = typeof v === 'number' && !Number.isInteger(v) && goType.includes('int') ? `number ${v}` : jsonTypeName(v);
    this.firstError = `json: cannot unmarshal ${what} into Go struct field ${structPath} of type ${goType}`;
  }

  private fail(message: string): void {
    this.firstError ??= message;
  }

  object(opt: OptionDef, obj: Record<string, unknown>, structPath: string, keyPrefix: string): Form {
    const out: Form = {};
    for (const [key, value] of Object.entries(obj)) {
      const d = matchField(opt, key);
      if (!d) {
        this.unknown.push(keyPrefix + key);
        continue;
      }
      if (value === null) {
        delete out[d.json];
        continue;
      }
      const decoded = this.value(d, value, `${structPath}.${d.json}`, `${keyPrefix}${key}.`);
      if (decoded !== undefined) out[d.json] = decoded;
    }
    return out;
  }

  private value(d: FieldDef, v: unknown, structPath: string, keyPrefix: string): unknown {
    if (typeof d.type === 'object') {
      if (typeof v !== 'object' || Array.isArray(v) || v === null) return this.typeError(v, structPath, goTypeOf(d));
      return this.object(d.type, v as Record<string, unknown>, structPath, keyPrefix);
    }
    switch (d.type) {
      case 'string':
        return typeof v === 'string' ? v : this.typeError(v, structPath, goTypeOf(d));
      case 'bool':
        return typeof v === 'boolean' ? v : this.typeError(v, structPath, goTypeOf(d));
      case 'int':
        return typeof v === 'number' && Number.isInteger(v) ? v : this.typeError(v, structPath, goTypeOf(d));
      case 'datetime':
        if (typeof v !== 'string') return this.fail('Time.UnmarshalJSON: input is not a JSON string');
        if (!RFC3339.test(v) || Number.isNaN(Date.parse(v))) return this.fail(`parsing time "${JSON.stringify(v)}" as "\\"2006-01-02T15:04:05Z07:00\\"": cannot parse`);
        return v;
      case 'string[]':
      case 'int[]': {
        if (!Array.isArray(v)) return this.typeError(v, structPath, goTypeOf(d));
        const elemType = d.type === 'string[]' ? 'string' : 'int64';
        const out: unknown[] = [];
        for (const item of v) {
          if (item === null) out.push(d.type === 'string[]' ? '' : 0);
          else if (d.type === 'string[]' ? typeof item === 'string' : typeof item === 'number' && Number.isInteger(item)) out.push(item);
          else this.typeError(item, structPath, elemType);
        }
        return out;
      }
      case 'any[]':
        return Array.isArray(v) ? v : this.typeError(v, structPath, goTypeOf(d));
      case 'map': {
        if (typeof v !== 'object' || Array.isArray(v)) return this.typeError(v, structPath, goTypeOf(d));
        const out: Record<string, string> = {};
        for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
          if (typeof item === 'string') out[k] = item;
          else if (item !== null) this.typeError(item, structPath, 'string');
        }
        return out;
      }
    }
  }
}

/** A Go-like rendering of JSON.parse failures. */
function syntaxMessage(raw: string, err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  if (/end of (JSON )?input|Unterminated/i.test(msg)) return 'unexpected EOF';
  const m = /position (\d+)/.exec(msg);
  const pos = m ? Number(m[1]) : 0;
  const ch = raw.charAt(pos) || raw.trim().charAt(0);
  return `invalid character '${ch}' looking for beginning of value`;
}

function snake(goName: string): string {
  return goName.replace(/[A-Z]/g, (c, i: number) => (i > 0 ? '_' : '') + c.toLowerCase());
}

// ---- validation ---------------------------------------------------------------------------------

export { isValidUsername };

function zeroOf(d: FieldDef): unknown {
  if (typeof d.type === 'object') return undefined;
  switch (d.type) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'int':
      return 0;
    default:
      return undefined;
  }
}

/** The first failing rule of a field, as `[GoName]: Message`: the release's binder's judgement (src/releases/rules.ts bindingFailure). */
function checkRules(d: FieldDef, value: unknown, mode: BindingMode): string | undefined {
  const failure = bindingFailure({ rules: d.rules ?? [], pointer: d.rulePointer ?? d.pointer ?? false, zero: zeroOf(d) }, value, mode);
  return failure && `[${d.go}]: ${failure.word}`;
}

function validate(opt: OptionDef, form: Form): string | undefined {
  for (const d of opt.fields) {
    const v = form[d.json];
    if (typeof d.type === 'object' && v && typeof v === 'object') {
      const nested = validate({ ...d.type, binding: opt.binding }, v as Form);
      if (nested) return nested;
    }
    const err = checkRules(d, v, opt.binding ?? 'value');
    if (err) return err;
  }
  return undefined;
}

// ---- form bodies --------------------------------------------------------------------------------

function bindForm(opt: OptionDef, params: URLSearchParams, bodyKeys: string[]): BindResult {
  const form: Form = {};
  let error: string | undefined;
  const known = new Set<string>();
  for (const d of opt.fields) {
    const key = snake(d.go);
    known.add(key);
    // go-chi's form mapper sets only plain values: pointer and struct fields stay unset.
    if (d.pointer || typeof d.type === 'object' || !params.has(key)) continue;
    const values = params.getAll(key);
    const one = values[0] ?? '';
    const setErr = (msg: string): void => {
      error ??= `[${key}]: ${msg}`;
    };
    switch (d.type) {
      case 'string':
        form[d.json] = one;
        break;
      case 'bool':
        if (one === 'on') form[d.json] = true;
        else if (/^(1|t|T|TRUE|true|True|0|f|F|FALSE|false|False|)$/.test(one)) form[d.json] = /^(1|t|T|TRUE|true|True)$/.test(one);
        else setErr('Value could not be parsed as boolean');
        break;
      case 'int':
        if (/^[+-]?\d+$/.test(one || '0')) form[d.json] = Number(one || '0');
        else setErr('Value could not be parsed as integer');
        break;
      case 'string[]':
        form[d.json] = values;
        break;
      case 'int[]': {
        const nums: number[] = [];
        for (const v of values) {
          if (/^[+-]?\d+$/.test(v || '0')) nums.push(Number(v || '0'));
          else setErr('Value could not be parsed as integer');
        }
        form[d.json] = nums;
        break;
      }
      default:
        break;
    }
  }
  error ??= validate(opt, form);
  return { form, error, unknownFields: bodyKeys.filter((k) => !known.has(k)) };
}

// ---- entry point --------------------------------------------------------------------------------

export interface BindInput {
  method: string;
  contentType: string;
  rawBody: string;
  query: URLSearchParams;
}

export function bindBody<O extends OptionDef>(opt: O, input: BindInput): BindResult<FormOf<O>> {
  return bindAny(opt, input) as BindResult<FormOf<O>>;
}

function bindAny(opt: OptionDef, input: BindInput): BindResult {
  const { method, contentType, rawBody } = input;
  const ct = contentType.toLowerCase();
  if (method === 'POST' || method === 'PUT' || ct !== '') {
    if (ct.includes('form-urlencoded') || ct.includes('multipart/form-data')) {
      const body = ct.includes('form-urlencoded') ? new URLSearchParams(rawBody) : new URLSearchParams();
      const params = new URLSearchParams(input.query);
      for (const [k, v] of body) params.append(k, v);
      return bindForm(opt, params, [...new Set(body.keys())]);
    }
    if (ct.includes('json')) return bindJson(opt, rawBody);
    return { form: {}, error: ct === '' ? '[]: Empty Content-Type' : '[]: Unsupported Content-Type', unknownFields: jsonKeys(rawBody) };
  }
  return bindForm(opt, input.query, []);
}

function bindJson(opt: OptionDef, rawBody: string): BindResult {
  if (rawBody.trim() === '') return { form: {}, error: validate(opt, {}), unknownFields: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch (err) {
    return { form: {}, error: `[]: ${syntaxMessage(rawBody, err)}`, unknownFields: [] };
  }
  if (parsed === null) return { form: {}, error: validate(opt, {}), unknownFields: [] };
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { form: {}, error: `[]: json: cannot unmarshal ${jsonTypeName(parsed)} into Go value of type structs.${opt.name}`, unknownFields: [] };
  }
  const dec = new Decoder();
  const form = dec.object(opt, parsed as Record<string, unknown>, opt.name, '');
  const validationError = validate(opt, form);
  const error = dec.firstError ? `[]: ${dec.firstError}` : validationError;
  return { form, error, unknownFields: dec.unknown };
}

/** Top-level keys of a JSON object body (for routes that bind no body: every key is unknown). */
export function jsonKeys(rawBody: string): string[] {
  try {
    const v: unknown = JSON.parse(rawBody);
    return v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : [];
  } catch {
    return [];
  }
}
