import type { ErrorObject } from 'ajv';
import leven from 'leven';
import { quoted } from './excerpt.js';
import { decodePointer, formatPath } from './path.js';
import { schemaValidator, type SchemaObject } from './schema.js';
import type { ConfigPath } from './types.js';

export { configSchema } from './schema.js';

/** A schema violation: the path it concerns, whether it points at the key (rather than the value), the message. */
export interface SchemaProblem {
  path: ConfigPath;
  atKey: boolean;
  message: string;
}

/**
 * Validates the data of one config file against the schema and turns ajv's errors into one message per mistake.
 * `isSensitive` tells which values came from environment variables: those are never shown.
 */
export function validateConfig(data: unknown, isSensitive: (path: ConfigPath) => boolean = () => false): SchemaProblem[] {
  const validate = schemaValidator();
  if (validate(data)) return [];
  const out: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const e of validate.errors ?? []) {
    const p = describeError(e, data, isSensitive);
    if (!p) continue;
    const id = JSON.stringify([p.path, p.atKey, p.message]);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(p);
  }
  return out;
}

function describeError(e: ErrorObject, root: unknown, isSensitive: (path: ConfigPath) => boolean): SchemaProblem | undefined {
  const path = decodePointer(e.instancePath, root);
  const parent = (e.parentSchema ?? {}) as SchemaObject;
  const params = e.params as Record<string, unknown>;
  const secret = isSensitive(path);
  // A substituted value is always a string: saying so reveals nothing of it.
  const got = () => (secret ? 'string (sensitive)' : describeValue(e.data));
  const gotShort = () =>
    secret ? '(sensitive)' : typeof e.data === 'string' ? quoted(e.data) : typeof e.data === 'object' && e.data !== null ? describeValue(e.data) : JSON.stringify(e.data);
  const at = (message: string, atKey = false, where: ConfigPath = path): SchemaProblem => ({ path: where, atKey, message });

  // An error inside propertyNames concerns a map key; the propertyNames error that wraps it is a duplicate.
  if (e.keyword === 'propertyNames') return undefined;
  // if/then/else: the error of the branch says what is wrong; "must match the then schema" adds nothing.
  if (e.keyword === 'if') return undefined;
  if (e.propertyName !== undefined) {
    const text =
      (e.keyword === 'pattern' ? str(parent.patternErrorMessage) : undefined) ??
      str(parent.errorMessage) ??
      (e.keyword === 'pattern' ? `must match the pattern ${String(params.pattern)}` : (e.message ?? 'is not allowed'));
    return at(`key ${quoted(e.propertyName)} ${where(path)} ${text}`, true, [...path, e.propertyName]);
  }

  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const allowed = Object.keys(parent.properties ?? {});
      const hint = suggest(key, allowed);
      const tail = hint ? ` (did you mean ${JSON.stringify(hint)}?)` : allowed.length > 0 && allowed.length <= 10 ? ` (expected one of: ${allowed.join(', ')})` : '';
      return at(`unknown key ${quoted(key)} ${where(path)}${tail}`, true, [...path, key]);
    }
    case 'required': {
      const key = String(params.missingProperty);
      const prop = ((parent.properties ?? {}) as Record<string, SchemaObject>)[key];
      const hint = prop && 'const' in prop ? ` (expected "${key}: ${JSON.stringify(prop.const)}")` : '';
      return at(`missing required key ${JSON.stringify(key)} ${where(path)}${hint}`);
    }
    case 'type': {
      const expected = String(params.type).split(',').map(typeName).join(' or ');
      // An unquoted "#ee0701" is a YAML comment, which leaves the value empty.
      // A digit-only colour (123456) or any number where text is expected reads as a number in YAML: say to quote it.
      const numberForText = typeof e.data === 'number' && expected.startsWith('string');
      const hint =
        e.data === null && path[path.length - 1] === 'color'
          ? ' (quote the colour: an unquoted "#" starts a YAML comment)'
          : numberForText
            ? ` (YAML reads it as a number: quote it as written, e.g. ${String(path[path.length - 1] ?? 'value')}: "${String(e.data)}")`
            : '';
      return at(`${subject(path)} must be ${expected}, got ${got()}${hint}`);
    }
    case 'const':
      return at(`${subject(path)} must be ${JSON.stringify(params.allowedValue)}, got ${got()}`);
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String);
      const hint = !secret && typeof e.data === 'string' ? suggest(e.data, allowed) : undefined;
      return at(`${subject(path)} must be one of ${allowed.join(', ')}, got ${gotShort()}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}`);
    }
    case 'pattern': {
      const text = str(parent.patternErrorMessage) ?? `must match the pattern ${String(params.pattern)}`;
      return at(`${subject(path)} ${text}, got ${gotShort()}`);
    }
    case 'minLength':
      return at(`${subject(path)} ${params.limit === 1 ? 'must not be empty' : `must have at least ${String(params.limit)} characters`}`);
    case 'minimum':
      return at(`${subject(path)} must be at least ${String(params.limit)}, got ${got()}`);
    case 'uniqueItems': {
      const i = Number(params.i);
      const j = Number(params.j);
      const [first, dup] = i < j ? [i, j] : [j, i];
      const item = Array.isArray(e.data) ? (e.data as unknown[])[dup] : undefined;
      const shown = secret || isSensitive([...path, dup]) ? '(sensitive)' : typeof item === 'string' ? quoted(item) : JSON.stringify(item);
      return at(`${subject([...path, dup])} repeats ${shown}, already at ${formatPath([...path, first])}`, false, [...path, dup]);
    }
    case 'not':
      return at(`${subject(path)}: ${str(parent.errorMessage) ?? e.message ?? 'is invalid'}`);
    default:
      return at(`${subject(path)} ${e.message ?? 'is invalid'}`);
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function subject(path: ConfigPath): string {
  return path.length === 0 ? 'the file' : formatPath(path);
}

function where(path: ConfigPath): string {
  return path.length === 0 ? 'at the top level' : `in ${formatPath(path)}`;
}

function typeName(t: string): string {
  return t === 'object' ? 'a map' : t === 'array' ? 'a list' : t;
}

/** `string "yes"`, `number 3`, `boolean true`, `null`, `a map`, `a list`. */
export function describeValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a map';
  if (typeof v === 'string') return `string ${quoted(v)}`;
  return `${typeof v} ${String(v)}`;
}

/** The candidate closest to `word` (ignoring case), if it is close enough to be a likely typo. */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = leven(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  if (best === undefined) return undefined;
  if (bestDistance <= Math.max(1, Math.min(3, Math.floor(best.length / 3)))) return best;
  // A shortened name ("manual" for manually-merged): the one candidate it begins.
  const longer = word.length >= 3 ? candidates.filter((c) => c.toLowerCase().startsWith(word.toLowerCase())) : [];
  return longer.length === 1 ? longer[0] : undefined;
}
