/**
 * A small HTTP proxy in front of the sandbox that misbehaves on the requests a test chooses: it
 * answers a login page with 200, lies in X-Total-Count, ignores paging, trickles bytes, sends a huge
 * body, answers a status of its own, or forwards a request and drops the connection once the server
 * has processed it. Everything else is forwarded as is. Loopback only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Misbehaviour =
  /** 200 with an HTML sign-in page, as a single-sign-on gateway answers; not forwarded. */
  | { type: 'html' }
  /** Forwarded; the answer's X-Total-Count replaced. */
  | { type: 'total-count'; value: string }
  /** Forwarded without its `page` parameter: the server always answers page 1. */
  | { type: 'ignore-page' }
  /** 200 and then one byte every `intervalMs`, never finishing. */
  | { type: 'trickle'; intervalMs?: number }
  /** Never answers, keeping the connection open: a server that stopped answering. */
  | { type: 'stall' }
  /** 200 with a JSON list body of `bytes` bytes (streamed); not forwarded. */
  | { type: 'huge'; bytes: number }
  /** Forwarded, the server processes it, then the connection is destroyed before any answer. */
  | { type: 'drop-after' }
  /** This answer instead of the server's; not forwarded. */
  | { type: 'status'; status: number; headers?: Record<string, string>; body?: string }
  /** Forwarded; the answer's JSON body replaced by what `edit` makes of it (a wrong type, say). */
  | { type: 'rewrite'; edit: (body: unknown) => unknown }
  /** Forwarded with these members left out of its JSON body: a server that ignores the fields, answering 2xx. */
  | { type: 'drop-fields'; fields: string[] }
  /** Forwarded; the answer's body cut to its first `keep` bytes (default: half), ending cleanly (Content-Length says so). */
  | { type: 'cut'; keep?: number }
  /** Runs `before` (another client acting on the server, say), then forwards. */
  | { type: 'before'; run: () => Promise<void> };

export interface ProxiedRequest {
  method: string;
  /** Without /api/v1/ and the query: `repos/acme/widgets/labels`. */
  path: string;
  query: URLSearchParams;
}

export interface MisbehavingProxy {
  url: string;
  /** Every request seen, with what the proxy did to it. */
  seen: { method: string; path: string; query: string; did: Misbehaviour['type'] | 'forwarded' }[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);
const LOGIN_PAGE =
  '<!DOCTYPE html>\n<html><head><title>Sign in · Example SSO</title></head>\n<body><form method="post" action="/login"><input name="user"><input name="password" type="password"></form></body></html>\n';

export async function startMisbehavingProxy(target: string, rule: (req: ProxiedRequest) => Misbehaviour | undefined): Promise<MisbehavingProxy> {
  const seen: MisbehavingProxy['seen'] = [];
  const timers = new Set<NodeJS.Timeout>();

  async function forward(req: IncomingMessage, body: Buffer, url: URL): Promise<Response> {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !HOP_BY_HOP.has(k) && k !== 'host') headers[k] = v;
    return fetch(`${target}${url.pathname}${url.search}`, {
      method: req.method,
      headers,
      ...(body.length ? { body } : {}),
      redirect: 'manual',
    });
  }

  async function relay(res: ServerResponse, upstream: Response, totalCount?: string, edit?: (body: unknown) => unknown, keep?: (length: number) => number): Promise<void> {
    let text = Buffer.from(await upstream.arrayBuffer());
    if (edit) text = Buffer.from(JSON.stringify(edit(JSON.parse(text.toString('utf8')))));
    if (keep) text = text.subarray(0, keep(text.length));
    const headers: Record<string, string> = {};
    upstream.headers.forEach((v, k) => {
      if (!HOP_BY_HOP.has(k)) headers[k] = v;
    });
    if (totalCount !== undefined) headers['x-total-count'] = totalCount;
    headers['content-length'] = String(text.length);
    res.writeHead(upstream.status, headers);
    res.end(text);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://proxy');
        const request: ProxiedRequest = { method: req.method ?? 'GET', path: url.pathname.replace(/^\/api\/v1\//, ''), query: url.searchParams };
        const how = url.pathname.startsWith('/api/v1/') ? rule(request) : undefined;
        seen.push({ method: request.method, path: request.path, query: url.searchParams.toString(), did: how?.type ?? 'forwarded' });
        const body = Buffer.concat(chunks);
        try {
          switch (how?.type) {
            case undefined:
              return await relay(res, await forward(req, body, url));
            case 'html':
              res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
              return void res.end(LOGIN_PAGE);
            case 'total-count':
              return await relay(res, await forward(req, body, url), how.value);
            case 'ignore-page': {
              url.searchParams.delete('page');
              return await relay(res, await forward(req, body, url));
            }
            case 'trickle': {
              res.writeHead(200, { 'content-type': 'application/json' });
              res.write('[');
              const timer = setInterval(() => res.write(' '), how.intervalMs ?? 1000);
              timers.add(timer);
              res.on('close', () => {
                clearInterval(timer);
                timers.delete(timer);
              });
              return;
            }
            case 'stall':
              return;
            case 'huge':
              return await streamHuge(res, how.bytes);
            case 'drop-after': {
              const upstream = await forward(req, body, url);
              await upstream.arrayBuffer();
              return void req.socket.destroy();
            }
            case 'status':
              res.writeHead(how.status, { 'content-type': 'text/plain', ...how.headers });
              return void res.end(how.body ?? '');
            case 'rewrite':
              return await relay(res, await forward(req, body, url), undefined, how.edit);
            case 'drop-fields': {
              const sent = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
              for (const f of how.fields) delete sent[f];
              return await relay(res, await forward(req, Buffer.from(JSON.stringify(sent)), url));
            }
            case 'cut':
              return await relay(res, await forward(req, body, url), undefined, undefined, (length) => how.keep ?? Math.floor(length / 2));
            case 'before':
              await how.run();
              return await relay(res, await forward(req, body, url));
          }
        } catch (e) {
          res.writeHead(599, { 'content-type': 'text/plain' });
          res.end(`proxy: ${(e as Error).message}`);
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearInterval(t);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A JSON list of `bytes` bytes, written in 1 MB chunks as the client takes them. */
async function streamHuge(res: ServerResponse, bytes: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(1024 * 1024, ' ');
  res.write('[');
  for (let written = 1; written < bytes - 1 && !res.destroyed; written += chunk.length) {
    if (!res.write(chunk))
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done).off('close', done);
          resolve();
        };
        res.on('drain', done).on('close', done);
      });
  }
  if (!res.destroyed) res.end(']');
}

/** A rule that applies `how` to the first `times` requests matching `match`, then forwards. */
export function firstTimes(times: number, match: (r: ProxiedRequest) => boolean, how: Misbehaviour): (r: ProxiedRequest) => Misbehaviour | undefined {
  let left = times;
  return (r) => {
    if (left <= 0 || !match(r)) return undefined;
    left--;
    return how;
  };
}
