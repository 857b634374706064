/**
 * apply's lock rests on no list (issue 21): its renewal and its release are writes under the API's
 * root, yet they must not make the client read the page after the lists that ended on X-Total-Count's
 * word (src/gitea/client.ts proves those before a write that may rest on them).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { GiteaClient } from '../../src/gitea/client.js';
import { acquireLock } from '../../src/lock/lock.js';
import { loopbackServers, type Handler } from '../support/loopback.js';

const serve = loopbackServers();

const bodyOf = (req: IncomingMessage) =>
  new Promise<Record<string, unknown>>((resolve) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => resolve(text ? (JSON.parse(text) as Record<string, unknown>) : {}));
  });

/** The lock's routes (an organisation kept in memory) and a list of 50 whose header says 50. */
function server() {
  const seen: string[] = [];
  let lock: Record<string, unknown> | undefined;
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url}`);
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/api/v1/repos/a/b/labels') {
      const page = Number(url.searchParams.get('page') ?? 1);
      return send(200, page === 1 ? Array.from({ length: 50 }, (_, i) => ({ id: i })) : [], { 'x-total-count': '50' });
    }
    if (req.method === 'POST' && url.pathname === '/api/v1/orgs') return send(201, (lock = { id: 1, ...(await bodyOf(req)) }));
    if (url.pathname !== '/api/v1/orgs/forgeform-lock') return send(404, { message: 'not found' });
    if (!lock) return send(404, { message: 'not found' });
    if (req.method === 'GET') return send(200, lock);
    if (req.method === 'PATCH') return send(200, (lock = { ...lock, ...(await bodyOf(req)) }));
    lock = undefined;
    return send(204);
  };
  const handler: Handler = (req, res) => void answer(req, res);
  return { seen, handler };
}

describe("apply's lock proves no list", () => {
  it('its renewal and its release read nothing of a list that ended on X-Total-Count; a write under that list still does', async () => {
    const { seen, handler } = server();
    const client = new GiteaClient({ url: await serve(handler), credentials: { token: 't' } });
    const warnings: string[] = [];
    const held = await acquireLock(client, { timeoutMs: 0, staleMs: 600_000, renewMs: 5, warn: (m) => warnings.push(m) });
    expect(await client.list('repos/a/b/labels')).toHaveLength(50);
    for (let i = 0; i < 400 && !seen.some((s) => s.startsWith('PATCH')); i++) await new Promise((r) => setTimeout(r, 5));
    await held.release();
    expect(seen.filter((s) => s.startsWith('PATCH'))).not.toHaveLength(0);
    expect(seen.at(-1)).toBe('DELETE /api/v1/orgs/forgeform-lock');
    expect(seen.filter((s) => s.includes('labels'))).toEqual(['GET /api/v1/repos/a/b/labels?limit=50&page=1']);
    expect(warnings).toEqual([]);
    // The list is still to be proven for a write that may rest on it.
    await client.request('POST', 'repos/a/b/labels', { body: { name: 'n' } }).catch(() => undefined);
    expect(seen.filter((s) => s.includes('labels'))).toEqual(['GET /api/v1/repos/a/b/labels?limit=50&page=1', 'GET /api/v1/repos/a/b/labels?limit=50&page=2', 'POST /api/v1/repos/a/b/labels']);
  });
});

describe('a write that says which lists it rests on (Op.restsOn)', () => {
  it('proves the lists under that path only: a team delete, addressed by id, proves its organisation\'s team list and not the repository list beside it', async () => {
    const seen: string[] = [];
    const handler: Handler = (req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const page = Number(new URL(req.url!, 'http://x').searchParams.get('page') ?? 1);
      res.writeHead(req.method === 'DELETE' ? 204 : 200, { 'content-type': 'application/json', 'x-total-count': '50' });
      res.end(req.method === 'DELETE' ? '' : JSON.stringify(page === 1 ? Array.from({ length: 50 }, (_, i) => ({ id: i })) : []));
    };
    const client = new GiteaClient({ url: await serve(handler), credentials: { token: 't' } });
    await client.list('orgs/acme/repos');
    await client.list('orgs/acme/teams');
    await client.request('DELETE', 'teams/7', { restsOn: 'orgs/acme/teams' });
    expect(seen).toEqual([
      'GET /api/v1/orgs/acme/repos?limit=50&page=1',
      'GET /api/v1/orgs/acme/teams?limit=50&page=1',
      'GET /api/v1/orgs/acme/teams?limit=50&page=2',
      'DELETE /api/v1/teams/7',
    ]);
  });
});
