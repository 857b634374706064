import { colors, useColor, type Colors } from '../render/color.js';
import { inertOutput } from '../render/inert.js';
import { redactor } from '../redact.js';
import { knownSecretValues, SENSITIVE } from '../secret.js';
import type { Writable } from 'node:stream';
import { processIo, writableOf, type CliIo, type TextSink } from './io.js';

/** Exit codes: the contract with scripts and CI. */
export const EXIT = { ok: 0, error: 1, changes: 2, unsafe: 3, rehearsalFailed: 4 } as const;

/** An error meant for the user: printed without a stack trace. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.error,
  ) {
    super(message);
  }
}

/**
 * stdout carries the plan or the result, stderr progress and logs. Secrets are typed values that
 * print as (sensitive) wherever they go; this mask is the second net behind them: every text passes
 * it, and it hides the credentials and the value of every Secret (a secret field's) — as written, in
 * every encoded form a server or proxy may echo it in (URL, `+`, base64, hex, HTML, JSON, any case, cut
 * short: src/redact.ts), and line by line when it has several lines — and every Authorization line. Masking is by type, not by value: a field that is not secret
 * prints as itself, even when it was read from the environment.
 */
export class Output {
  readonly out: Colors;
  readonly err: Colors;
  private masker: (text: string) => string = redactor([], SENSITIVE);
  private added = new Set<string>();
  /** How many of knownSecretValues() the mask holds. */
  private seenSecrets = 0;

  private readonly outColours: boolean;
  private readonly errColours: boolean;
  private readonly outStream: TextSink;
  private readonly errStream: TextSink;
  /** The command's environment: the one place commands read it (never process.env, which an in-process run does not replace). */
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: CliIo['stdin'];
  /** What the run leaves open until its end (a client's connections, a progress timer): closed by end(). */
  private readonly endings: (() => void)[] = [];

  constructor(io: CliIo = processIo()) {
    this.outStream = io.stdout;
    this.errStream = io.stderr;
    this.env = io.env;
    this.stdin = io.stdin;
    this.outColours = useColor(io.stdout, io.env);
    this.errColours = useColor(io.stderr, io.env);
    this.out = colors(this.outColours);
    this.err = colors(this.errColours);
  }

  /** stderr as a node stream, unmasked, for a prompt (readline writes the question there). */
  promptStream(): Writable {
    return writableOf(this.errStream);
  }

  /** Runs `close` when the command ends, however it ends. */
  atEnd(close: () => void): void {
    this.endings.push(close);
  }

  /** The command ended: closes what it left open, so that nothing of it outlives it in a process that goes on. */
  end(): void {
    for (const close of this.endings.splice(0).reverse()) close();
  }

  /** Credentials (the token, a password) and other values that must never be printed. */
  addSecrets(values: Iterable<string>): void {
    for (const v of values) this.added.add(v);
    this.rebuild();
  }

  private rebuild(): void {
    const known = knownSecretValues();
    this.seenSecrets = known.size;
    // Every encoded form of each value, and every Authorization/extraheader line (src/redact.ts, issue 28).
    this.masker = redactor(new Set([...this.added, ...known]), SENSITIVE);
  }

  mask(text: string): string {
    if (knownSecretValues().size !== this.seenSecrets) this.rebuild();
    return this.masker(text);
  }

  // The last net behind the renderers: no control, bidi or invisible character a server or a config
  // supplied reaches the terminal raw (only forgeform's own line breaks and colours do).
  stdout(text: string): void {
    this.outStream.write(inertOutput(this.mask(text.endsWith('\n') ? text : `${text}\n`), this.outColours));
  }

  stderr(text: string): void {
    this.errStream.write(inertOutput(this.mask(text.endsWith('\n') ? text : `${text}\n`), this.errColours));
  }

  /**
   * Progress of long reads: rewritten in place on a terminal, a line every few seconds elsewhere
   * (a CI log). A timer keeps it going while nothing finishes (a single scope of 90,000 labels is
   * 1 step of 1 for minutes: issue 17), with `detail` (the requests sent so far) saying it moves.
   */
  progress(label: string, detail?: () => string): (done: number, total: number) => void {
    const tty = Boolean(this.errStream.isTTY);
    const write = (text: string) => this.errStream.write(text);
    const started = Date.now();
    let last = started;
    let done = 0;
    let total = 0;
    const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
    const line = () => `${label}: ${done}/${total}${detail ? ` (${detail()}, ${elapsed()})` : ''}`;
    const heartbeat = setInterval(
      () => {
        last = Date.now();
        write(tty ? `\r${line()}` : `${line()}\n`);
      },
      tty ? 1000 : PROGRESS_EVERY_MS,
    );
    heartbeat.unref();
    this.atEnd(() => clearInterval(heartbeat));
    return (d, t) => {
      done = d;
      total = t;
      const now = Date.now();
      const finished = done === total;
      if (finished) clearInterval(heartbeat);
      if (tty) {
        if (!finished && now - last < 100) return;
        last = now;
        write(`\r${label}: ${done}/${total}${finished ? ` (${elapsed()})\n` : ''}`);
        return;
      }
      if (finished) {
        if (total > 0) write(`${label}: ${done}/${total} (${elapsed()})\n`);
      } else if (now - last > PROGRESS_EVERY_MS && done > 0) {
        last = now;
        write(`${line()}\n`);
      }
    };
  }
}

/** Off a terminal, a progress line at most this often. */
const PROGRESS_EVERY_MS = 5000;

