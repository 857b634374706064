import { colors, useColor, type Colors } from '../render/color.js';
import { inertOutput } from '../render/inert.js';
import { knownSecretValues, maskForms, SENSITIVE } from '../secret.js';

/** Exit codes: the contract with scripts and CI. */
export const EXIT = { ok: 0, error: 1, changes: 2, unsafe: 3 } as const;

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
 * its JSON-escaped form, and line by line when it has several lines — wherever it shows up anyway (a
 * server that echoes a request body). Masking is by type, not by value: a field that is not secret
 * prints as itself, even when it was read from the environment.
 */
export class Output {
  readonly out: Colors;
  readonly err: Colors;
  private masked: string[] = [];
  private added = new Set<string>();
  /** How many of knownSecretValues() the mask holds. */
  private seenSecrets = 0;

  private readonly outColours: boolean;
  private readonly errColours: boolean;

  constructor() {
    this.outColours = useColor(process.stdout);
    this.errColours = useColor(process.stderr);
    this.out = colors(this.outColours);
    this.err = colors(this.errColours);
  }

  /** Credentials (the token, a password) and other values that must never be printed. */
  addSecrets(values: Iterable<string>): void {
    for (const v of values) for (const form of maskForms(v)) this.added.add(form);
    this.rebuild();
  }

  private rebuild(): void {
    const all = new Set(this.added);
    const known = knownSecretValues();
    for (const v of known) for (const form of maskForms(v)) all.add(form);
    this.seenSecrets = known.size;
    // Longest first: a line of a value must not break the match of the whole value.
    this.masked = [...all].sort((a, b) => b.length - a.length);
  }

  mask(text: string): string {
    if (knownSecretValues().size !== this.seenSecrets) this.rebuild();
    let t = text;
    for (const s of this.masked) t = t.split(s).join(SENSITIVE);
    return t;
  }

  // The last net behind the renderers: no control, bidi or invisible character a server or a config
  // supplied reaches the terminal raw (only forgeform's own line breaks and colours do).
  stdout(text: string): void {
    process.stdout.write(inertOutput(this.mask(text.endsWith('\n') ? text : `${text}\n`), this.outColours));
  }

  stderr(text: string): void {
    process.stderr.write(inertOutput(this.mask(text.endsWith('\n') ? text : `${text}\n`), this.errColours));
  }

  /**
   * Progress of long reads: rewritten in place on a terminal, a line every few seconds elsewhere
   * (a CI log). A timer keeps it going while nothing finishes (a single scope of 90,000 labels is
   * 1 step of 1 for minutes: issue 17), with `detail` (the requests sent so far) saying it moves.
   */
  progress(label: string, detail?: () => string): (done: number, total: number) => void {
    const tty = Boolean(process.stderr.isTTY);
    const started = Date.now();
    let last = started;
    let done = 0;
    let total = 0;
    const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
    const line = () => `${label}: ${done}/${total}${detail ? ` (${detail()}, ${elapsed()})` : ''}`;
    const heartbeat = setInterval(
      () => {
        last = Date.now();
        process.stderr.write(tty ? `\r${line()}` : `${line()}\n`);
      },
      tty ? 1000 : PROGRESS_EVERY_MS,
    );
    heartbeat.unref();
    return (d, t) => {
      done = d;
      total = t;
      const now = Date.now();
      const finished = done === total;
      if (finished) clearInterval(heartbeat);
      if (tty) {
        if (!finished && now - last < 100) return;
        last = now;
        process.stderr.write(`\r${label}: ${done}/${total}${finished ? ` (${elapsed()})\n` : ''}`);
        return;
      }
      if (finished) {
        if (total > 0) process.stderr.write(`${label}: ${done}/${total} (${elapsed()})\n`);
      } else if (now - last > PROGRESS_EVERY_MS && done > 0) {
        last = now;
        process.stderr.write(`${line()}\n`);
      }
    };
  }
}

/** Off a terminal, a progress line at most this often. */
const PROGRESS_EVERY_MS = 5000;

