import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import type { Clock } from '../../src/gitea/retry.js';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A loopback HTTP server answering with `handler`, closed (its kept-alive connections too) after
 * the test that started it. Registers its afterEach in the calling test file.
 */
export function loopbackServers(): (handler: Handler) => Promise<string> {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });
  return async (handler) => {
    const server = createServer(handler);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    close = () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
}

/** Answers `body` as JSON with this status (and headers). */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Time that only moves when the client sleeps: waits are seen (`slept`), not waited for. */
export function fakeClock(): Clock & { slept: number[] } {
  let t = 1_000_000;
  const slept: number[] = [];
  return {
    slept,
    now: () => t,
    sleep: async (ms) => {
      slept.push(ms);
      t += ms;
      await Promise.resolve();
    },
  };
}

/** A loopback port nothing listens on (bound, then closed): a server that refuses the connection. */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}
