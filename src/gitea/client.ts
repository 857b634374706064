import pLimit, { type LimitFunction } from 'p-limit';
import { AnswerError, answerProblem, BodyTooLarge, cutAnswer, DEFAULT_MAX_BODY_BYTES, isCutJson, parseAnswer, wrongTypeError, type Expect, type Shape } from './answer.js';
import { revealSecrets } from '../secret.js';
import { ApiError, routeStalled, ServerStopped } from './errors.js';
import { readAllPages, type Page } from './paging.js';
import { unsafePathReason } from './path.js';
import { Circuit } from './circuit.js';
import { Cut, OverBudget, TimedOut, Transport, type AnswerHeaders, type DirectExchange } from './transport.js';
import { backoffMs, mayHaveBeenProcessed, methodClass, realClock, retryAfterMs, SharedPause, shouldRetry, type Clock, type Failure } from './retry.js';

export type Credentials = { token: string } | { username: string; password: string };

/** One retry to come, as ClientOptions.onRetry is told of it. */
export interface RetryInfo {
  method: string;
  path: string;
  reason: string;
  retry: number;
  of: number;
  waitMs: number;
}

export interface ClientOptions {
  url: string;
  credentials: Credentials;
  /** The one bound on requests in flight. */
  concurrency?: number;
  /** Time limit of one attempt, from sending the request to the last byte of the answer. */
  timeoutMs?: number;
  /**
   * How many times a request whose outcome is unknown (a 5xx, a lost answer) is sent again when that
   * is safe; reads, and any request the server did not process (429, 503), get READ_PATIENCE times as
   * many. At most MAX_RETRIES.
   */
  retries?: number;
  /** How long reads may keep the run busy in all (time with a read in flight), in ms; then reads fail. */
  readDeadlineMs?: number;
  /** Base of the exponential backoff, in ms (tests set it low). */
  retryDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the request fails, saying how long the server asked for. */
  maxRetryAfterMs?: number;
  /** Answers larger than this are refused. */
  maxBodyBytes?: number;
  /** Called once per HTTP attempt, for progress and request counting. */
  onRequest?: (method: string, path: string) => void;
  /**
   * A request is about to be sent again, after `waitMs`: what the server answered (`reason`), the how-manieth retry of
   * that request and how many it may get. Long silent waits (a proxy answering 502 for a minute) become visible.
   */
  onRetry?: (info: RetryInfo) => void;
  /** Something about the server's answers worth telling the user, that did not stop the request (the CLI prints it on stderr). */
  onWarning?: (message: string) => void;
  /** Tests replace the clock to see the waits without waiting. */
  clock?: Clock;
  /**
   * Told of every 2xx answer to a GET, as parsed (plan --rehearse keeps them: the objects the plan read, which seed the
   * copy it rehearses on, with no second pass over the server).
   */
  onAnswer?: (answer: ReadAnswer) => void;
  /** Exchanges handed to a server in this process instead of sent to `url` (plan --rehearse's copy: src/gitea/transport.ts). */
  exchange?: DirectExchange;
}

/** A 2xx answer to a GET, as ClientOptions.onAnswer is told of it. */
export interface ReadAnswer {
  /** Below /api/v1/ (or /api/forgejo/v1/ when forgejoApi), without the query. */
  path: string;
  query: Record<string, string | number | boolean | undefined>;
  forgejoApi: boolean;
  data: unknown;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** What the request is about ("label bug in acme/widgets"), for error messages. */
  object?: string;
  /** What a 2xx answer must hold; default: an object or a list for GET, any JSON (or nothing) otherwise. */
  expect?: Expect;
  /** The shape a 2xx answer (an object, or each item of a list) must have, types included: checked before it is used (answer.ts). */
  shape?: Shape;
  /**
   * Asked right before the request is first sent (once it has its turn under the concurrency
   * bound): true means it is not sent at all, and the call fails with NotSent. An interrupted
   * apply uses it so that nothing new starts, while requests already sent may be retried.
   */
  abandon?: () => boolean;
  /** A write that may be sent twice (Op.idempotent): retried as a read is. */
  idempotent?: boolean;
  /** The path is below /api/forgejo/v1/ (Forgejo's own API) instead of /api/v1/. */
  forgejoApi?: boolean;
  /**
   * A write that no list decided (apply's lock: the server's unique name and a read of the lock
   * itself judge it): the lists that ended on X-Total-Count's word are not proven for it. Without
   * this, a write under the root (`DELETE orgs/forgeform-lock`: writeParent '') proves every list read.
   */
  restsOnNoList?: boolean;
  /** The path under which the lists this write may rest on live, when its own path does not say (Op.restsOn); default writeParent. */
  restsOn?: string;
}

