import type { AnswerHeaders } from './transport.js';

/**
 * When a failed request is sent again. What the server did decides it, not just the method:
 *
 * - 429 and 503 say the server did not process the request, and a refused connection never reached
 *   it: any method is sent again, after Retry-After, with the same patience for reads and writes. A 429 (or any Retry-After) pauses the whole client, not just this request: the
 *   server is asking all of us to slow down.
 * - Another 5xx, a timeout or a lost connection leave it unknown whether the server acted. Reads and
 *   idempotent writes (PUT, DELETE) are sent again; a POST or PATCH is not — the executor re-reads
 *   the object before a create is tried again, so that it never happens twice.
 * - Anything else (4xx, a 3xx, an answer that is not what the API promises) is final.
 *
 * For an unknown outcome, reads get a larger budget than writes: a plan is all reads, and a read sent
 * again costs nothing. src/gitea/circuit.ts bounds all of it for the whole run.
 */

export type MethodClass = 'read' | 'idempotent' | 'write';

/**
 * How an attempt failed, as far as retrying is concerned: an answer's status, an answer lost (the
 * server may have acted), or a connection that never reached the server (refused: nothing was sent).
 */
export type Failure = { status: number } | { lost: true } | { unreached: true };

export function methodClass(method: string): MethodClass {
  if (method === 'GET' || method === 'HEAD') return 'read';
  if (method === 'PUT' || method === 'DELETE') return 'idempotent';
  return 'write';
}

/** Statuses that prove the request was not processed. */
const NOT_PROCESSED = new Set([429, 503]);
/** Statuses after which the server may or may not have acted. */
const UNKNOWN_OUTCOME = new Set([408, 500, 502, 504]);

const retriable: Record<MethodClass, { notProcessed: boolean; unknownOutcome: boolean }> = {
  read: { notProcessed: true, unknownOutcome: true },
  idempotent: { notProcessed: true, unknownOutcome: true },
  write: { notProcessed: true, unknownOutcome: false },
};

export function shouldRetry(cls: MethodClass, failure: Failure): boolean {
  const rule = retriable[cls];
  if ('lost' in failure) return rule.unknownOutcome;
  if ('unreached' in failure) return rule.notProcessed;
  if (NOT_PROCESSED.has(failure.status)) return rule.notProcessed;
  if (UNKNOWN_OUTCOME.has(failure.status)) return rule.unknownOutcome;
  return false;
}

/** The server may have acted on the request although it did not say so. */
export function mayHaveBeenProcessed(failure: Failure): boolean {
  if ('unreached' in failure) return false;
  return 'lost' in failure || UNKNOWN_OUTCOME.has(failure.status);
}

/** Retry-After (seconds or an HTTP date) in ms; undefined when absent or unreadable. */
export function retryAfterMs(headers: AnswerHeaders, now = Date.now()): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Exponential backoff: base, 2×base, 4×base…, capped at 16×base and 5 s. With the default 0.3 s base
 * a read that keeps failing gives up after about a minute of waits.
 */
export function backoffMs(retry: number, baseMs: number): number {
  return Math.min(5_000, 16 * baseMs, baseMs * 2 ** retry);
}

/** One pause shared by every request of a client: set by a 429, waited for before any request is sent. */
export class SharedPause {
  private until = 0;

  constructor(private readonly clock: Clock) {}

  extend(ms: number): void {
    this.until = Math.max(this.until, this.clock.now() + ms);
  }

  async wait(): Promise<void> {
    for (let left = this.until - this.clock.now(); left > 0; left = this.until - this.clock.now()) await this.clock.sleep(left);
  }
}

/** Time as the client sees it (tests give it a fake one). */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
