import ky, { HTTPError, TimeoutError, type KyInstance } from 'ky';
import pLimit, { type LimitFunction } from 'p-limit';
import { revealSecrets } from '../secret.js';
import { ApiError } from './errors.js';

export type Credentials = { token: string } | { username: string; password: string };

export interface ClientOptions {
  url: string;
  credentials: Credentials;
  /** The one bound on requests in flight. */
  concurrency?: number;
  timeoutMs?: number;
  retryLimit?: number;
  /** Base of the exponential backoff, in ms (tests set it low). */
  retryDelayMs?: number;
  /** Called once per HTTP attempt, for progress and request counting. */
  onRequest?: (method: string, path: string) => void;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** What the request is about ("label bug in acme/widgets"), for error messages. */
  object?: string;
}

export interface Response<T> {
  status: number;
  data: T;
  headers: Headers;
}

const PAGE_SIZE = 50;

export class GiteaClient {
  readonly baseUrl: string;
  readonly limit: LimitFunction;
  private readonly http: KyInstance;
  requestCount = 0;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.url.replace(/\/+$/, '');
    this.limit = pLimit(options.concurrency ?? 8);
    const delay = options.retryDelayMs ?? 300;
    this.http = ky.create({
      prefixUrl: `${this.baseUrl}/api/v1/`,
      headers: { authorization: authorization(options.credentials), accept: 'application/json' },
      timeout: options.timeoutMs ?? 30_000,
      // A 307 after a user rename must not be followed: the replayed PATCH/DELETE would hit the new name.
      redirect: 'manual',
      throwHttpErrors: false,
      retry: {
        limit: options.retryLimit ?? 3,
        // POST and PATCH are never retried blindly: a create could happen twice.
        methods: ['get', 'put', 'head', 'delete'],
        statusCodes: [408, 429, 500, 502, 503, 504],
        afterStatusCodes: [413, 429, 503],
        maxRetryAfter: 60_000,
        backoffLimit: 10_000,
        delay: (attempt) => delay * 2 ** (attempt - 1),
      },
      hooks: {
        beforeRequest: [
          (request) => {
            this.requestCount++;
            options.onRequest?.(request.method, new URL(request.url).pathname);
          },
        ],
      },
    });
  }

  /** One request. Non-2xx answers become an ApiError that names the operation, object, status and message. */
  async request<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<Response<T>> {
    return this.limit(async () => {
      let res: globalThis.Response;
      try {
        res = await this.http(path, {
          method,
          ...(opts.body !== undefined ? { json: requestBody(opts.body) } : {}),
          ...(opts.query ? { searchParams: definedOnly(opts.query) } : {}),
          // ky only retries on status when throwHttpErrors is on; do it for retriable methods.
          throwHttpErrors: (status) => status >= 500 || status === 429 || status === 408,
        });
      } catch (e) {
        if (e instanceof HTTPError) {
          const text = await e.response.text().catch(() => '');
          throw new ApiError(method, path, e.response.status, messageOf(text), opts.object);
        }
        throw new ApiError(method, path, undefined, networkMessage(e), opts.object, e);
      }
      const text = await res.text();
      if (res.status >= 300 && res.status < 400) {
        const location = res.headers.get('location') ?? '';
        throw new ApiError(method, path, res.status, location ? `moved to ${location}` : '', opts.object);
      }
      if (!res.ok) throw new ApiError(method, path, res.status, messageOf(text), opts.object);
      return { status: res.status, data: parse(text) as T, headers: res.headers };
    });
  }

  async get<T = unknown>(path: string, opts: RequestOptions = {}): Promise<T> {
    return (await this.request<T>('GET', path, opts)).data;
  }

  /**
   * Every item of a paged list: page 1 tells the total (X-Total-Count), the rest are fetched concurrently.
   * Lists without the header are read page by page until a short page.
   */
  async list<T = unknown>(path: string, opts: RequestOptions = {}): Promise<T[]> {
    const query = { ...opts.query, limit: PAGE_SIZE };
    const first = await this.request<T[]>('GET', path, { ...opts, query: { ...query, page: 1 } });
    const items = [...asArray<T>(first.data)];
    const totalHeader = first.headers.get('x-total-count');
    if (totalHeader !== null) {
      const total = Number(totalHeader);
      const pages = Math.ceil(total / PAGE_SIZE);
      const rest = await Promise.all(
        Array.from({ length: Math.max(0, pages - 1) }, (_, i) =>
          this.request<T[]>('GET', path, { ...opts, query: { ...query, page: i + 2 } }),
        ),
      );
      for (const r of rest) items.push(...asArray<T>(r.data));
      return items;
    }
    let page = 1;
    let last = first.data;
    while (asArray(last).length >= PAGE_SIZE) {
      page++;
      last = (await this.request<T[]>('GET', path, { ...opts, query: { ...query, page } })).data;
      items.push(...asArray<T>(last));
    }
    return items;
  }
}

function authorization(c: Credentials): string {
  if ('token' in c) return `token ${c.token}`;
  return `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`;
}

/** The JSON body as sent: the one place where a Secret gives its value (ky serialises what this returns). */
function requestBody(body: unknown): unknown {
  return revealSecrets(body);
}

function definedOnly(q: Record<string, string | number | boolean | undefined>): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as Record<string, string | number | boolean>;
}

function asArray<T>(v: unknown): T[] {
  return Array.isArray(v) ? (v as T[]) : [];
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Gitea's error body is {message, url}; 403s may be empty and routing 404s plain text. */
function messageOf(text: string): string {
  const parsed = parse(text);
  if (parsed && typeof parsed === 'object' && 'message' in parsed) return String((parsed).message);
  return typeof parsed === 'string' ? parsed.trim().slice(0, 300) : '';
}

function networkMessage(e: unknown): string {
  if (e instanceof TimeoutError) return 'no answer before the timeout';
  if (e instanceof Error) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ? `${e.message} (${cause.code})` : cause?.message ? `${e.message} (${cause.message})` : e.message;
  }
  return String(e);
}

export function isApiError(e: unknown, status?: number): e is ApiError {
  return e instanceof ApiError && (status === undefined || e.status === status);
}