export interface Response<T> {
  status: number;
  data: T;
  headers: AnswerHeaders;
}

/**
 * The request was never sent: abandoned (see RequestOptions.abandon), or the run stopped talking to
 * the server (`reason`: it stopped answering, refused the credentials, or the reads' deadline passed).
 */
export class NotSent extends Error {
  constructor(
    method: string,
    path: string,
    readonly reason?: string,
  ) {
    super(reason ?? `${method} /api/v1/${path} was not sent`);
    this.name = 'NotSent';
  }
}

const PAGE_SIZE = 50;
/** Lists that announce no usable total are read at most this many pages. */
const MAX_PAGES = 1000;
/** Reads are sent again this many times more often than writes: they change nothing. */
const READ_PATIENCE = 5;
const DEFAULT_RETRIES = 3;
/** --retries at most: 10 (50 for reads) already outlasts any outage that a retry can ride out. */
export const MAX_RETRIES = 10;
/** Default of readDeadlineMs: ten minutes of reads is far beyond the largest plan (issue 17: 10 MB config in ≤ 20 s). */
export const DEFAULT_READ_DEADLINE_MS = 600_000;
/** All answers held at once, at most: twice the largest one answer. */
const BODY_BUDGET_FACTOR = 2;

/** Node's codes of a connection that can never succeed, however often it is tried: the name does not resolve, TLS cannot work. */
const HOPELESS = /^(ENOTFOUND|EAI_NONAME|EAI_FAIL|ERR_SSL_|ERR_TLS_|EPROTO|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_|ERR_INVALID_URL)/;
/**
 * Codes of a connection that did not reach the server (nothing was sent): final before the server
 * ever answered in this run (a wrong host or port: issue 17, 57 s of retries before), sent again
 * while it answered within the last --timeout (a restart), then the run stops.
 */
const UNREACHED = /^(ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|EAI_AGAIN)$/;

/** What one attempt brought back. */
type Attempt =
  | { type: 'answer'; status: number; headers: AnswerHeaders; text: string }
  | { type: 'lost'; message: string; cause: unknown; timedOut: boolean; unreached: boolean; hopeless: boolean; sentAt: number; stopped?: string | undefined }
  | { type: 'final'; message: string; lost?: boolean };

