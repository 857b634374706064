/**
 * `forgeform sandbox`: a built-in, Gitea-compatible HTTP server on loopback. See README.md beside
 * this file for the seed format and what is served; NOTES.md for the server facts it reproduces and
 * the Gitea source files they come from.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { createApp, persistState, type RequestLogEntry } from './app.js';
import { adminUser, buildState, SeedError, type SeedFile } from './seed.js';
import type { SandboxState } from './core/state.js';
import { stateFromJSON } from './core/state-file.js';
import { DEFAULT_FLAVOUR_NAME, parseFlavour, type Flavour } from './flavours/flavour.js';
import { seededRandom } from '../random.js';
import { DEFAULT_TIMEZONE, isTimeZone } from './core/timezone.js';

export { createApp, type AppOptions, type RequestLogEntry } from './app.js';
export { buildState, loadSeedFile, loadSeedFileState, SeedError, type SeedFile } from './seed.js';
export { SandboxState } from './core/state.js';
export { stateFromJSON, stateToJSON } from './core/state-file.js';
export { SANDBOX_VERSION } from './domains/meta/routes.js';
export { DEFAULT_FLAVOUR_NAME, FLAVOURS, FlavourError, parseFlavour, type Flavour, type Fork } from './flavours/flavour.js';

export interface SandboxOptions {
  /** 0 = any free port (the default). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** A parsed seed file (see `loadSeedFile`). */
  seed?: SeedFile;
  /** The state already built from `seed` (`loadSeedFileState`), so that it is not built twice; owned by the sandbox from now on. */
  seedState?: SandboxState;
  /** The admin token (owned by the first site admin); default a random hex string. */
  token?: string;
  /** Delay added to every `/api/v1` response. */
  latencyMs?: number;
  /** Share (0..1) of `/api/v1` requests answered with 500, 502, 503, 429 + Retry-After, or a dropped connection. */
  faultRate?: number;
  /** Seed of the fault injection's random source: the same seed draws the same faults in the same order. */
  faultSeed?: number;
  /** Retry-After (seconds) of an injected 429; default 1. */
  faultRetryAfter?: number;
  /** Load the state from this file when it exists (instead of the seed); write it after every successful write. */
  statePath?: string;
  /** The release to play: `gitea@1.25`, `forgejo@11` … (default: the seed's `flavour:`, else `gitea@main`). */
  flavour?: string;
  /** `[federation] ENABLED = true` (default: the seed's `federation:`, else off): `/nodeinfo` on releases that have it. */
  federation?: boolean;
  /** The server's time zone, an IANA name (default: the seed's `timezone:`, else UTC): `due_date` is answered in it. */
  timezone?: string;
  /** false: no request log (`requests()` stays empty), for a caller that never reads it (plan --rehearse's copy). */
  logRequests?: boolean;
}

export interface Sandbox {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  url: string;
  token: string;
  /** The `/api/v1` requests received so far, oldest first. */
  requests(): RequestLogEntry[];
  clearRequests(): void;
  close(): Promise<void>;
  state: SandboxState;
  /** The release the sandbox plays. */
  flavour: Flavour;
  /**
   * One exchange handed to the app in this process, without a socket (plan --rehearse's copy: its client and the
   * copy share one process, where a loopback connection only adds the cost of both HTTP stacks). The same routes,
   * middleware and answers as over `url`.
   */
  fetch(request: Request): Promise<Response>;
}

function checkedTimezone(zone: string): string {
  if (!isTimeZone(zone)) throw new SeedError(`timezone: unknown time zone "${zone}": expected an IANA name such as Europe/Berlin, or UTC`);
  return zone;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const host = opts.host ?? '127.0.0.1';
  const flavour = parseFlavour(opts.flavour ?? opts.seed?.flavour ?? opts.seed?.flavor ?? DEFAULT_FLAVOUR_NAME);
  const token = opts.token ?? randomBytes(20).toString('hex');
  const state = opts.statePath && existsSync(opts.statePath) ? stateFromJSON(readFileSync(opts.statePath, 'utf8')) : (opts.seedState ?? buildState(opts.seed));
  state.addToken(adminUser(state).id, token, ['all'], 'sandbox-admin');

  const log: RequestLogEntry[] = [];
  let url = '';
  const app = createApp(state, {
    rootUrl: () => `${url}/`,
    latencyMs: opts.latencyMs,
    faultRate: opts.faultRate,
    ...(opts.faultSeed !== undefined ? { random: seededRandom(opts.faultSeed) } : {}),
    ...(opts.faultRetryAfter !== undefined ? { faultRetryAfter: opts.faultRetryAfter } : {}),
    statePath: opts.statePath,
    requestLog: log,
    ...(opts.logRequests === false ? { logRequests: false } : {}),
    verbose: Boolean(process.env.FORGEFORM_SANDBOX_VERBOSE),
    flavour,
    federation: opts.federation ?? opts.seed?.federation ?? false,
    timezone: checkedTimezone(opts.timezone ?? opts.seed?.timezone ?? DEFAULT_TIMEZONE),
  });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  url = `http://${addr.family === 'IPv6' ? `[${host}]` : host}:${addr.port}`;
  if (opts.statePath) persistState(state, opts.statePath);

  let closed: Promise<void> | undefined;
  return {
    url,
    token,
    state,
    flavour,
    fetch: async (request) => app.fetch(request),
    requests: () => log.map((e) => ({ ...e, query: { ...e.query }, unknownFields: [...e.unknownFields] })),
    clearRequests: () => {
      log.length = 0;
    },
    close: () => {
      closed ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

