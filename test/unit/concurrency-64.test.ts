/**
 * --concurrency 64 against the sandbox's fault injection (500, 502, 503, 429 with Retry-After, dropped
 * connections): every read still succeeds, and a 429 pauses the whole client — no request is sent,
 * by any of the 64 slots, until the Retry-After the server asked for has passed. Time is a fake clock
 * that moves only when the client waits, so the check is exact and takes no real time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GiteaClient } from '../../src/gitea/client.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { fakeClock } from '../support/loopback.js';

const TOKEN = 'concurrency-64-token';
const REPOS = 200;
const RETRY_AFTER_S = 2;

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('--concurrency 64 under injected faults', () => {
  it('every read succeeds, and after a 429 no request starts before its Retry-After has passed', async () => {
    sandbox = await startSandbox({
      port: 0,
      token: TOKEN,
      seed: {
        users: [{ username: 'root', admin: true, email: 'root@example.com' }],
        orgs: [{ name: 'acme', owners: ['root'] }],
        repos: Array.from({ length: REPOS }, (_, i) => ({ name: `acme/r${i}`, labels: [{ name: 'bug', color: 'ee0701' }] })),
      },
      faultRate: 0.15,
      faultSeed: 64,
      faultRetryAfter: RETRY_AFTER_S,
    });
    const clock = fakeClock();
    const client = new GiteaClient({ url: sandbox.url, credentials: { token: TOKEN }, concurrency: 64, retryDelayMs: 1, clock });

    // Every exchange, in the order things happened: when it started, and when a 429 came back.
    const events: ({ type: 'start'; at: number } | { type: 'paced'; at: number; retryAfterMs: number })[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const transport = (client as unknown as { http: { exchange: (x: unknown) => Promise<{ status: number; headers: { get(n: string): string | null } }> } }).http;
    const exchange = transport.exchange.bind(transport);
    transport.exchange = async (x) => {
      events.push({ type: 'start', at: clock.now() });
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      try {
        const res = await exchange(x);
        if (res.status === 429) events.push({ type: 'paced', at: clock.now(), retryAfterMs: Number(res.headers.get('retry-after')) * 1000 });
        return res;
      } finally {
        inFlight--;
      }
    };

    const repos = await Promise.all(Array.from({ length: REPOS }, (_, i) => client.get<{ full_name: string }>(`repos/acme/r${i}`)));
    const labels = await Promise.all(Array.from({ length: REPOS }, (_, i) => client.list<{ name: string }>(`repos/acme/r${i}/labels`)));
    expect(repos.map((r) => r.full_name)).toEqual(Array.from({ length: REPOS }, (_, i) => `acme/r${i}`));
    expect(labels.every((l) => l.length === 1 && l[0]!.name === 'bug')).toBe(true);

    expect(mostInFlight).toBe(64);
    const paced = events.flatMap((e, i) => (e.type === 'paced' ? [{ ...e, i }] : []));
    expect(paced.length).toBeGreaterThan(0);
    expect(client.retryCount).toBeGreaterThan(paced.length);
    for (const p of paced) {
      expect(p.retryAfterMs).toBe(RETRY_AFTER_S * 1000);
      const startedAfter = events.slice(p.i + 1).filter((e) => e.type === 'start');
      // none of the 64 slots sends anything until the pause the server asked for is over
      for (const s of startedAfter) expect(s.at - p.at).toBeGreaterThanOrEqual(p.retryAfterMs);
    }
  });
});
