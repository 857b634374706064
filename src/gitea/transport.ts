/**
 * One HTTP exchange, on node:http(s) with kept-alive connections. Measured on the benchmark's label
 * pages (issue 12), ky over fetch cost about 0.6 ms of CPU per request (a Request, an AbortSignal,
 * an option merge and undici's web streams each time) and fetch alone 0.36 ms; this costs 0.14 ms
 * and less memory, which is what lets forgeform keep up with the server at high concurrency.
 * It follows no redirect (a 307 after a user rename must not replay a PATCH elsewhere) and retries
 * nothing: src/gitea/client.ts decides both.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { BodyTooLarge } from './answer.js';

/** The headers of an answer, as far as forgeform reads them (a fetch Headers object fits too). */
export interface AnswerHeaders {
  get(name: string): string | null;
  has(name: string): boolean;
}

/** node:http's header object (names already lower case) seen through AnswerHeaders. */
class NodeHeaders implements AnswerHeaders {
  constructor(private readonly raw: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const v = this.raw[name.toLowerCase()];
    if (v === undefined) return null;
    return Array.isArray(v) ? v.join(', ') : v;
  }

  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }
}

/** The exchange did not end within its time limit (the body included). */
export class TimedOut extends Error {
  override name = 'TimeoutError';
  constructor(ms: number) {
    super(`no complete answer within ${ms / 1000} s`);
  }
}

export interface RawAnswer {
  status: number;
  headers: AnswerHeaders;
  text: string;
}

export interface Exchange {
  method: string;
  /** The path below the API root, already encoded (see src/gitea/path.ts). */
  path: string;
  query?: Record<string, string | number | boolean>;
  /** Below /api/forgejo/v1/ (Forgejo's own API: its version) instead of /api/v1/. */
  forgejoApi?: boolean;
  /** The JSON text of the body, if any. */
  body?: string;
  timeoutMs: number;
  maxBodyBytes: number;
}

/** Idle connections are closed before a server usually drops them (Node's server: 5 s), so a reused one is rarely stale. */
const IDLE_MS = 4000;

export class Transport {
  private readonly agent: http.Agent;
  private readonly send: typeof http.request;
  private readonly origin: { protocol: string; hostname: string; port: string };
  /** The URL's path up to and including /api/v1/ (a server under a sub-path keeps it). */
  readonly apiRoot: string;

  constructor(
    baseUrl: string,
    private readonly headers: Record<string, string>,
  ) {
    const url = new URL(baseUrl);
    const secure = url.protocol === 'https:';
    this.agent = secure ? new https.Agent({ keepAlive: true, timeout: IDLE_MS }) : new http.Agent({ keepAlive: true, timeout: IDLE_MS });
    this.send = secure ? https.request : http.request;
    // IPv6 literals come bracketed from URL; node:http wants them bare.
    this.origin = { protocol: url.protocol, hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port };
    this.apiRoot = `${url.pathname.replace(/\/+$/, '')}/api/v1/`;
  }

  /** The path and query as sent (and as onRequest reports it: the path alone). */
  target(path: string, query?: Record<string, string | number | boolean>, forgejoApi = false): { pathname: string; full: string } {
    const pathname = (forgejoApi ? this.apiRoot.replace(/api\/v1\/$/, 'api/forgejo/v1/') : this.apiRoot) + path;
    if (!query) return { pathname, full: pathname };
    const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return { pathname, full: search ? `${pathname}?${search}` : pathname };
  }

  /** Sends one request and reads its answer to the end; network failures reject with Node's error (its .code says why). */
  exchange(x: Exchange): Promise<RawAnswer> {
    const headers: Record<string, string | number> = { ...this.headers };
    if (x.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(x.body);
    }
    return new Promise<RawAnswer>((resolve, reject) => {
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
      };
      const req = this.send(
        {
          protocol: this.origin.protocol,
          hostname: this.origin.hostname,
          port: this.origin.port,
          method: x.method,
          path: this.target(x.path, x.query, x.forgejoApi).full,
          headers,
          agent: this.agent,
        },
        (res) => {
          const fail = (e: Error) => {
            settle(() => reject(e));
            res.destroy();
            req.destroy();
          };
          const declared = Number(res.headers['content-length'] ?? NaN);
          if (declared > x.maxBodyBytes) return fail(new BodyTooLarge(x.maxBodyBytes));
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > x.maxBodyBytes) return fail(new BodyTooLarge(x.maxBodyBytes));
            chunks.push(chunk);
          });
          res.on('end', () => settle(() => resolve({ status: res.statusCode ?? 0, headers: new NodeHeaders(res.headers), text: Buffer.concat(chunks, size).toString('utf8') })));
          res.on('error', (e) => settle(() => reject(e)));
          // The connection ended in the middle of the body.
          res.on('close', () => {
            if (!res.complete) settle(() => reject(Object.assign(new Error('the connection closed in the middle of the answer'), { code: 'ECONNRESET' })));
          });
        },
      );
      const timer = setTimeout(() => {
        settle(() => reject(new TimedOut(x.timeoutMs)));
        req.destroy();
      }, x.timeoutMs);
      req.on('error', (e) => settle(() => reject(e)));
      req.end(x.body);
    });
  }
}
