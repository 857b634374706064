/**
 * The credential never follows a redirect to another origin (issue 16 §2): forgeform follows no
 * redirect at all. A listener on another loopback port records every request it gets; the server
 * forgeform was given answers 302/307 pointing at it, at the preflight, in the middle of the reads
 * and on a write. The listener must receive nothing (so never the token), and each run must fail
 * with one clear line naming where the server pointed.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMisbehavingProxy, type MisbehavingProxy } from '../support/misbehaving-proxy.js';
import { ADMIN_TOKEN, world, writes, type World } from './helpers.js';

const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets', labels: [{ name: 'bug', color: 'ee0701' }] }],
};
const config = 'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: "00aa00" }\n';

let w: World;
/** The other origin: what it received. */
let elsewhere: { server: Server; url: string; got: { url?: string; headers: IncomingHttpHeaders }[] };
let proxy: MisbehavingProxy | undefined;

beforeAll(async () => {
  w = await world(seed);
  const got: { url?: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    got.push({ url: req.url, headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"version":"1.25.0"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  elsewhere = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got };
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});
afterAll(async () => {
  elsewhere.server.close();
  await w.sandbox.close();
});

const redirect = (status: number, path: string) => ({ type: 'status' as const, status, headers: { location: `${elsewhere.url}/api/v1/${path}` } });

describe('a redirect to another origin is never followed, so the token never reaches it', () => {
  it('at the preflight (307 on GET /version): one line naming where it points, nothing sent there', async () => {
    proxy = await startMisbehavingProxy(w.sandbox.url, (r) => (r.path === 'version' ? redirect(307, 'version') : undefined));
    const r = await w.cli(['plan', '-c', w.config(config)], { FORGEFORM_URL: proxy.url });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      `${proxy.url} redirects the API (GET ${proxy.url}/api/v1/version → 307 Temporary Redirect (moved to ${elsewhere.url}/api/v1/version)): use the URL it points to in --url or FORGEFORM_URL; forgeform does not follow redirects.`,
    ]);
    expect(elsewhere.got).toEqual([]);
  });

  it('in the middle of the reads (302 on a label list): the read fails naming it, nothing sent there', async () => {
    proxy = await startMisbehavingProxy(w.sandbox.url, (r) => (r.path === 'repos/acme/widgets/labels' ? redirect(302, 'repos/acme/widgets/labels') : undefined));
    const r = await w.cli(['plan', '-c', w.config(config)], { FORGEFORM_URL: proxy.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `GET /api/v1/repos/acme/widgets/labels → 302 Found: moved to ${elsewhere.url}/api/v1/repos/acme/widgets/labels (the server sends this request elsewhere: check --url (forgeform follows no redirect, so the credentials never go there))`,
    );
    expect(elsewhere.got).toEqual([]);
  });

  it('on a write (307 on the PATCH): apply reports it failed, nothing sent there, and the token is in no output', async () => {
    proxy = await startMisbehavingProxy(w.sandbox.url, (r) => (r.method === 'PATCH' ? redirect(307, 'repos/acme/widgets/labels/1') : undefined));
    const r = await w.cli(['apply', '--yes', '-c', w.config(config)], { FORGEFORM_URL: proxy.url });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`→ 307 Temporary Redirect: moved to ${elsewhere.url}/api/v1/repos/acme/widgets/labels/1`);
    expect(proxy.seen.filter((s) => s.method === 'PATCH')).toHaveLength(1);
    expect(writes(w.sandbox)).toEqual([]);
    expect(elsewhere.got).toEqual([]);
    expect(r.stdout + r.stderr).not.toContain(ADMIN_TOKEN);
  });
});
