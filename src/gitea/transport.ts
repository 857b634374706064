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
import { BodyTooLarge, formatBytes } from './answer.js';

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

/**
 * The answers in flight held more than the client's shared budget together: the largest was refused,
 * never retried (an answer that large is the likeliest to be the endless one, and would be again).
 */
export class OverBudget extends Error {
  override name = 'OverBudget';
  constructor(budget: number) {
    super(`the answers in flight held more than ${formatBytes(budget)} together, this one the most: refused (lower --concurrency if the server's answers are really that large)`);
  }
}

/** The client stopped talking to the server (its circuit opened) while this exchange was in flight. */
export class Cut extends Error {
  override name = 'Cut';
  constructor(readonly reason: string) {
    super(reason);
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
  /** Called whenever bytes come from the server (headers or body): it is alive. */
  onHeard?: () => void;
}

/**
 * An exchange handed to a server in this same process (plan --rehearse's copy, src/rehearse/rehearse.ts) instead of
 * sent over a connection: `target` is the path and query as they would be sent, below the URL's origin.
 */
export type DirectExchange = (request: { method: string; target: string; headers: Record<string, string>; body?: string }) => Promise<RawAnswer>;

/** One answer being received, as the shared body budget sees it. */
interface Receiving {
  size: number;
  fail(e: Error): void;
}

/** Idle connections are closed before a server usually drops them (Node's server: 5 s), so a reused one is rarely stale. */
const IDLE_MS = 4000;

export class Transport {
  private readonly agent: http.Agent;
  private readonly send: typeof http.request;
  private readonly origin: { protocol: string; hostname: string; port: string };
  /** The URL's path up to and including /api/v1/ (a server under a sub-path keeps it). */
  readonly apiRoot: string;
  /** Exchanges in flight: how to end each at once (see cutAll), and how much of its body is held. */
  private readonly inFlight = new Set<Receiving>();
  private buffered = 0;
  /** The most bytes of answers held at once so far (tests check the budget with it). */
  peakBuffered = 0;

  /**
   * `bodyBudget` bounds the bytes of all answers held at once: each answer alone is bounded by
   * maxBodyBytes, but 64 of them at --concurrency 64 would be 4 GB. Past the budget the largest
   * answer in flight is cut (an oversized one, most likely), so memory stays bounded whatever the
   * concurrency.
   */
  constructor(
    baseUrl: string,
    private readonly headers: Record<string, string>,
    private readonly bodyBudget = Number.POSITIVE_INFINITY,
    private readonly direct?: DirectExchange,
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

  /**
   * The run is over: its idle kept-alive connections are closed now, and each one still in use when
   * its exchange ends (what a process finishes before it exits), so that none outlives the run in a
   * process that goes on (they would idle out only after IDLE_MS).
   */
  close(): void {
    this.agent.maxFreeSockets = 0;
    for (const sockets of Object.values(this.agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
  }

  /** Ends every exchange in flight at once with Cut(reason): the client stopped talking to the server. */
  cutAll(reason: string): void {
    for (const r of [...this.inFlight]) r.fail(new Cut(reason));
  }

  /** Sends one request and reads its answer to the end; network failures reject with Node's error (its .code says why). */
  exchange(x: Exchange): Promise<RawAnswer> {
    if (this.direct) {
      const body = x.body === undefined ? {} : { body: x.body };
      return this.direct({ method: x.method, target: this.target(x.path, x.query, x.forgejoApi).full, headers: { ...this.headers, ...(x.body === undefined ? {} : { 'content-type': 'application/json' }) }, ...body });
    }
    const headers: Record<string, string | number> = { ...this.headers };
    if (x.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(x.body);
    }
    return new Promise<RawAnswer>((resolve, reject) => {
      let settled = false;
      let res: http.IncomingMessage | undefined;
      let chunks: Buffer[] = [];
      const receiving: Receiving = { size: 0, fail: (e) => fail(e) };
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.inFlight.delete(receiving);
        this.buffered -= receiving.size;
        fn();
        // A refused body is let go at once, not when the garbage collector finds the closure.
        chunks = [];
      };
      const fail = (e: Error) => {
        settle(() => reject(e));
        res?.destroy();
        req.destroy();
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
        (answer) => {
          res = answer;
          x.onHeard?.();
          const declared = Number(answer.headers['content-length'] ?? NaN);
          if (declared > x.maxBodyBytes) return fail(new BodyTooLarge(x.maxBodyBytes));
          answer.on('data', (chunk: Buffer) => {
            if (settled) return;
            x.onHeard?.();
            receiving.size += chunk.length;
            this.buffered += chunk.length;
            if (receiving.size > x.maxBodyBytes) return fail(new BodyTooLarge(x.maxBodyBytes));
            chunks.push(chunk);
            if (this.buffered > this.bodyBudget) this.cutLargest();
            this.peakBuffered = Math.max(this.peakBuffered, this.buffered);
          });
          answer.on('end', () => settle(() => resolve({ status: answer.statusCode ?? 0, headers: new NodeHeaders(answer.headers), text: Buffer.concat(chunks).toString('utf8') })));
          answer.on('error', (e) => settle(() => reject(e)));
          // The connection ended in the middle of the body.
          answer.on('close', () => {
            if (!answer.complete) settle(() => reject(Object.assign(new Error('the connection closed in the middle of the answer'), { code: 'ECONNRESET' })));
          });
        },
      );
      this.inFlight.add(receiving);
      const timer = setTimeout(() => fail(new TimedOut(x.timeoutMs)), x.timeoutMs);
      req.on('error', (e) => settle(() => reject(e)));
      req.end(x.body);
    });
  }

  /** Past the body budget: the answer holding the most is cut, so the others can finish. */
  private cutLargest(): void {
    let largest: Receiving | undefined;
    for (const r of this.inFlight) if (!largest || r.size > largest.size) largest = r;
    largest?.fail(new OverBudget(this.bodyBudget));
  }
}
