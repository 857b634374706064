import { inert } from '../inert.js';

/** A non-2xx answer (or no answer) from the server, worded for a user. */
export class ApiError extends Error {
  /** Where a redirect (3xx) pointed, as its Location header said: Gitea's answer for a renamed name (the executor tells who renamed it). */
  location?: string;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number | undefined,
    readonly serverMessage: string,
    readonly object?: string,
    /** The low-level failure when there was no answer (a DNS, TLS or socket error): it tells what to advise. */
    cause?: unknown,
  ) {
    super(ApiError.describe(method, path, status, serverMessage, object, cause), cause === undefined ? undefined : { cause });
    this.name = 'ApiError';
  }

  /** What went wrong without an answer, or undefined when the server answered. */
  get network(): NetworkFailure | undefined {
    return this.status === undefined ? classifyNetwork(this.cause, this.serverMessage) : undefined;
  }

  static describe(method: string, path: string, status: number | undefined, serverMessage: string, object?: string, cause?: unknown): string {
    // The object, the path (decoded: names) and the server's message are the server's text: made inert,
    // one line, so that neither a name nor an answer can redraw the terminal or forge lines of output.
    const what = object ? `${inert(object)}: ` : '';
    const where = `${method} /api/v1/${inert(decodeForDisplay(path))}`;
    serverMessage = inert(serverMessage);
    if (status === undefined) {
      const n = classifyNetwork(cause, serverMessage);
      return `${what}${where} failed: ${n.reason}${n.code ? ` (${n.code})` : ''}; ${n.advice}`;
    }
    return `${what}${where} → ${status} ${statusText(status)}${serverMessage ? `: ${serverMessage}` : ''}${hint(status, serverMessage)}`;
  }
}

/**
 * The run stopped talking to the server (src/gitea/circuit.ts: it stopped answering, cannot be
 * reached, or refused the credentials): every request it ends carries the same message, so that a
 * plan of 60 repositories says it once, not once per repository.
 */
export class ServerStopped extends ApiError {
  constructor(method: string, path: string, reason: string, object?: string, cause?: unknown) {
    super(method, path, undefined, reason, object, cause);
    this.message = reason;
    this.name = 'ServerStopped';
  }
}

/**
 * A request that timed out while the server was heard from (other answers, bytes of this one, or the probe
 * src/gitea/client.ts sends when nothing else comes): this route is slow or stalls, not the server. Said so, with what to do, instead
 * of "the server is slow or unreachable" (issue 28: one stalled route was reported as a dead server).
 */
export function routeStalled(error: ApiError, timeoutMs: number, retry: number): ApiError {
  const what = error.object ? `${inert(error.object)}: ` : '';
  error.message =
    `${what}${error.method} /api/v1/${inert(decodeForDisplay(error.path))} got no complete answer within ${timeoutMs / 1000} s (--timeout), though the server is answering: ` +
    `this request alone is slow or stalls on the server; try again, raise --timeout, or look for it in the server's log${retry > 0 ? ` (tried ${retry + 1} times)` : ''}`;
  return error;
}

/** A request that got no answer: the reason in words, the system's code, and what the user can do. */
export interface NetworkFailure {
  reason: string;
  code?: string;
  advice: string;
}

/**
 * System error codes (from the cause chain of a failed fetch) to a reason and advice. First match wins;
 * the patterns cover Node's errno names, undici's UND_ERR_* and OpenSSL's ERR_SSL_ and ERR_TLS_ codes.
 */
const NETWORK: { code: RegExp; reason: string; advice: string }[] = [
  { code: /^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL)$/, reason: 'the host name does not resolve', advice: 'check the host name in --url or FORGEFORM_URL' },
  { code: /^ECONNREFUSED$/, reason: 'the connection was refused', advice: 'check the host and port of the URL, and that the server is running' },
  { code: /^(EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL)$/, reason: 'the host cannot be reached', advice: 'check the URL and the network (VPN, proxy, firewall)' },
  { code: /^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT|TimeoutError)$/, reason: 'no answer in time', advice: 'the server is slow or unreachable: check the URL, or raise --timeout' },
  { code: /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS_CERT_ALTNAME/, reason: "the server's TLS certificate is not trusted", advice: 'fix the certificate, or trust its authority with NODE_EXTRA_CA_CERTS=FILE' },
  { code: /^(ERR_SSL_|ERR_TLS_|EPROTO)/, reason: 'the TLS handshake failed', advice: 'the port may speak plain HTTP (use http://) or another protocol: check the URL' },
  { code: /^(ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED)$/, reason: 'the server closed the connection', advice: 'try again; if it persists, check the URL and any proxy in between' },
  { code: /^bad port$/, reason: 'fetch refuses this port (it belongs to another protocol)', advice: 'check the port in the URL' },
];

