/**
 * What `/_sandbox/requests` serves over HTTP. The log holds what clients sent — passwords, hook
 * secrets, authorization headers, tokens in a query — so it is served to a site administrator's
 * token only, and with every such value shown as `(sensitive)`. (The in-process accessor,
 * `sandbox.requests()`, keeps the values: a test asserts what the server received.)
 */
import type { SandboxState } from './core/state.js';

/** One `/api/v1` request as the sandbox received it (`sandbox.requests()`, `GET /_sandbox/requests`). */
export interface RequestLogEntry {
  method: string;
  /** As received, without the query: `/api/v1/repos/acme/widgets/labels`. */
  path: string;
  query: Record<string, string>;
  /** 0 when the connection was dropped by fault injection. */
  status: number;
  /** The parsed JSON body (or the raw text of another body). */
  body?: unknown;
  /** JSON body keys the real server's option struct does not have (dotted paths for nested keys). */
  unknownFields: string[];
}

const SENSITIVE = '(sensitive)';

/** Body keys (at any depth, any case, as Go matches them) and query parameters that carry a credential. */
const SECRET_KEY = /password|passwd|passphrase|secret|token|authorization|private_key/i;

/** Whether an `Authorization: token|Bearer <t>` header carries a site administrator's token. */
export function isAdminAuthorization(header: string | undefined, state: SandboxState): boolean {
  const m = /^\s*(?:token|bearer)\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m) return false;
  const token = state.tokenByValue(m[1]!);
  return Boolean(token && state.userById(token.userId)?.isAdmin);
}

/** A log entry as served: credentials in the body and the query replaced by `(sensitive)`. */
export function redactEntry(entry: RequestLogEntry): RequestLogEntry {
  const query = Object.fromEntries(Object.entries(entry.query).map(([k, v]) => [k, SECRET_KEY.test(k) ? SENSITIVE : v]));
  const body = entry.body === undefined ? undefined : ACTIONS_SECRET_PATH.test(entry.path) ? redactSecretBody(entry.body) : redactBody(entry.body);
  return { ...entry, query, unknownFields: [...entry.unknownFields], ...(body !== undefined ? { body } : {}) };
}

/** An Actions secret's route: its value travels as `data` (`CreateOrUpdateSecretOption`), a name no key pattern can tell. */
const ACTIONS_SECRET_PATH = /\/actions\/secrets\//;

function redactSecretBody(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return SENSITIVE;
  return Object.fromEntries(Object.entries(redactValue(body) as Record<string, unknown>).map(([k, v]) => [k, k.toLowerCase() === 'data' ? SENSITIVE : v]));
}

function redactBody(body: unknown): unknown {
  if (typeof body === 'string') return redactForm(body);
  return redactValue(body);
}

function redactValue(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => redactValue(v, key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, k)]));
  // Flags such as must_change_password are not credentials: only text and numbers are hidden.
  if (SECRET_KEY.test(key) && (typeof value === 'string' || typeof value === 'number')) return SENSITIVE;
  return value;
}

/** A body that is not JSON: a form's credentials are hidden; any other text is kept only when no key could hide in it. */
function redactForm(text: string): string {
  if (!SECRET_KEY.test(text)) return text;
  if (!/^[^\s=&]+=[^\s&]*(&[^\s=&]+=[^\s&]*)*$/.test(text)) return SENSITIVE;
  const params = new URLSearchParams(text);
  for (const key of [...params.keys()]) if (SECRET_KEY.test(key)) params.set(key, SENSITIVE);
  return params.toString();
}
