import { Writable } from 'node:stream';

/** A stream a command writes text to: the process's stdout or stderr, or a test's buffer. */
export interface TextSink {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/** What a command line reads and writes besides its arguments and files: its streams and its environment. */
export interface CliIo {
  stdout: TextSink;
  stderr: TextSink;
  stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  /** The whole environment the command sees (never merged with the process's when given). */
  env: NodeJS.ProcessEnv;
}

/** The process's own streams and environment: what the CLI uses when run as `forgeform`. */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}

/** A node stream that writes into a sink (readline's prompt goes to the command's stderr this way). */
export function writableOf(sink: TextSink): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      sink.write(typeof chunk === 'string' ? chunk : chunk.toString());
      done();
    },
  });
}
