/**
 * Reading an answer's body and checking that it is what the API promises. A proxy or a single
 * sign-on gateway in front of the server may answer 200 with a login page; read as "no labels",
 * that page would make apply create every label again. So a body that is not JSON of the expected
 * shape is an error, and nothing is planned from it.
 */

/** What a successful answer must hold: a list (a JSON array, or null as Go writes an empty slice), an object or list, or any JSON. */
export type Expect = 'list' | 'container' | 'any';

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** The body grew past the limit: refused, never retried (the same request would bring the same body). */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the answer is larger than ${formatBytes(limit)}: refused`);
  }
}

/** Reads a body to the end, refusing it once it passes `limit` bytes (by Content-Length first, if told). */
export async function readBody(res: globalThis.Response, limit: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    await res.body?.cancel().catch(() => undefined);
    throw new BodyTooLarge(limit);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/**
 * The JSON value of a 2xx answer, or the reason it is not acceptable. `method` decides whether an
 * empty body is fine (a write may answer 201/204 with nothing; a read must say something).
 */
export function parseAnswer(text: string, expect: Expect, method: string, status: number, contentType: string | null): { data: unknown } | { problem: string } {
  if (status === 204 || method === 'HEAD') return { data: undefined };
  const what = `the answer (${status}${contentType ? `, ${contentType.split(';')[0]}` : ''})`;
  if (text.trim() === '') return method === 'GET' ? { problem: `${what} is empty where JSON was expected` } : { data: undefined };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { problem: `${what} is not JSON: ${quote(text)} (is a login page or a proxy in front of the API?)` };
  }
  if (expect === 'list' && data !== null && !Array.isArray(data)) return { problem: `${what} is ${describe(data)} where a list was expected: ${quote(text)}` };
  if (expect === 'container' && data !== null && typeof data !== 'object') return { problem: `${what} is ${describe(data)} where an object was expected: ${quote(text)}` };
  return { data: expect === 'list' && data === null ? [] : data };
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a JSON list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'a JSON object' : `a JSON ${typeof value}`;
}

/** The first bytes of a body, on one line: enough to recognise a login page, too short to carry much else. */
export function quote(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').replace(/[^\x20-\x7e\u00a0-\uffff]/g, '?').trim();
  return JSON.stringify(line.length > max ? `${line.slice(0, max)}…` : line);
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round(n / (1024 * 1024))} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}
