import { describe, expect, it } from 'vitest';
import { fakeClock, json, loopbackServers, type Handler } from '../support/loopback.js';
import { GiteaClient, NotSent } from '../../src/gitea/client.js';
import { readAllPages, readPagesUpTo, type Page } from '../../src/gitea/paging.js';
import { apiPath, unsafePathReason } from '../../src/gitea/path.js';

const serve = loopbackServers();

describe('a 429 pauses the whole client', () => {
  it('a request queued behind a 429 waits for Retry-After too, though it got no 429 itself', async () => {
    const clock = fakeClock();
    const seen: { path: string; at: number }[] = [];
    let limited = false;
    const url = await serve((req, res) => {
      seen.push({ path: req.url!, at: clock.now() });
      if (req.url!.startsWith('/api/v1/a') && !limited) {
        limited = true;
        return json(res, 429, { message: 'slow down' }, { 'retry-after': '2' });
      }
      json(res, 200, { ok: true });
    });
    const client = new GiteaClient({ url, credentials: { token: 't' }, concurrency: 1, retryDelayMs: 1, clock });
    const [a, b] = await Promise.all([client.get('a'), client.get('b')]);
    expect(a).toEqual({ ok: true });
    expect(b).toEqual({ ok: true });
    const start = seen[0]!.at;
    expect(seen.map((s) => s.path)).toEqual(['/api/v1/a', '/api/v1/b', '/api/v1/a']);
    // b was sent after the pause the server asked for, not right after a's 429
    expect(seen[1]!.at - start).toBeGreaterThanOrEqual(2000);
    expect(client.retryCount).toBe(1);
  });

  it('a POST answered 503 or 429 is sent again (the server did not process it); a 500 is not', async () => {
    const clock = fakeClock();
    const statuses = [503, 429, 201];
    let posts = 0;
    const url = await serve((req, res) => {
      if (req.method === 'POST') return json(res, statuses[posts++] ?? 500, { id: 7 }, { 'retry-after': '0' });
      json(res, 500, { message: 'boom' });
    });
    const client = new GiteaClient({ url, credentials: { token: 't' }, retryDelayMs: 1, clock });
    const res = await client.request('POST', 'repos/a/b/labels', { body: { name: 'x' } });
    expect(res.status).toBe(201);
    expect(posts).toBe(3);
    await expect(client.request('POST', 'repos/a/b/labels', { body: { name: 'y' }, object: 'label y' })).rejects.toThrow('label y: POST /api/v1/repos/a/b/labels → 500 Internal Server Error');
    expect(posts).toBe(4);
  });

  it('a Retry-After longer than forgeform waits fails at once, saying so', async () => {
    const url = await serve((_req, res) => json(res, 429, { message: 'quota' }, { 'retry-after': '3600' }));
    const client = new GiteaClient({ url, credentials: { token: 't' }, clock: fakeClock() });
    await expect(client.get('x')).rejects.toThrow('the server asks to wait 3600 s before trying again');
  });

  it('reads are retried more patiently than writes, and --retries sets the budget', async () => {
    let gets = 0;
    let puts = 0;
    const url = await serve((req, res) => {
      if (req.method === 'GET') gets++;
      else puts++;
      json(res, 502, { message: 'bad gateway' });
    });
    const client = new GiteaClient({ url, credentials: { token: 't' }, retries: 2, retryDelayMs: 1, clock: fakeClock() });
    await expect(client.get('x', { object: 'thing x' })).rejects.toThrow(/^thing x: GET \/api\/v1\/x → 502 Bad Gateway: bad gateway .*\(tried 11 times\)$/);
    await expect(client.request('PUT', 'x')).rejects.toThrow('(tried 3 times)');
    expect([gets, puts]).toEqual([11, 3]);
  });

  it('a DELETE whose answer was lost, and whose retry finds the object gone, is done', async () => {
    let deletes = 0;
    const url = await serve((req, res) => {
      deletes++;
      if (deletes === 1) return void req.socket.destroy(); // processed, answer lost
      json(res, 404, { message: 'label not found' });
    });
    const client = new GiteaClient({ url, credentials: { token: 't' }, retryDelayMs: 1, clock: fakeClock() });
    await expect(client.request('DELETE', 'repos/a/b/labels/3')).resolves.toMatchObject({ status: 404 });
    // a 404 on the first attempt is a real 404
    deletes = 1;
    await expect(client.request('DELETE', 'repos/a/b/labels/3')).rejects.toThrow('404 Not Found');
  });

  it('an abandoned request is never sent', async () => {
    let received = 0;
    const url = await serve((_req, res) => {
      received++;
      json(res, 200, {});
    });
    const client = new GiteaClient({ url, credentials: { token: 't' } });
    await expect(client.request('POST', 'admin/users', { body: {}, abandon: () => true })).rejects.toBeInstanceOf(NotSent);
    expect(received).toBe(0);
  });
});

