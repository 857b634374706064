/**
 * `forgeform sandbox [--port N] [--seed FILE] [--state FILE] [--token T] [--latency MS] [--fault-rate P] [--flavour FORK@RELEASE] [--federation] [--timezone ZONE]`.
 * Prints one line on stdout — `forgeform sandbox listening on http://127.0.0.1:PORT (token: T)` —
 * and nothing else there; with FORGEFORM_SANDBOX_VERBOSE set, one line per request on stderr.
 * Runs until SIGINT or SIGTERM, then closes the server and resolves (exit code 0).
 */
import { existsSync } from 'node:fs';
import { startSandbox, type Sandbox } from './index.js';
import { loadSeedFileState, type SeedFile } from './seed.js';
import type { SandboxState } from './core/state.js';
import { SeedError } from './core/seed-shape.js';
import { FlavourError, parseFlavour } from './flavours/flavour.js';
import { isTimeZone } from './core/timezone.js';

export interface SandboxCommandOptions {
  port?: number;
  seed?: string;
  state?: string;
  token?: string;
  latency?: number;
  faultRate?: number;
  /** `gitea@1.25`, `forgejo@11` …: the release to play. */
  flavour?: string;
  /** Turn federation on: `/nodeinfo` is served. */
  federation?: boolean;
  /** The server's time zone (IANA name), in which `due_date` is answered. */
  timezone?: string;
}

/** Test seams: where the first line goes, and a signal that stops the server like SIGTERM. */
export interface SandboxCommandIo {
  stdout?: { write(s: string): unknown };
  signal?: AbortSignal;
}

/** A bad argument, an unreadable seed or state file, a port that cannot be had: a message for the user. */
export class SandboxCommandError extends Error {
  override name = 'SandboxCommandError';
}

/** Why listen() failed, by system error code, with what to do. */
const LISTEN_FAILURES: Record<string, (port: number) => string> = {
  EADDRINUSE: (port) => `port ${port} is already in use: choose another --port, or --port 0 for any free port`,
  EACCES: (port) => `port ${port} needs privileges this user does not have: choose a port above 1023, or --port 0`,
};

function checkArguments(opts: SandboxCommandOptions): void {
  const fail = (message: string) => {
    throw new SandboxCommandError(message);
  };
  if (opts.faultRate !== undefined && !(opts.faultRate >= 0 && opts.faultRate <= 1)) fail(`--fault-rate must be a share between 0 and 1 (0.2 = 20%), got ${opts.faultRate}`);
  if (opts.latency !== undefined && !(opts.latency >= 0 && opts.latency <= 600_000)) fail(`--latency must be a number of milliseconds from 0 to 600000, got ${opts.latency}`);
  if (opts.port !== undefined && !(Number.isInteger(opts.port) && opts.port >= 0 && opts.port <= 65535)) fail(`--port must be a whole number from 0 to 65535 (0 = any free port), got ${opts.port}`);
  // A token travels in a header: what a client cannot send, no client could ever use.
  if (opts.flavour !== undefined) {
    try {
      parseFlavour(opts.flavour);
    } catch (e) {
      if (e instanceof FlavourError) fail(`--flavour: ${e.message}`);
      throw e;
    }
  }
  if (opts.timezone !== undefined && !isTimeZone(opts.timezone)) fail(`--timezone: unknown time zone "${opts.timezone}": expected an IANA name such as Europe/Berlin, or UTC`);
  if (opts.token !== undefined && !/^[\x21-\x7e]+$/.test(opts.token)) fail('--token must be plain ASCII with no spaces or line breaks');
}

/** The seed and the state its check built: served as it is, not built a second time. */
function loadSeed(path: string): { seed: SeedFile; state: SandboxState } {
  if (!existsSync(path)) throw new SandboxCommandError(`cannot read --seed ${path}: no such file`);
  try {
    return loadSeedFileState(path);
  } catch (e) {
    // The seed's own messages already start with the file name and the place in it.
    // A YAML syntax error adds an excerpt on further lines: its first line has the place already.
    if (e instanceof SeedError) throw new SandboxCommandError(`--seed ${e.message.split('\n')[0]!.replace(/:$/, '')}`);
    throw e;
  }
}

async function start(opts: SandboxCommandOptions, loaded: { seed: SeedFile; state: SandboxState } | undefined): Promise<Sandbox> {
  try {
    return await startSandbox({ port: opts.port ?? 0, seed: loaded?.seed, seedState: loaded?.state, statePath: opts.state, token: opts.token, latencyMs: opts.latency, faultRate: opts.faultRate, flavour: opts.flavour, ...(opts.federation ? { federation: true } : {}), ...(opts.timezone ? { timezone: opts.timezone } : {}) });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const listen = code ? LISTEN_FAILURES[code] : undefined;
    if (listen && (e as NodeJS.ErrnoException).syscall === 'listen') throw new SandboxCommandError(listen(opts.port ?? 0));
    if (opts.state && (e instanceof SyntaxError || /state file/.test((e as Error).message)))
      throw new SandboxCommandError(`--state ${opts.state} is not a forgeform sandbox state file: remove it to start from the seed, or give another path`);
    if (opts.state && code && (e as NodeJS.ErrnoException).path?.startsWith(opts.state))
      throw new SandboxCommandError(`cannot use --state ${opts.state}: ${(e as Error).message.replace(/^\w+: /, '')}`);
    throw e;
  }
}

export async function runSandboxCommand(opts: SandboxCommandOptions, io: SandboxCommandIo = {}): Promise<void> {
  checkArguments(opts);
  const loaded = opts.seed ? loadSeed(opts.seed) : undefined;
  const sandbox = await start(opts, loaded);
  // Listen for the stop signals before the first line: a caller may send one as soon as it reads it.
  const stopped = new Promise<void>((resolve) => {
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
  (io.stdout ?? process.stdout).write(`forgeform sandbox listening on ${sandbox.url} (token: ${sandbox.token})\n`);
  await stopped;
  await sandbox.close();
  process.exitCode = 0;
}
