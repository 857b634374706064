/**
 * The run as a whole (src/gitea/circuit.ts): a server that stopped answering stops the run at its
 * first timeout, what can never succeed is not retried, reads and writes share one patience for
 * 429/503, revoked credentials stop the writes, and the answers held at once are bounded. No timing
 * is asserted here: what was sent, what failed and how.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fakeClock, json, loopbackServers } from '../support/loopback.js';
import { GiteaClient, NotSent } from '../../src/gitea/client.js';
import { ServerStopped } from '../../src/gitea/errors.js';
import { isCutJson } from '../../src/gitea/answer.js';

const serve = loopbackServers();

const settle = (ps: Promise<unknown>[]) => Promise.allSettled(ps).then((rs) => rs.map((r) => (r.status === 'rejected' ? (r.reason as Error) : undefined)));

describe('a server that stops answering', () => {
  it('the first timeout with nothing heard from the server stops the run: queued requests are not sent, reads fail with one message, writes are NotSent', async () => {
    let received = 0;
    const url = await serve((req, res) => {
      received++;
      if (req.url === '/api/v1/version') return json(res, 200, { version: '1.25.0' });
      // nothing: the server stopped answering
    });
    const client = new GiteaClient({ url, credentials: { token: 't' }, concurrency: 2, timeoutMs: 200, retryDelayMs: 1 });
    await client.get('version');
    const reads = Array.from({ length: 6 }, (_, i) => client.get(`repos/acme/r${i}`, { object: `repository acme/r${i}` }));
    const write = client.request('POST', 'repos/acme/r0/labels', { body: { name: 'x' } });
    const errors = await settle([...reads, write]);
    // At most the two in flight when it stopped and the one probe (GET /user) asking whether the server is alive,
    // and nothing after (before: every request waited twice its own timeout).
    expect(received).toBeLessThanOrEqual(1 + 2 + 1);
    expect(errors.slice(0, 6).every((e) => e instanceof ServerStopped)).toBe(true);
    expect(new Set(errors.slice(0, 6).map((e) => e!.message)).size).toBe(1);
    expect(errors[0]!.message).toMatch(new RegExp(`^${url} stopped answering: no answer in time to GET /api/v1/repos/acme/r\\d \\(nothing came from the server within 0\\.2 s, --timeout\\), so nothing more is sent`));
    expect(errors[6]).toBeInstanceOf(NotSent);
    expect((errors[6] as NotSent).reason).toBe(errors[0]!.message);
  });

  it('a timeout while other answers come is the slow request’s own: it is sent once more and the run goes on', async () => {
    let slow = 0;
    const url = await serve((req, res) => {
      // Headers at once, then nothing: the server is alive, this answer is too slow.
      if (req.url!.includes('slow')) {
        slow++;
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.write('[');
      }
      json(res, 200, { ok: true });
    });
    const client = new GiteaClient({ url, credentials: { token: 't' }, timeoutMs: 150, retryDelayMs: 1 });
    await expect(client.get('slow')).rejects.toThrow('(tried 2 times)');
    expect(slow).toBe(2);
    await expect(client.get('fast')).resolves.toEqual({ ok: true });
  });
});

describe('one route that stalls while the server answers (issue 28: reported as a dead server)', () => {
  it('the only request in flight gets nothing: the server is asked (GET /user), answers, and the request fails alone; the run goes on', async () => {
    const seen: string[] = [];
    const url = await serve((req, res) => {
      seen.push(req.url!);
      if (req.url!.startsWith('/api/v1/repos/acme/stuck')) return; // this route never answers
      json(res, 200, { ok: true });
    });
    const client = new GiteaClient({ url, credentials: { token: 't' }, timeoutMs: 200, retryDelayMs: 1 });
    const e = (await client.get('repos/acme/stuck', { object: 'repository acme/stuck' }).then(
      () => undefined,
      (x: unknown) => x,
    )) as Error;
    expect(e).not.toBeInstanceOf(ServerStopped);
    expect(e.message).toBe(
      "repository acme/stuck: GET /api/v1/repos/acme/stuck got no complete answer within 0.2 s (--timeout), though the server is answering: this request alone is slow or stalls on the server; try again, raise --timeout, or look for it in the server's log (tried 2 times)",
    );
    expect(seen.filter((u) => u === '/api/v1/user').length).toBeGreaterThanOrEqual(1);
    await expect(client.get('repos/acme/other')).resolves.toEqual({ ok: true });
  });
});

describe('an answer cut short', () => {
  it('JSON that ends inside a list or an object is cut; a page, a whole value or another malformed body is not', () => {
    for (const cut of ['[{"id":1,"name":"a"},{"id":2,"na', '{"id":1', '[', '  {"a":"x\\"', '[{"a":"]}'])
      expect(isCutJson(cut), cut).toBe(true);
    for (const whole of ['<!DOCTYPE html>', '[1]', '{"a":1}', '[1]]', 'null', '', 'x[']) expect(isCutJson(whole), whole).toBe(false);
  });

  it('a read answered with JSON cut short is sent once more; twice cut, the error says so', async () => {
    let n = 0;
    const url = await serve((_req, res) => {
      n++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(n === 1 || n > 2 ? '[{"id":1,"name":"bu' : '[{"id":1,"name":"bug"}]');
    });
    const client = new GiteaClient({ url, credentials: { token: 't' }, retryDelayMs: 1 });
    await expect(client.get('repos/a/b/labels')).resolves.toEqual([{ id: 1, name: 'bug' }]);
    await expect(client.get('repos/a/b/labels')).rejects.toThrow('answered JSON cut short (it ends after 19 bytes, inside a list), and again when sent once more');
    expect(n).toBe(4);
    // A write is not sent again: the server may have done it.
    await expect(client.request('POST', 'repos/a/b/labels', { body: {} })).rejects.toThrow('the server may have done the write: plan again to see');
    expect(n).toBe(5);
  });
});

describe('what can never succeed is not retried', () => {
  it('a connection refused before the server ever answered is final, one attempt', async () => {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as AddressInfo).port;
    await new Promise((r) => s.close(r));
    const client = new GiteaClient({ url: `http://127.0.0.1:${port}`, credentials: { token: 't' }, retries: 10, retryDelayMs: 1 });
    const e = (await client.get('version').then(
      () => undefined,
      (x: unknown) => x,
    )) as ServerStopped;
    expect(e).toBeInstanceOf(ServerStopped);
    expect(e.message).toBe(`cannot reach http://127.0.0.1:${port}: the connection was refused (ECONNREFUSED); check the host and port of the URL, and that the server is running`);
    expect(e.network?.reason).toBe('the connection was refused');
    expect(client.requestCount).toBe(1);
    // Nothing more is sent: the next request fails with the same message.
    await expect(client.get('user')).rejects.toThrow(e.message);
    expect(client.requestCount).toBe(1);
  });

  it('once the server answered, a refused connection (a restart) is sent again, the same for a POST', async () => {
    let answered = 0;
    const server = createServer((_req, res) => {
      answered++;
      json(res, 200, { version: '1.25.0' }, { connection: 'close' });
      // The server goes away after its first answer.
      server.close();
      server.closeAllConnections();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new GiteaClient({ url, credentials: { token: 't' }, retries: 1, retryDelayMs: 1, timeoutMs: 60_000 });
    await client.get('version');
    await expect(client.request('POST', 'repos/a/b/labels', { body: {} })).rejects.toThrow('(tried 6 times)');
    expect(answered).toBe(1);
    expect(client.requestCount).toBe(1 + 6);
  });
});

describe('one patience for 429 and 503, reads and writes alike (issue 18: writes gave up after 2 s, reads after 60 s)', () => {
  it('a POST answered 503 is sent again as often as a GET', async () => {
    const counts: Record<string, number> = {};
    const url = await serve((req, res) => {
      counts[req.method!] = (counts[req.method!] ?? 0) + 1;
      json(res, 503, { message: 'maintenance' });
    });
    const client = new GiteaClient({ url, credentials: { token: 't' }, retries: 2, retryDelayMs: 1, clock: fakeClock() });
    await expect(client.get('x')).rejects.toThrow('(tried 11 times)');
    await expect(client.request('POST', 'repos/a/b/labels', { body: {} })).rejects.toThrow('(tried 11 times)');
    expect(counts).toEqual({ GET: 11, POST: 11 });
  });

  it('Retry-After is followed, and a server that refuses everything for over two minutes is given up on', async () => {
    const clock = fakeClock();
    const url = await serve((_req, res) => json(res, 429, { message: 'rate limited' }, { 'retry-after': '50' }));
    const client = new GiteaClient({ url, credentials: { token: 't' }, retries: 10, clock });
    await expect(client.request('PUT', 'repos/a/b/topics', { body: {} })).rejects.toThrow('(the server has refused every request for over 120 s; forgeform stopped waiting)');
    // Waits of what the server asked, until the budget of the run is spent: 50 s, 50 s, 50 s, then no more.
    expect(clock.slept.filter((ms) => ms >= 50_000)).toHaveLength(3);
  });
});

describe('the answers held at once are bounded (issue 18: 740 MB at --concurrency 64)', () => {
  it('past twice the largest one answer, the largest in flight is refused (not retried); what is held never passes the budget', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // 900 bytes each, under the 1000-byte cap of one answer, then nothing more.
      res.write(`[${' '.repeat(899)}`);
    });
    const client = new GiteaClient({ url, credentials: { token: 't' }, concurrency: 6, maxBodyBytes: 1000, retries: 0, timeoutMs: 400 });
    const errors = await settle(Array.from({ length: 6 }, (_, i) => client.get(`repos/a/r${i}/labels`)));
    const cut = errors.filter((e) => e?.message.includes('failed: the answers in flight held more than 2 KB together, this one the most: refused'));
    // 2000 bytes hold two answers of 900: the other four were cut.
    expect(cut.length).toBeGreaterThanOrEqual(4);
    expect(client.http.peakBuffered).toBeLessThanOrEqual(2000);
  });
});

describe('a deadline for all the reads of a run', () => {
  it('past it, no read is sent: each fails saying so', async () => {
    let received = 0;
    const url = await serve((_req, res) => {
      received++;
      setTimeout(() => json(res, 200, { ok: true }), 60);
    });
    const client = new GiteaClient({ url, credentials: { token: 't' }, readDeadlineMs: 100, retryDelayMs: 1 });
    await expect(client.get('a')).resolves.toEqual({ ok: true });
    await client.get('b').catch(() => undefined);
    // At least 120 ms of reads are behind: the next read is not sent.
    const before = received;
    await expect(client.get('c')).rejects.toThrow('the reads of this run took over 0 s in all (--read-deadline)');
    expect(received).toBe(before);
  });
});
