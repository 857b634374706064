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