describe('a request path never leaves the API base', () => {
  it.each([
    ['http://127.0.0.1:1/steal', 'an absolute URL'],
    ['//evil.example/x', 'an absolute URL'],
    ['/admin/users', 'relative to /api/v1'],
    ['repos/a/../../../login', 'climb out'],
    ['repos/a/%2e%2E/b', 'was not encoded as apiPath encodes it'],
    [`repos/a/${encodeURIComponent('../x')}`, 'climb out'],
    ['repos/a/b c/labels', 'was not encoded'],
    ['repos/a/b?x=1', 'was not encoded'],
    ['repos//labels', 'empty segment'],
  ])('%s is refused before anything is sent', async (path, reason) => {
    let received = 0;
    const url = await serve((_req, res) => {
      received++;
      json(res, 200, {});
    });
    const client = new GiteaClient({ url, credentials: { token: 't' } });
    await expect(client.request('DELETE', path, { object: 'x' })).rejects.toThrow(reason);
    expect(received).toBe(0);
  });

  it('every path apiPath builds passes', () => {
    for (const name of ['release/*', 'help wanted', 'ünïcode', 'a.b', '~x', "it's", '.hidden', 'a..b'])
      expect(unsafePathReason(apiPath('repos', 'acme', 'w', 'branch_protections', name))).toBeUndefined();
  });
});

