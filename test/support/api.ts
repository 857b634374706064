// One way for every test to call a sandbox's API over HTTP (sandbox, e2e and action tests alike).

export interface ApiResult<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  /** The answer parsed as JSON; undefined for an empty or non-JSON body. */
  json: T;
}

export interface CallOptions {
  /** Token to send as `Authorization: token …`; null = anonymous. */
  token?: string | null;
  body?: unknown;
  /** A raw body (sent as is, with `contentType`). */
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** `METHOD /api/v1/path` on the sandbox at `url`. */
export async function apiCall<T = unknown>(url: string, method: string, path: string, opts: CallOptions = {}): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token != null && headers.authorization === undefined) headers.authorization = `token ${opts.token}`;
  let body: string | Uint8Array | undefined;
  if (opts.rawBody !== undefined) {
    // Bytes: fetch adds no Content-Type of its own (a string body would get text/plain).
    body = new TextEncoder().encode(opts.rawBody);
    if (opts.contentType !== undefined) headers['content-type'] = opts.contentType;
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = opts.contentType ?? 'application/json';
  }
  const res = await fetch(`${url}/api/v1/${path.replace(/^\//, '')}`, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json: json as T };
}