export class GiteaClient {
  readonly baseUrl: string;
  readonly limit: LimitFunction;
  /** The HTTP transport (tests read its peak of buffered bytes). */
  readonly http: Transport;
  private readonly pause: SharedPause;
  private readonly clock: Clock;
  private readonly warned = new Set<string>();
  private readonly circuit: Circuit;
  /** Set when the credentials, once accepted, are refused (401): nothing more is sent. */
  private credentialsCheck: Promise<void> | undefined;
  /** A GET /user in flight asking whether the server is alive while a request waits (see probe). */
  private probing: Promise<void> | undefined;
  /** When the last probe was sent (ms on the clock): one probe per silence, not one per request waiting in it. */
  private probedAt = Number.NEGATIVE_INFINITY;
  /**
   * Lists that ended on X-Total-Count's word rather than on a short page (src/gitea/paging.ts), by
   * path: the page that would prove the end, read before the first write under the same parent (see
   * writeParent) — a create, rename or delete there may rest on what the list did not show.
   */
  private readonly unproven = new Map<string, Map<string, () => Promise<void>>>();
  private readonly proofs = new Map<string, Promise<void>>();
  /** HTTP attempts sent. */
  requestCount = 0;
  /**
   * The server's clock as its last answer's `Date` header gave it (RFC 9110 §6.6.1: every origin
   * server with a clock sends it; Gitea's and Forgejo's net/http does), with the local time it came:
   * apply's lock judges a holder's age on it, never on this machine's clock (issue 28).
   */
  serverDate: { server: number; local: number } | undefined;
  /** Attempts that were a retry of a failed one. */
  retryCount = 0;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.url.replace(/\/+$/, '');
    this.limit = pLimit(options.concurrency ?? 8);
    this.clock = options.clock ?? realClock;
    this.pause = new SharedPause(this.clock);
    this.circuit = new Circuit(this.clock, {
      timeoutMs: this.timeoutMs,
      overloadMs: this.maxRetryAfterMs,
      readDeadlineMs: options.readDeadlineMs ?? DEFAULT_READ_DEADLINE_MS,
    });
    this.http = new Transport(
      this.baseUrl,
      { authorization: authorization(options.credentials), accept: 'application/json' },
      BODY_BUDGET_FACTOR * (options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES),
      options.exchange,
    );
  }

  /** The run is over: its kept-alive connections are closed (those in use once their exchange ends). */
  close(): void {
    this.http.close();
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? 30_000;
  }

  private get retries(): number {
    return this.options.retries ?? DEFAULT_RETRIES;
  }

  /**
   * One API call, sent again as src/gitea/retry.ts allows. Non-2xx answers, answers that are not
   * what the API promises and lost answers become an ApiError naming the operation, the object,
   * the status and the server's message.
   */
  async request<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<Response<T>> {
    const unsafe = unsafePathReason(path);
    if (unsafe) throw new AnswerError(method, path, `refused: ${unsafe}`, opts.object);
    if (method !== 'GET' && !opts.restsOnNoList && this.unproven.size) await this.proveListsUnder(opts.restsOn ?? writeParent(method, path));
    const cls = opts.idempotent ? 'read' : methodClass(method);
    let maybeProcessed = false;
    let timeouts = 0;
    let cut = 0;
    for (let retry = 0; ; retry++) {
      const attempt = await this.limit(() => this.attempt(method, path, opts, retry));
      /** The error of this attempt, saying how often the request was tried when it was more than once. */
      const fail = (status: number | undefined, message: string, cause?: unknown) => {
        const error = new ApiError(method, path, status, message, opts.object, cause);
        if (retry > 0) error.message += ` (tried ${retry + 1} times)`;
        return error;
      };
      if (attempt.type === 'final') {
        if (attempt.lost) throw new ServerStopped(method, path, attempt.message, opts.object);
        throw new AnswerError(method, path, `failed: ${attempt.message}`, opts.object);
      }
      if (attempt.type === 'answer') {
        const { status, headers, text } = attempt;
        if (status >= 200 && status < 300) {
          const parsed = parseAnswer(text, opts.expect ?? (method === 'GET' ? 'container' : 'any'), method, status);
          if ('due' in parsed && isCutJson(text)) {
            // JSON cut short: a read is sent again once before the answer is blamed on what stands in between.
            if (cls !== 'read' || cut++ > 0) throw cutAnswer(method, path, text, cut > 1, opts.object);
            this.retryCount++;
            this.options.onRetry?.({ method, path, reason: `answered ${status} with JSON cut short (${Buffer.byteLength(text)} bytes)`, retry: retry + 1, of: retry + 1, waitMs: 0 });
            continue;
          }
          if ('due' in parsed) throw AnswerError.wrongAnswer(method, path, parsed.body, parsed.due, opts.object);
          const problem = opts.shape && parsed.data !== undefined ? answerProblem(parsed.data, opts.shape) : undefined;
          if (problem) throw wrongTypeError(method, path, parsed.data, problem, opts.object);
          if (method === 'GET') this.options.onAnswer?.({ path, query: opts.query ?? {}, forgejoApi: Boolean(opts.forgejoApi), data: parsed.data });
          return { status, data: parsed.data as T, headers };
        }
        // The first attempt did it, and its answer was lost: the object is gone, as asked.
        if (method === 'DELETE' && status === 404 && maybeProcessed) return { status, data: undefined as T, headers };
        if (status >= 300 && status < 400) {
          const location = headers.get('location') ?? '';
          const error = fail(status, location ? `moved to ${location}` : '');
          if (location) error.location = location;
          throw error;
        }
        if (status === 401) {
          await this.credentialsCheck;
          throw fail(status, messageOf(text));
        }
      }
      const failure: Failure = attempt.type === 'lost' ? (attempt.unreached ? { unreached: true } : { lost: true }) : { status: attempt.status };
      const status = attempt.type === 'answer' ? attempt.status : undefined;
      const message = attempt.type === 'lost' ? attempt.message : messageOf(attempt.text);
      const cause = attempt.type === 'lost' ? attempt.cause : undefined;
      if (attempt.type === 'lost' && attempt.stopped) throw new ServerStopped(method, path, attempt.stopped, opts.object, cause);
      // A server too slow for the time limit is given one more chance, not the whole budget of waits.
      if (attempt.type === 'lost' && attempt.timedOut) timeouts++;
      if (!shouldRetry(cls, failure) || retry >= this.budget(cls, failure) || timeouts > 1) {
        // The server answered meanwhile (other requests, the probe): this route alone stalls.
        if (attempt.type === 'lost' && attempt.timedOut) throw routeStalled(fail(status, message, cause), this.timeoutMs, retry);
        throw fail(status, message, cause);
      }
      if (attempt.type === 'answer' && this.circuit.overloadSpent())
        throw fail(status, `${message} (the server has refused every request for over ${Math.round(this.maxRetryAfterMs / 1000)} s; forgeform stopped waiting)`);
      maybeProcessed ||= mayHaveBeenProcessed(failure);
      const asked = attempt.type === 'answer' ? retryAfterMs(attempt.headers, this.clock.now()) : undefined;
      if (asked !== undefined && asked > this.maxRetryAfterMs)
        throw fail(status, `${message} (the server asks to wait ${Math.round(asked / 1000)} s before trying again, longer than forgeform waits)`);
      this.retryCount++;
      // A paced answer has already paused the whole client (see attempt); anything else backs off alone.
      const waitMs = isPaced(attempt) ? (asked ?? 0) : this.backoff(retry);
      const reason = status !== undefined ? `answered ${status}${message ? ` ${message}` : ''}` : message;
      this.options.onRetry?.({ method, path, reason, retry: retry + 1, of: this.budget(cls, failure), waitMs });
      if (!isPaced(attempt)) await this.clock.sleep(waitMs);
    }
  }

  /**
   * How often a request is sent again. What the server did not process (429, 503, a connection that
   * never reached it) gets the same patience whatever the method, reads and writes alike (issue 18:
   * writes gave up on a 503 after 2 s while reads waited 60 s); bounded in time for the whole run by
   * the overload budget (Circuit.overloadSpent). An unknown outcome gets the write budget for PUT and
   * DELETE, the read budget for reads.
   */
  private budget(cls: ReturnType<typeof methodClass>, failure: Failure): number {
    const notProcessed = 'unreached' in failure || ('status' in failure && (failure.status === 429 || failure.status === 503));
    return cls === 'read' || notProcessed ? this.retries * READ_PATIENCE : this.retries;
  }

  /**
   * A lost attempt that ends the run's talking to the server: one that can never succeed (an unknown
   * host, TLS to a plain-HTTP port), a connection refused before the server ever answered, or a
   * silence as long as --timeout from the whole server. The circuit opens: requests queued are not
   * sent, those in flight are cut (their own timeouts would add up, batch after batch).
   */
  private stopsTheRun(method: string, path: string, a: Extract<Attempt, { type: 'lost' }>): string | undefined {
    const c = this.circuit;
    const silent = a.timedOut ? c.silentSince(a.sentAt) : a.unreached && (!c.everHeard || c.silentFor() >= this.timeoutMs);
    if (!a.hopeless && !silent) return undefined;
    if (!c.reason) {
      const n = new ApiError(method, path, undefined, a.message, undefined, a.cause).network;
      const reason = a.timedOut
        ? `${this.baseUrl} stopped answering: no answer in time to ${method} /api/v1/${path} (nothing came from the server within ${this.timeoutMs / 1000} s, --timeout), so nothing more is sent; check that it is up, or raise --timeout`
        : `cannot reach ${this.baseUrl}: ${n?.reason ?? a.message}${n?.code ? ` (${n.code})` : ''}; ${n?.advice ?? 'check the URL'}`;
      c.open(reason);
      this.http.cutAll(reason);
    }
    return c.reason;
  }

  /**
   * After a 401 on a request other than the first ones: are the credentials still accepted at all
   * (GET /user), or only not for this route? When refused, nothing more is sent (issue 18: every
   * remaining write was sent and failed); the executor reports the rest as not started. Every
   * request waits for the answer before it is sent, and the check itself goes around the
   * concurrency bound, so that no queued write slips out in between.
   */
  private checkCredentials(path: string): void {
    if (path === 'version' || path === 'user' || this.circuit.reason || this.credentialsCheck) return;
    this.requestCount++;
    this.options.onRequest?.('GET', this.http.target('user').pathname);
    this.credentialsCheck = this.http
      .exchange({ method: 'GET', path: 'user', timeoutMs: this.timeoutMs, maxBodyBytes: this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, onHeard: () => this.circuit.heard() })
      .then(
        (res) => {
          if (res.status === 401)
            this.circuit.open(`${this.baseUrl} refused the credentials (401 Unauthorized on GET /api/v1/user) after accepting them, so nothing more is sent: check the token, or whether it was revoked`);
        },
        () => undefined,
      )
      .finally(() => {
        this.credentialsCheck = undefined;
      });
  }

  private get maxRetryAfterMs(): number {
    return this.options.maxRetryAfterMs ?? 120_000;
  }

  private backoff(retry: number): number {
    return backoffMs(retry, this.options.retryDelayMs ?? 300);
  }

  /**
   * One HTTP exchange under the concurrency bound, with the deadline covering the body. A rate
   * limit (429, or any failure with Retry-After) pauses the whole client before the slot is given
   * to the next request, so that no request slips out between the answer and the pause.
   */
  private async attempt(method: string, path: string, opts: RequestOptions, retry: number): Promise<Attempt> {
    const first = retry === 0;
    await this.pause.wait();
    await this.credentialsCheck;
    if (first && opts.abandon?.()) throw new NotSent(method, path);
    const read = methodClass(method) === 'read';
    const stopped = this.circuit.reason ?? (read && this.circuit.readDeadlinePassed() ? this.readDeadlineReason() : undefined);
    if (stopped) {
      // A write never sent is reported as not started (the executor knows NotSent); a read fails like any read.
      if (first && !read) throw new NotSent(method, path, stopped);
      return { type: 'final', message: stopped, lost: true };
    }
    const timeoutMs = this.timeoutMs;
    const query = opts.query ? definedOnly(opts.query) : undefined;
    this.requestCount++;
    this.options.onRequest?.(method, this.http.target(path, undefined, opts.forgejoApi).pathname);
    const sentAt = this.clock.now();
    if (read) this.circuit.readStarted();
    // Half its time limit gone with nothing from the server: is the server silent, or only this route? (probe)
    const watch = setTimeout(() => this.probe(sentAt), timeoutMs / 2);
    try {
      const res = await this.http.exchange({
        method,
        path,
        ...(query ? { query } : {}),
        ...(opts.forgejoApi ? { forgejoApi: true } : {}),
        ...(opts.body !== undefined ? { body: requestBody(opts.body) } : {}),
        timeoutMs,
        maxBodyBytes: this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
        onHeard: () => this.circuit.heard(),
      });
      this.circuit.answered(res.status);
      const date = Date.parse(res.headers.get('date') ?? '');
      if (Number.isFinite(date)) this.serverDate = { server: date, local: Date.now() };
      if (res.status === 401) this.checkCredentials(path);
      const answer: Attempt = { type: 'answer', status: res.status, headers: res.headers, text: res.text };
      if (isPaced(answer)) {
        const asked = retryAfterMs(res.headers, this.clock.now());
        if (asked === undefined || asked <= this.maxRetryAfterMs) this.pause.extend(Math.max(asked ?? 0, this.backoff(retry)));
      }
      return answer;
    } catch (e) {
      if (e instanceof BodyTooLarge || e instanceof OverBudget) return { type: 'final', message: e.message };
      if (e instanceof Cut) return { type: 'final', message: e.reason, lost: true };
      const base = { type: 'lost' as const, cause: e, sentAt, timedOut: false, unreached: false, hopeless: false };
      const code = errorCode(e);
      const lost =
        e instanceof TimedOut
          ? { ...base, message: `no complete answer within ${timeoutMs / 1000} s (--timeout)`, timedOut: true }
          : { ...base, message: networkMessage(e), unreached: UNREACHED.test(code), hopeless: HOPELESS.test(code) };
      // Decided here, before the slot goes to the next request: once the run stops, that one must not be sent.
      return { ...lost, stopped: this.stopsTheRun(method, path, lost) };
    } finally {
      clearTimeout(watch);
      if (read) this.circuit.readEnded();
    }
  }

  /**
   * One request has had nothing from the server for half its time limit, and nothing else came meanwhile:
   * asks the server something small (GET /user: it reads the database as most routes do, unlike /version).
   * Its answer, whatever the status, is heard: when the request then times out, the server is alive and that
   * route alone stalls — its own failure, never "the server stopped answering" for the whole run (issue 28).
   * One probe at a time, and none for a request sent before the last probe went (that probe asked already:
   * a second one, when the first ends before the other requests' half-time comes, adds a request and says
   * nothing new), around the concurrency bound (a full queue must not hold it back); its outcome is only
   * what the circuit hears.
   */
  private probe(sentAt: number): void {
    if (this.probing || this.circuit.reason || !this.circuit.silentSince(sentAt) || this.probedAt >= sentAt) return;
    this.probedAt = this.clock.now();
    this.requestCount++;
    this.options.onRequest?.('GET', this.http.target('user').pathname);
    this.probing = this.http
      .exchange({ method: 'GET', path: 'user', timeoutMs: this.timeoutMs / 2, maxBodyBytes: 1024 * 1024, onHeard: () => this.circuit.heard() })
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.probing = undefined;
      });
  }

  private readDeadlineReason(): string {
    return `the reads of this run took over ${Math.round(this.circuit.opts.readDeadlineMs / 1000)} s in all (--read-deadline): the server answers too slowly to plan`;
  }

  /** The server's time now (its last `Date` header, moved on by the time since), or undefined before any answer carried one. */
  serverNow(): number | undefined {
    return this.serverDate && this.serverDate.server + (Date.now() - this.serverDate.local);
  }

  async get<T = unknown>(path: string, opts: RequestOptions = {}): Promise<T> {
    return (await this.request<T>('GET', path, opts)).data;
  }

  /** Every item of a paged list (see src/gitea/paging.ts for how far it reads, and how much at once). */
  async list<T = unknown>(path: string, opts: RequestOptions = {}): Promise<T[]> {
    const fetchPage = async (page: number, limit = PAGE_SIZE) => {
      const res = await this.request<T[]>('GET', path, { ...opts, expect: 'list', query: { ...opts.query, limit, page } });
      return { items: res.data, headers: res.headers };
    };
    return this.readPages<T>(path, opts, fetchPage, undefined, (next, total) =>
      this.remember(path, JSON.stringify(opts.query ?? {}), async () => {
        const after = await fetchPage(next);
        if (after.items.length)
          throw new AnswerError(
            'GET',
            path,
            `said X-Total-Count ${total}, yet page ${next} holds ${after.items.length} more: the list cannot be read whole (a proxy or cache in front of the server answers a wrong total), so nothing that depends on what it holds is written`,
            opts.object,
          );
      }),
    );
  }

  private remember(path: string, query: string, prove: () => Promise<void>): void {
    let byQuery = this.unproven.get(path);
    if (!byQuery) this.unproven.set(path, (byQuery = new Map()));
    byQuery.set(query, prove);
  }

  /** Proves every list read on X-Total-Count's word whose path starts with `prefix` (all of them for ''). */
  private async proveListsUnder(prefix: string): Promise<void> {
    const paths = [...this.unproven.keys()].filter((p) => p.startsWith(prefix));
    if (paths.length) await Promise.all(paths.map((p) => this.proveListEnds(p)));
  }

  /**
   * Reads the page after every list of `path` that ended on X-Total-Count's word (once: concurrent
   * writes share the proof). What a write decides from a list's absence (a create, a rename into a
   * free name, a copy carried by no issue) must rest on the whole list: a wrong total would make
   * forgeform create an object a second time.
   */
  private proveListEnds(path: string): Promise<void> {
    const byQuery = this.unproven.get(path);
    if (!byQuery) return Promise.resolve();
    let proof = this.proofs.get(path);
    if (!proof) {
      // A failed proof stays: every write depending on that list fails the same way, without reading again.
      const proving = [...byQuery];
      proof = Promise.all(proving.map(([, prove]) => prove())).then(() => {
        for (const [query, prove] of proving) if (byQuery.get(query) === prove) byQuery.delete(query);
        if (!byQuery.size) this.unproven.delete(path);
        this.proofs.delete(path);
      });
      proof.catch(() => undefined);
      this.proofs.set(path, proof);
    }
    return proof;
  }

  /**
   * Every item of a paged list whose body wraps the items and the total ({runners, total_count}):
   * read like any list, the body's total standing for X-Total-Count.
   */
  async listWrapped<T = unknown>(path: string, opts: RequestOptions, unwrap: (body: unknown) => { items: unknown; total: unknown }, totalName: string): Promise<T[]> {
    return this.readPages<T>(
      path,
      opts,
      async (page, limit = PAGE_SIZE) => {
        const { shape, ...rest } = opts;
        const res = await this.request('GET', path, { ...rest, expect: 'container', query: { ...opts.query, limit, page } });
        const { items, total } = unwrap(res.data);
        if (items !== undefined && items !== null && !Array.isArray(items)) throw AnswerError.wrongAnswer('GET', path, res.data, 'a list in its body', opts.object);
        // The shape is the items' (the wrapper is unwrap's business).
        const problem = shape && Array.isArray(items) ? answerProblem(items, shape) : undefined;
        if (problem) throw wrongTypeError('GET', path, res.data, `in its list: ${problem}`, opts.object);
        return { items: (items ?? []) as T[], headers: new Headers(total === undefined || total === null ? {} : { 'x-total-count': String(total) }) };
      },
      totalName,
    );
  }

  private readPages<T>(path: string, opts: RequestOptions, fetchPage: (page: number, limit?: number) => Promise<Page<T>>, totalName?: string, onTrusted?: (next: number, total: number) => void): Promise<T[]> {
    const what = `${opts.object ? `${opts.object}: ` : ''}GET /api/v1/${path}`;
    return readAllPages<T>(fetchPage, {
      pageSize: PAGE_SIZE,
      prefetch: Math.max(16, 2 * (this.options.concurrency ?? 8)),
      maxPages: MAX_PAGES,
      warn: (m) => this.warn(`${what}: ${m}`),
      endless: (pages, why) => new AnswerError('GET', path, `failed: the list did not end after ${pages} pages ${why}: the server (or a proxy) seems to ignore the page parameter; stopped`, opts.object),
      unpageable: (page, repeats) =>
        new AnswerError('GET', path, `failed: page ${page} repeats page ${repeats}: the server (or a proxy) ignores the page parameter, so the list cannot be read beyond its first ${PAGE_SIZE}; stopped`, opts.object),
      ...(totalName ? { totalName } : {}),
      ...(onTrusted ? { onTrusted } : {}),
    });
  }

  private warn(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.options.onWarning?.(message);
  }
}

