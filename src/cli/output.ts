import { colors, useColor, type Colors } from '../render/color.js';
import { SENSITIVE } from '../render/values.js';

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
 * stdout carries the plan or the result, stderr progress and logs. Every line passes the secret
 * mask first, so a value that came from an environment variable can never be printed.
 */
export class Output {
  readonly out: Colors;
  readonly err: Colors;
  private secrets: string[] = [];

  constructor() {
    this.out = colors(useColor(process.stdout));
    this.err = colors(useColor(process.stderr));
  }

  addSecrets(values: Iterable<string>): void {
    for (const v of values) if (v && v.length >= 3) this.secrets.push(v);
    this.secrets.sort((a, b) => b.length - a.length);
  }

  mask(text: string): string {
    let t = text;
    for (const s of this.secrets) t = t.split(s).join(SENSITIVE);
    return t;
  }

  stdout(text: string): void {
    process.stdout.write(this.mask(text.endsWith('\n') ? text : `${text}\n`));
  }

  stderr(text: string): void {
    process.stderr.write(this.mask(text.endsWith('\n') ? text : `${text}\n`));
  }

  /** Progress of long reads: rewritten in place on a terminal, a line every few seconds elsewhere. */
  progress(label: string): (done: number, total: number) => void {
    const tty = Boolean(process.stderr.isTTY);
    const started = Date.now();
    let last = started;
    return (done, total) => {
      const now = Date.now();
      const finished = done === total;
      if (tty) {
        if (!finished && now - last < 100) return;
        last = now;
        process.stderr.write(`\r${label}: ${done}/${total}${finished ? ` (${((now - started) / 1000).toFixed(1)}s)\n` : ''}`);
        return;
      }
      if (finished) {
        if (total > 0) process.stderr.write(`${label}: ${done}/${total} (${((now - started) / 1000).toFixed(1)}s)\n`);
      } else if (now - last > 5000 && done > 0) {
        last = now;
        process.stderr.write(`${label}: ${done}/${total}\n`);
      }
    };
  }
}