describe('reading the pages of a list', () => {
  const pages = (items: number, size: number, total: string | null) => {
    const asked: number[] = [];
    const fetch = async (page: number): Promise<Page<number>> => {
      asked.push(page);
      const all = Array.from({ length: items }, (_, i) => i);
      return { items: all.slice((page - 1) * size, page * size), headers: new Headers(total === null ? {} : { 'x-total-count': total }) };
    };
    return { asked, fetch };
  };
  const opts = (warnings: string[]) => ({ pageSize: 50, prefetch: 16, maxPages: 1000, warn: (m: string) => warnings.push(m), endless: (n: number) => new Error(`endless after ${n}`) });

  it('a server that caps the page size below the limit asked (MAX_RESPONSE_ITEMS) is read to the end', async () => {
    const warnings: string[] = [];
    const { asked, fetch } = pages(95, 30, '95');
    expect(await readAllPages(fetch, opts(warnings))).toHaveLength(95);
    expect(asked.sort()).toEqual([1, 2, 3, 4]);
    expect(warnings).toEqual([]);
  });

  it('a true header fetches the announced pages ahead, and the last short one ends it', async () => {
    const warnings: string[] = [];
    const { asked, fetch } = pages(120, 50, '120');
    expect(await readAllPages(fetch, opts(warnings))).toHaveLength(120);
    expect(asked.sort()).toEqual([1, 2, 3]);
    expect(warnings).toEqual([]);
  });

  it('without the header, pages are read one by one until a short one', async () => {
    const { asked, fetch } = pages(100, 50, null);
    expect(await readAllPages(fetch, opts([]))).toHaveLength(100);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('full pages that add up exactly to the header end the list: no empty page is read, and the caller learns which page would prove it', async () => {
    for (const n of [50, 100, 250]) {
      const warnings: string[] = [];
      const trusted: number[] = [];
      const { asked, fetch } = pages(n, 50, String(n));
      expect(await readAllPages(fetch, { ...opts(warnings), onTrusted: (next) => trusted.push(next) })).toHaveLength(n);
      expect(asked.sort((a, b) => a - b)).toEqual(Array.from({ length: n / 50 }, (_, i) => i + 1));
      expect(trusted).toEqual([n / 50 + 1]);
      expect(warnings).toEqual([]);
    }
  });

  it('without the header, a list of exactly 100 still needs its empty third page, and nothing is left to prove', async () => {
    const trusted: number[] = [];
    const { asked, fetch } = pages(100, 50, null);
    expect(await readAllPages(fetch, { ...opts([]), onTrusted: (next) => trusted.push(next) })).toHaveLength(100);
    expect(asked).toEqual([1, 2, 3]);
    expect(trusted).toEqual([]);
  });

  it('a later page that announces more (objects created while reading) is read on', async () => {
    let grown = false;
    const asked: number[] = [];
    const fetch = async (page: number): Promise<Page<number>> => {
      asked.push(page);
      const all = Array.from({ length: grown ? 101 : 100 }, (_, i) => i);
      const items = all.slice((page - 1) * 50, page * 50);
      const headers = new Headers({ 'x-total-count': String(all.length) });
      grown = true; // created right after page 1 was answered
      return { items, headers };
    };
    expect(await readAllPages(fetch, opts([]))).toHaveLength(101);
    expect(asked).toEqual([1, 2, 3]);
  });
});

describe('a list that ended on X-Total-Count is proven before a write that may rest on it', () => {
  /** Lists of 50 under repos/a/b, saying 50; `hidden` more items the header does not count (a lying proxy). */
  const server = (hidden: number) => {
    const seen: string[] = [];
    const handler: Handler = (req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const url = new URL(req.url!, 'http://x');
      const page = Number(url.searchParams.get('page') ?? 1);
      if (req.method !== 'GET') return json(res, req.method === 'DELETE' ? 204 : 200, req.method === 'DELETE' ? '' : { ok: true });
      const all = Array.from({ length: 50 + hidden }, (_, i) => ({ id: i }));
      json(res, 200, all.slice((page - 1) * 50, page * 50), { 'x-total-count': '50' });
    };
    return { seen, handler };
  };

  it('no page past the total is read by a plan; the first write under the same repository reads it (once), a write elsewhere does not', async () => {
    const { seen, handler } = server(0);
    const client = new GiteaClient({ url: await serve(handler), credentials: { token: 't' } });
    expect(await client.list('repos/a/b/labels')).toHaveLength(50);
    expect(await client.list('repos/a/b/issues', { query: { state: 'all' } })).toHaveLength(50);
    expect(seen).toEqual(['GET /api/v1/repos/a/b/labels?limit=50&page=1', 'GET /api/v1/repos/a/b/issues?state=all&limit=50&page=1']);
    await client.request('PATCH', 'repos/x/y/labels/1', { body: {} });
    expect(seen).toHaveLength(3);
    await Promise.all([client.request('DELETE', 'repos/a/b/labels/7'), client.request('POST', 'repos/a/b/labels', { body: { name: 'n' } })]);
    expect(seen.slice(3).sort()).toEqual(
      ['GET /api/v1/repos/a/b/issues?state=all&limit=50&page=2', 'GET /api/v1/repos/a/b/labels?limit=50&page=2', 'DELETE /api/v1/repos/a/b/labels/7', 'POST /api/v1/repos/a/b/labels'].sort(),
    );
    // proven once: later writes read nothing more
    await client.request('POST', 'repos/a/b/labels', { body: { name: 'm' } });
    expect(seen.at(-1)).toBe('POST /api/v1/repos/a/b/labels');
    expect(seen.filter((s) => s.startsWith('GET'))).toHaveLength(4);
  });

  it('when the page after holds more, the write is refused and never sent, naming the list and the header', async () => {
    const { seen, handler } = server(10);
    const client = new GiteaClient({ url: await serve(handler), credentials: { token: 't' } });
    await client.list('repos/a/b/labels', { object: 'labels of a/b' });
    await expect(client.request('DELETE', 'repos/a/b/labels/7')).rejects.toThrow(
      'labels of a/b: GET /api/v1/repos/a/b/labels said X-Total-Count 50, yet page 2 holds 10 more: the list cannot be read whole (a proxy or cache in front of the server answers a wrong total), so nothing that depends on what it holds is written',
    );
    await expect(client.request('POST', 'repos/a/b/labels', { body: {} })).rejects.toThrow('yet page 2 holds 10 more');
    expect(seen.filter((s) => !s.startsWith('GET'))).toEqual([]);
    expect(seen.filter((s) => s.includes('page=2'))).toHaveLength(1);
  });
});

describe('lists a release does not page (issue 19): the client stops, never loops', () => {
  /** A route that answers `items` for any page: all of them (unpaged), or the first `limit` (ignoring page only). */
  const route = (count: number, honoursLimit: boolean) => {
    const asked: string[] = [];
    const all = Array.from({ length: count }, (_, i) => ({ id: i + 1 }));
    const fetch = async (page: number, limit = 50): Promise<Page<{ id: number }>> => {
      asked.push(`${page}/${limit}`);
      return { items: honoursLimit ? all.slice(0, limit) : all, headers: new Headers() };
    };
    return { asked, fetch };
  };
  const opts = { pageSize: 50, prefetch: 16, maxPages: 1000, warn: () => undefined, endless: (n: number) => new Error(`endless after ${n}`), unpageable: (p: number, r: number) => new Error(`page ${p} repeats page ${r}`) };

  it('a first page larger than the limit asked is the whole list: one request', async () => {
    const { asked, fetch } = route(60, false);
    expect(await readAllPages(fetch, opts)).toHaveLength(60);
    expect(asked).toEqual(['1/50']);
  });

  it('exactly a full page with no header: page 2 repeats it, and a narrower request answered in full proves it whole', async () => {
    const { asked, fetch } = route(50, false);
    expect(await readAllPages(fetch, opts)).toHaveLength(50);
    expect(asked).toEqual(['1/50', '2/50', '1/49']);
  });

  it('a route that honours limit but ignores page cannot be read beyond its first page: an error, not 1,000 pages', async () => {
    const { asked, fetch } = route(120, true);
    await expect(readAllPages(fetch, opts)).rejects.toThrow('page 2 repeats page 1');
    expect(asked).toEqual(['1/50', '2/50', '1/49']);
  });
});

describe('a total that only bounds the pages read (issue 18: an inflated X-Total-Count)', () => {
  it('pages are read in order, a window at a time, and stop at the first short one', async () => {
    const asked: number[] = [];
    const fetch = async (page: number): Promise<Page<number>> => {
      asked.push(page);
      return { items: page <= 3 ? Array.from({ length: page === 3 ? 20 : 50 }, (_, i) => page * 100 + i) : [], headers: new Headers() };
    };
    // 2,000 announced: pages 2 to 40; the list ends on page 3.
    expect(await readPagesUpTo(fetch, 2, 40, 50, 4)).toHaveLength(70);
    expect(Math.max(...asked)).toBeLessThanOrEqual(3 + 4);
  });
});

describe('lists whose body carries the total (Actions runners)', () => {
  const runners = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, name: `r${i}` }));
  it.each([['1'], ['abc'], ['-5']])('a total_count of %s still reads every page, with a warning', async (total) => {
    const url = await serve((req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams;
      const page = Number(q.get('page'));
      const limit = Number(q.get('limit'));
      json(res, 200, { runners: runners.slice((page - 1) * limit, page * limit), total_count: total === '1' ? 1 : total });
    });
    const warnings: string[] = [];
    const client = new GiteaClient({ url, credentials: { token: 't' }, onWarning: (m) => warnings.push(m) });
    const items = await client.listWrapped('admin/actions/runners', { object: 'Actions runners' }, (b) => ({ items: (b as { runners: unknown }).runners, total: (b as { total_count: unknown }).total_count }), 'total_count');
    expect(items).toHaveLength(60);
    expect(warnings[0]).toMatch(/^Actions runners: GET \/api\/v1\/admin\/actions\/runners: total_count /);
  });

  it('a body without the list is an error naming the operation', async () => {
    const url = await serve((_req, res) => json(res, 200, { runners: 'none' }));
    const client = new GiteaClient({ url, credentials: { token: 't' } });
    await expect(client.listWrapped('admin/actions/runners', { object: 'Actions runners' }, (b) => ({ items: (b as { runners: unknown }).runners, total: undefined }), 'total_count')).rejects.toThrow(
      'Actions runners: GET /api/v1/admin/actions/runners answered a JSON object with other fields ({"runners":"none"}) where a list in its body is due',
    );
  });
});
