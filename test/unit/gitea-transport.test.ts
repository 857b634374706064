import { describe, expect, it } from 'vitest';
import { loopbackServers } from '../support/loopback.js';
import { ApiError } from '../../src/gitea/errors.js';
import { GiteaClient } from '../../src/gitea/client.js';

const serve = loopbackServers();

const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('expected a failure');
};

describe('the client on node:http (issue 12: the transport behind GiteaClient)', () => {
  it('sends the credentials, the query and a JSON body to the API root under the URL’s own path, and reports each attempt', async () => {
    const seen: { method?: string; url?: string; auth?: string; type?: string; body: string }[] = [];
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, type: req.headers['content-type'], body });
        res.writeHead(201, { 'content-type': 'application/json', 'x-total-count': '7' });
        res.end('{"id":1}');
      });
    });
    const attempts: string[] = [];
    const client = new GiteaClient({ url: `${url}/git/`, credentials: { token: 'sekrit' }, onRequest: (m, p) => attempts.push(`${m} ${p}`) });
    const res = await client.request('POST', 'repos/a/b/labels', { body: { name: 'bug' }, query: { page: 2, skip: undefined } });
    expect(res).toMatchObject({ status: 201, data: { id: 1 } });
    expect(res.headers.get('X-Total-Count')).toBe('7');
    expect(seen).toEqual([{ method: 'POST', url: '/git/api/v1/repos/a/b/labels?page=2', auth: 'token sekrit', type: 'application/json', body: '{"name":"bug"}' }]);
    expect(attempts).toEqual(['POST /git/api/v1/repos/a/b/labels']);
  });

  it('a redirect is not followed: it fails naming where it points', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(307, { location: '/api/v1/users/new-name' });
      res.end();
    });
    const client = new GiteaClient({ url, credentials: { token: 't' } });
    const e = await failure(client.request('PATCH', 'admin/users/old-name', { body: {} }));
    expect(e.status).toBe(307);
    expect(e.message).toContain('moved to /api/v1/users/new-name');
  });

  it('a body past the limit, announced or not, is refused and not retried', async () => {
    let sent = 0;
    const url = await serve((req, res) => {
      sent++;
      res.writeHead(200, { 'content-type': 'application/json' });
      // no Content-Length: chunked, so only counting the bytes finds it too large
      res.write(`[${'1,'.repeat(600)}`);
      res.end('1]');
    });
    const client = new GiteaClient({ url, credentials: { token: 't' }, maxBodyBytes: 1000, retryDelayMs: 1 });
    const e = await failure(client.get('repos/a/b/labels'));
    expect(e.message).toContain('the answer is larger than');
    expect(sent).toBe(1);
  });

  it('a connection cut in the middle of a body is a lost answer, retried for a read; a body too slow for --timeout fails saying so', async () => {
    let sent = 0;
    const url = await serve((req, res) => {
      sent++;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('[1,2,');
      if (req.url?.includes('cut')) setTimeout(() => res.socket?.destroy(), 10);
    });
    const cut = new GiteaClient({ url, credentials: { token: 't' }, retries: 1, retryDelayMs: 1 });
    const lost = await failure(cut.get('repos/a/cut/labels'));
    expect(lost.message).toMatch(/closed the connection|ECONNRESET/);
    expect(sent).toBe(1 + 5);
    const slow = new GiteaClient({ url, credentials: { token: 't' }, timeoutMs: 100, retries: 0 });
    const timedOut = await failure(slow.get('repos/a/slow/labels'));
    // The server sent bytes of this answer: it is alive, this request is slow (issue 28), and says so.
    expect(timedOut.message).toContain('got no complete answer within 0.1 s (--timeout), though the server is answering: this request alone is slow or stalls on the server; try again, raise --timeout');
  });
});
