/**
 * `forgeform sandbox [--port N] [--seed FILE] [--state FILE] [--token T] [--latency MS] [--fault-rate P]`.
 * Prints one line on stdout — `forgeform sandbox listening on http://127.0.0.1:PORT (token: T)` —
 * and nothing else there; with FORGEFORM_SANDBOX_VERBOSE set, one line per request on stderr.
 * Runs until SIGINT or SIGTERM, then closes the server and resolves (exit code 0).
 */
import { startSandbox } from './index.js';
import { loadSeedFileState } from './seed.js';

export interface SandboxCommandOptions {
  port?: number;
  seed?: string;
  state?: string;
  token?: string;
  latency?: number;
  faultRate?: number;
}

/** Test seams: where the first line goes, and a signal that stops the server like SIGTERM. */
export interface SandboxCommandIo {
  stdout?: { write(s: string): unknown };
  signal?: AbortSignal;
}

export async function runSandboxCommand(opts: SandboxCommandOptions, io: SandboxCommandIo = {}): Promise<void> {
  if (opts.faultRate !== undefined && !(opts.faultRate >= 0 && opts.faultRate <= 1)) {
    throw new Error(`--fault-rate must be between 0 and 1, got ${opts.faultRate}`);
  }
  if (opts.latency !== undefined && !(opts.latency >= 0)) throw new Error(`--latency must be a number of milliseconds ≥ 0, got ${opts.latency}`);
  if (opts.port !== undefined && !(Number.isInteger(opts.port) && opts.port >= 0 && opts.port <= 65535)) throw new Error(`--port must be 0..65535, got ${opts.port}`);
  // The check of the seed file builds its state: serve that one rather than building it a second time.
  const loaded = opts.seed ? loadSeedFileState(opts.seed) : undefined;
  const sandbox = await startSandbox({ port: opts.port ?? 0, seed: loaded?.seed, seedState: loaded?.state, statePath: opts.state, token: opts.token, latencyMs: opts.latency, faultRate: opts.faultRate });
  (io.stdout ?? process.stdout).write(`forgeform sandbox listening on ${sandbox.url} (token: ${sandbox.token})\n`);

  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      io.signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (io.signal?.aborted) stop();
    else io.signal?.addEventListener('abort', stop);
  });
  await sandbox.close();
  process.exitCode = 0;
}
