import type { Clock } from './retry.js';

/**
 * What the run knows of the server as a whole, shared by every request of a client: when it last
 * heard from it, since when it refuses everything (429/503), how long reads have kept the run busy,
 * and whether the run has stopped sending (the circuit is open). Each request alone cannot tell a
 * dead server from a slow answer; together they can: an attempt that timed out while nothing at all
 * came from the server since it was sent means the server stopped answering, and every other request
 * would only wait for its own timeout too (issue 18: 2 × --timeout per batch, 75 s for 60 repositories
 * at --timeout 5). So the first such timeout opens the circuit: queued requests are not sent, those
 * in flight are cut, and the run fails in about one --timeout.
 */
export interface CircuitOptions {
  /** --timeout, in ms. */
  timeoutMs: number;
  /** How long the server may refuse every request (429/503) before the run gives up, in ms. */
  overloadMs: number;
  /** How long reads may keep the run busy in all (time with at least one read in flight), in ms. */
  readDeadlineMs: number;
}

export class Circuit {
  /** When bytes last came from the server (-Infinity: never in this run). */
  private heardAt = Number.NEGATIVE_INFINITY;
  /** Since when every answer was 429 or 503 (undefined: the last answer was something else). */
  private overloadedSince: number | undefined;
  /** Why nothing more is sent (the circuit is open). */
  private openReason: string | undefined;
  private readsInFlight = 0;
  private readsBusySince = 0;
  private readsBusyMs = 0;

  constructor(
    private readonly clock: Clock,
    readonly opts: CircuitOptions,
  ) {}

  /** Bytes came from the server: it is alive. */
  heard(): void {
    this.heardAt = this.clock.now();
  }

  /** The server has answered something in this run. */
  get everHeard(): boolean {
    return this.heardAt !== Number.NEGATIVE_INFINITY;
  }

  /** Nothing came from the server since `since` (ms on the clock). */
  silentSince(since: number): boolean {
    return this.heardAt < since;
  }

  /** How long the server has been silent, in ms (Infinity when it never spoke). */
  silentFor(): number {
    return this.clock.now() - this.heardAt;
  }

  /** An answer with this status came: 429 and 503 in a row count against the overload budget. */
  answered(status: number): void {
    if (status === 429 || status === 503) this.overloadedSince ??= this.clock.now();
    else this.overloadedSince = undefined;
  }

  /** The server has refused everything for longer than the overload budget. */
  overloadSpent(): boolean {
    return this.overloadedSince !== undefined && this.clock.now() - this.overloadedSince > this.opts.overloadMs;
  }

  open(reason: string): void {
    this.openReason ??= reason;
  }

  /** Why nothing more is sent, or undefined while requests may go. */
  get reason(): string | undefined {
    return this.openReason;
  }

  /** A read starts: the reads' busy time runs while one is in flight. */
  readStarted(): void {
    if (this.readsInFlight++ === 0) this.readsBusySince = this.clock.now();
  }

  readEnded(): void {
    if (--this.readsInFlight === 0) this.readsBusyMs += this.clock.now() - this.readsBusySince;
  }

  /** Reads have kept the run busy longer than the read deadline. */
  readDeadlinePassed(): boolean {
    const running = this.readsInFlight > 0 ? this.clock.now() - this.readsBusySince : 0;
    return this.readsBusyMs + running > this.opts.readDeadlineMs;
  }
}
