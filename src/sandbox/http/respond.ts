/**
 * Responses shaped like Gitea's: JSON as Go's encoder writes it (HTML characters escaped, a
 * trailing newline, `application/json;charset=utf-8`), error bodies `{message,url}`, and the
 * plain-text answers of Go's HTTP server.
 */

export const JSON_CONTENT_TYPE = 'application/json;charset=utf-8';

/** `json.NewEncoder(w).Encode(v)`: escapes <, >, &, U+2028 and U+2029, ends with a newline. */
export function goJson(value: unknown): string {
  // One pass over the text (lists of 50 objects are long), and none when nothing needs escaping.
  const text = JSON.stringify(value);
  return (GO_ESCAPED.test(text) ? text.replace(GO_ESCAPED_ALL, (c) => GO_ESCAPES[c]!) : text) + '\n';
}

const GO_ESCAPED = /[<>&\u2028\u2029]/;
const GO_ESCAPED_ALL = /[<>&\u2028\u2029]/g;
const GO_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

export function json(status: number, value: unknown, headers?: Record<string, string>): Response {
  return new Response(goJson(value), { status, headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers } });
}

export function empty(status: number, headers?: Record<string, string>): Response {
  return new Response(null, { status, headers });
}

/** The normal error body: `{"message": …, "url": "<ROOT_URL>api/swagger"}`. */
export function apiError(root: string, status: number, message: string): Response {
  return json(status, { message, url: `${root}api/swagger` });
}

/** Account-state and sudo refusals: `{message}` only (a Go map, so no `url`). */
export function messageOnly(status: number, message: string): Response {
  return json(status, { message });
}

/** What Go's `http.NotFound` writes: the answer for a path no route matches. */
export function pageNotFound(): Response {
  return new Response('404 page not found\n', {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
  });
}

export function plainText(status: number, text: string, headers?: Record<string, string>): Response {
  return new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers } });
}

/** `url.PathEscape`: like encodeURIComponent, but keeps `$&+=:@` and escapes `!'()*`. */
export function goPathEscape(s: string): string {
  // Most names need no escaping at all: skip the three passes below for them.
  if (UNRESERVED.test(s)) return s;
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%(24|26|2B|3D|3A|40)/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const UNRESERVED = /^[A-Za-z0-9\-_.~]*$/;

/** `url.QueryEscape`: escapes all but [A-Za-z0-9-_.~], space as `+`. */
export function goQueryEscape(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%20/g, '+');
}