/**
 * Where the lists a write may rest on live: the parent of the collection it writes to
 * (`POST repos/o/r/labels` and `DELETE repos/o/r/labels/7` → `repos/o/r/`, whose labels and issues
 * lists decided them; `POST admin/users` → `admin/`).
 */
function writeParent(method: string, path: string): string {
  const segments = path.split('/');
  const collection = method === 'POST' ? segments : segments.slice(0, -1);
  const parent = collection.slice(0, -1);
  return parent.length ? `${parent.join('/')}/` : '';
}

/** A failed answer that asks the client to slow down: it pauses every request, not just its own. */
function isPaced(a: Attempt): boolean {
  return a.type === 'answer' && (a.status === 429 || (a.status >= 400 && a.headers.has('retry-after')));
}

function authorization(c: Credentials): string {
  if ('token' in c) return `token ${c.token}`;
  return `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`;
}

/** The JSON text of a request body as sent: the one place where a Secret gives its value. */
function requestBody(body: unknown): string {
  return JSON.stringify(revealSecrets(body));
}

function definedOnly(q: Record<string, string | number | boolean | undefined>): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as Record<string, string | number | boolean>;
}

/** Gitea's error body is {message, url}; 403s may be empty, routing 404s and proxies' pages plain text. */
function messageOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && 'message' in parsed) return String((parsed).message);
  } catch {
    // not JSON: the text itself, shortened
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}

/** The system's code of a failed connection (ECONNREFUSED, ENOTFOUND, ERR_SSL_…), or ''. */
function errorCode(e: unknown): string {
  for (let cur = e, depth = 0; cur && typeof cur === 'object' && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return '';
}

function networkMessage(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ? `${e.message} (${cause.code})` : cause?.message ? `${e.message} (${cause.message})` : e.message;
  }
  return String(e);
}

// Defined beside ApiError, so that kinds can ask it without loading the HTTP client (validate stays light).
export { isApiError } from './errors.js';