/** Codes forgeform gives its own failures: not the system's, so not shown. */
const OWN_CODES = new Set(['TimeoutError', 'bad port']);

function classifyNetwork(cause: unknown, message: string): NetworkFailure {
  const codes = codesOf(cause);
  // Without a cause (a client that only passed a message) the code is the last "(...)" of the message.
  const fromMessage = /\(([^()]+)\)\s*$/.exec(message)?.[1];
  if (fromMessage) codes.push(fromMessage);
  if (/timeout/i.test(message)) codes.push('TimeoutError');
  for (const code of codes) {
    const row = NETWORK.find((r) => r.code.test(code));
    if (row) return { reason: row.reason, ...(OWN_CODES.has(code) ? {} : { code }), advice: row.advice };
  }
  return { reason: message || 'no answer', advice: 'check the URL and that the server is reachable from here' };
}

/** error.name, .code and .message of a failure and its causes, outermost first. */
function codesOf(e: unknown): string[] {
  const out: string[] = [];
  for (let cur = e, depth = 0; cur && typeof cur === 'object' && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    const { code, name, message } = cur as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof code === 'string') out.push(code);
    if (name === 'TimeoutError') out.push('TimeoutError');
    if (message === 'bad port') out.push('bad port');
  }
  return out;
}

function decodeForDisplay(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

const texts: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  409: 'Conflict', 412: 'Precondition Failed', 422: 'Unprocessable Entity', 423: 'Locked', 429: 'Too Many Requests',
  500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
  307: 'Temporary Redirect', 308: 'Permanent Redirect', 301: 'Moved Permanently', 302: 'Found',
};

/** "Not Found" for 404; empty for a status without a common name. */
export function statusText(status: number): string {
  return texts[status] ?? '';
}

/** What the user can do about an answer, by status and the server's message. First match wins. */
const HINTS: { when: (status: number, message: string) => boolean; hint: string }[] = [
  { when: (s) => s === 401, hint: 'the credentials were refused: check FORGEFORM_TOKEN or --token-file (or FORGEFORM_USERNAME and FORGEFORM_PASSWORD)' },
  // Gitea answers 403 to a duplicate branch protection: a conflict, not a missing permission.
  { when: (s, m) => s === 403 && /already exist/i.test(m), hint: 'it exists on the server already, perhaps made by another run: run plan again' },
  { when: (s, m) => s === 403 && /site admin/i.test(m), hint: 'the token must belong to a site administrator' },
  { when: (s, m) => s === 403 && /scope/i.test(m), hint: 'give the token the scope named above' },
  { when: (s, m) => s === 403 && /owner|admin/i.test(m), hint: 'the token needs admin rights on this repository or organisation' },
  { when: (s) => s === 403, hint: 'the token lacks a permission this call needs' },
  // A redirect to a full URL comes from a proxy or a wrong ROOT_URL; Gitea's own rename redirects are paths.
  { when: (s, m) => s >= 300 && s < 400 && /moved to https?:\/\//i.test(m), hint: 'the server sends this request elsewhere: check --url (forgeform follows no redirect, so the credentials never go there)' },
  { when: (s) => s >= 300 && s < 400, hint: 'the name was renamed on the server; update the config' },
  { when: (s) => s === 429 || s === 502 || s === 503 || s === 504, hint: 'the server or a proxy is overloaded or down: try again later' },
];

function hint(status: number, message: string): string {
  const h = HINTS.find((x) => x.when(status, message));
  return h ? ` (${h.hint})` : '';
}

/** A short, safe description of an answer that is not what the API promises: its type and first characters. */
export function describeBody(data: unknown): string {
  if (data === undefined || data === null || data === '') return 'an empty body';
  if (typeof data === 'string') {
    const first = inert(data.replace(/\s+/g, ' ').trim().slice(0, 60));
    return `text that is not JSON ("${first}${data.length > 60 ? '…' : ''}")`;
  }
  if (Array.isArray(data)) return 'a JSON list';
  if (typeof data !== 'object') return `a JSON ${typeof data} (${inert(JSON.stringify(data).slice(0, 60))})`;
  return `a JSON object with other fields (${inert(JSON.stringify(data).slice(0, 60))})`;
}

/** An answer of the server with this status (any when none is given). */
export function isApiError(e: unknown, status?: number): e is ApiError {
  return e instanceof ApiError && (status === undefined || e.status === status);
}
