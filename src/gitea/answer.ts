/**
 * Reading an answer's body and checking that it is what the API promises. A proxy or a single
 * sign-on gateway in front of the server may answer 200 with a login page; read as "no labels",
 * that page would make apply create every label again. So a body that is not JSON of the expected
 * shape is an error, and nothing is planned from it.
 */

/** What a successful answer must hold: a list (a JSON array, or null as Go writes an empty slice), an object or list, or any JSON. */
import { ApiError, describeBody, type NetworkFailure } from './errors.js';

export type Expect = 'list' | 'container' | 'any';

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** The body grew past the limit: refused, never retried (the same request would bring the same body). */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the answer is larger than ${formatBytes(limit)}: refused`);
  }
}

/**
 * The JSON value of a 2xx answer, or what it held instead (`body`: the raw text when it is not JSON)
 * and what was due. `method` decides whether an empty body is fine (a write may answer 201/204 with
 * nothing; a read must say something).
 */
export function parseAnswer(text: string, expect: Expect, method: string, status: number): { data: unknown } | { body: unknown; due: string } {
  if (status === 204 || method === 'HEAD') return { data: undefined };
  if (text.trim() === '') return method === 'GET' ? { body: '', due: expect === 'list' ? 'a list' : 'an object' } : { data: undefined };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { body: text, due: expect === 'list' ? 'a list' : expect === 'container' ? 'an object' : 'JSON' };
  }
  if (expect === 'list' && data !== null && !Array.isArray(data)) return { body: data, due: 'a list' };
  if (expect === 'container' && data !== null && typeof data !== 'object') return { body: data, due: 'an object' };
  return { data: expect === 'list' && data === null ? [] : data };
}

/**
 * Whether a body that is not JSON is JSON cut short: it opens a list or an object and ends inside it
 * (in a string, or with a bracket left open). A connection or a proxy that ends an answer early, with
 * a Content-Length that matches what it sent, leaves exactly this; a login page never does. Such an
 * answer is no proof that something other than Gitea answers: a read is sent again once (issue 28).
 */
export function isCutJson(text: string): boolean {
  const start = text.trimStart();
  if (!start.startsWith('[') && !start.startsWith('{')) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < start.length; i++) {
    const c = start[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      // Closed before the end: not a cut answer, another malformed one.
      if (--depth === 0) return false;
    }
  }
  return inString || depth > 0;
}

/** What the error says of an answer cut short (isCutJson): its size, and that it is no proof of a proxy by itself. */
export function cutAnswer(method: string, path: string, text: string, sentAgain: boolean, object?: string): AnswerError {
  const bytes = Buffer.byteLength(text);
  const again = sentAgain ? ', and again when sent once more' : '';
  const done = method === 'GET' ? 'nothing is planned from it' : 'the server may have done the write: plan again to see';
  return new AnswerError(
    method,
    path,
    `answered JSON cut short (it ends after ${bytes} bytes, inside ${text.trimStart().startsWith('[') ? 'a list' : 'an object'})${again}: the answer is ended early on its way (a proxy, or a connection that drops answers); ${done}`,
    object,
    text,
    true,
  );
}

/**
 * An answer that is not what the API promises, or a request refused before it was sent. It is no
 * network failure, so it carries no network advice; `body` is what the server answered, if it did.
 */
export class AnswerError extends ApiError {
  constructor(
    method: string,
    path: string,
    detail: string,
    object?: string,
    /** What the server answered, when it answered (the raw text when it was not JSON). */
    readonly body?: unknown,
    /** The server answered 2xx, but not what was due. */
    readonly answered = false,
  ) {
    super(method, path, undefined, detail, object);
    this.name = 'AnswerError';
    this.message = `${object ? `${object}: ` : ''}${method} /api/v1/${displayPath(path)} ${detail}`;
  }

  /** An answer came (or nothing was sent): never a network failure. */
  override get network(): NetworkFailure | undefined {
    return undefined;
  }

  /** The answer held something other than what was due: a login page, an empty body, another shape. */
  static wrongAnswer(method: string, path: string, body: unknown, due: string, object?: string): AnswerError {
    return new AnswerError(method, path, `answered ${describeBody(body)} where ${due} is due: something other than Gitea answers at this URL (a proxy or a login page?); check --url`, object, body, true);
  }
}

function displayPath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round(n / (1024 * 1024))} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}

/**
 * The type of one value forgeform relies on in an answer. `id`: a positive integer (an id or a
 * number, never the text "2": sent back as `{"labels": ["2"]}`, Gitea would read the label *named*
 * "2"). A trailing `?` allows the value to be absent or null, as Go writes empty fields.
 */
export type ValueType = 'id' | 'integer' | 'string' | 'boolean' | 'object' | 'string[]';
/** A list of objects, each of the given shape (`optional`: may be absent or null). */
export interface ListOf {
  list: Shape;
  optional?: boolean;
}
/** An object holding fields of the given shape (`optional`: may be absent or null). */
export interface ObjectOf {
  object: Shape;
  optional?: boolean;
}
/**
 * The shape of an answer forgeform relies on: its fields and their types (src/kinds/<kind>/read.ts
 * declares one per answer type). Fields not named are not looked at; a named field of another type
 * is an error, never coerced.
 */
export interface Shape {
  readonly [field: string]: ValueType | `${ValueType}?` | ListOf | ObjectOf;
}

const TYPE_NAMES: Record<ValueType, string> = {
  id: 'a positive integer',
  integer: 'an integer',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  'string[]': 'a list of strings',
};

function hasType(value: unknown, type: ValueType): boolean {
  switch (type) {
    case 'id':
      return Number.isSafeInteger(value) && (value as number) > 0;
    case 'integer':
      return Number.isSafeInteger(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'string[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
  }
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return `${typeof value === 'number' ? 'the number' : typeof value} ${JSON.stringify(value)}`;
}

/**
 * The first place where `value` is not of `shape` ("\"id\" is the string \"2\" where a positive
 * integer is due"), or undefined when it is. `at` prefixes the path of nested fields.
 */
export function shapeProblem(value: unknown, shape: Shape, at = ''): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${at ? `"${at}" is ` : ''}${describeValue(value)} where an object is due`;
  const record = value as Record<string, unknown>;
  for (const [field, type] of Object.entries(shape)) {
    const v = record[field];
    const where = at ? `${at}.${field}` : field;
    if (typeof type === 'string') {
      const optional = type.endsWith('?');
      const base = (optional ? type.slice(0, -1) : type) as ValueType;
      if (v === undefined || v === null) {
        if (optional) continue;
        return `"${where}" is ${v === null ? 'null' : 'missing'} where ${TYPE_NAMES[base]} is due`;
      }
      if (!hasType(v, base)) return `"${where}" is ${describeValue(v)} where ${TYPE_NAMES[base]} is due`;
      continue;
    }
    if (v === undefined || v === null) {
      if (type.optional) continue;
      return `"${where}" is ${v === null ? 'null' : 'missing'} where ${'list' in type ? 'a list' : 'an object'} is due`;
    }
    if ('list' in type) {
      if (!Array.isArray(v)) return `"${where}" is ${describeValue(v)} where a list is due`;
      for (let i = 0; i < v.length; i++) {
        const problem = shapeProblem(v[i], type.list, `${where}[${i}]`);
        if (problem) return problem;
      }
    } else {
      const problem = shapeProblem(v, type.object, where);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** Where an answer (an object, or each item of a list) is not of `shape`, or undefined. */
export function answerProblem(data: unknown, shape: Shape): string | undefined {
  if (!Array.isArray(data)) return shapeProblem(data, shape);
  for (let i = 0; i < data.length; i++) {
    const problem = shapeProblem(data[i], shape, `[${i}]`);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * An answer that is JSON of the right form, with a value of the wrong type: refused, never coerced.
 * The server did answer: a create so answered is not looked for again (its answer cannot be trusted).
 */
export class WrongTypeError extends AnswerError {
  constructor(method: string, path: string, data: unknown, problem: string, object?: string) {
    super(
      method,
      path,
      `answered a value of the wrong type: ${problem} (the API promises otherwise: a proxy rewriting answers, or another server?); refused, and nothing is written on the basis of it`,
      object,
      data,
      true,
    );
    this.name = 'WrongTypeError';
  }
}

export function wrongTypeError(method: string, path: string, data: unknown, problem: string, object?: string): WrongTypeError {
  return new WrongTypeError(method, path, data, problem, object);
}
