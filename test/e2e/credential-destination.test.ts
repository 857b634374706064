/**
 * The token goes only to the server it was given with (--url or FORGEFORM_URL): a URL that only
 * the configuration names (server.url, which a pull request can edit) never receives it. A
 * listener on another port stands for the host of whoever edited the configuration.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loopbackServers } from '../support/loopback.js';
import { ADMIN_TOKEN, world, type World } from './helpers.js';

const listener = loopbackServers();
let w: World | undefined;
afterEach(async () => {
  await w?.sandbox.close();
  w = undefined;
});

/** A server that records what it is sent (and answers like nothing forgeform knows). */
async function elsewhere(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const url = await listener((req, res) => {
    seen.push(`${req.method} ${req.url} authorization=${req.headers.authorization ?? ''}`);
    res.writeHead(404).end();
  });
  return { url, seen };
}

const CONFIG = (url: string) => `version: 1\nserver:\n  url: ${url}\nusers:\n  root: { email: root@example.com }\n`;

describe('where the credentials go', () => {
  it('never to a server that only server.url of the configuration names', async () => {
    w = await world({ users: [{ username: 'root', admin: true, email: 'root@example.com' }] });
    const other = await elsewhere();
    const r = await w.cli(['plan', '-c', w.config(CONFIG(other.url))], { FORGEFORM_URL: undefined });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the server URL comes only from server.url of the configuration (${other.url}): forgeform sends credentials only to the server they are given with. Set FORGEFORM_URL (or pass --url) to ${other.url} to send them there.`);
    expect(other.seen).toEqual([]);
    expect(w.sandbox.requests()).toEqual([]);
    expect(r.stdout + r.stderr).not.toContain(ADMIN_TOKEN);
  });

  it('to the server of FORGEFORM_URL or --url, whatever server.url says (with a warning when they differ)', async () => {
    w = await world({ users: [{ username: 'root', admin: true, email: 'root@example.com' }] });
    const other = await elsewhere();
    const viaEnv = await w.cli(['plan', '-c', w.config(CONFIG(other.url))]);
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    expect(viaEnv.stderr).toContain(`warning: server.url of the configuration names ${other.url}, but FORGEFORM_URL is ${w.sandbox.url}: using ${w.sandbox.url}`);
    const viaFlag = await w.cli(['plan', '-c', w.config(CONFIG(other.url)), '--url', w.sandbox.url], { FORGEFORM_URL: undefined });
    expect(viaFlag.code, viaFlag.stderr).toBe(0);
    expect(other.seen).toEqual([]);
    expect(w.sandbox.requests().length).toBeGreaterThan(0);
  });

  it('to server.url when FORGEFORM_URL names the same server, without a warning', async () => {
    w = await world({ users: [{ username: 'root', admin: true, email: 'root@example.com' }] });
    const r = await w.cli(['plan', '-c', w.config(CONFIG(`${w.sandbox.url}/`))]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('warning');
  });
  it('never to a server that only the server.url of a saved plan names (a hand-edited plan file)', async () => {
    w = await world({ users: [{ username: 'root', admin: true, email: 'root@example.com' }] });
    const other = await elsewhere();
    const planFile = `${w.dir}/plan.json`;
    const made = await w.cli(['plan', '-c', w.config('version: 1\nusers:\n  root: { full_name: Root }\n'), '--out', planFile]);
    expect(made.code, made.stderr).toBe(0);
    const plan = JSON.parse(readFileSync(planFile, 'utf8')) as { server: { url: string } };
    writeFileSync(planFile, JSON.stringify({ ...plan, server: { ...plan.server, url: other.url } }));
    w.sandbox.clearRequests();

    const bare = await w.cli(['apply', planFile], { FORGEFORM_URL: undefined });
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain(
      `apply ${planFile}: say the server with --url or FORGEFORM_URL (the plan was made for ${other.url}): forgeform sends credentials only to a server given beside them, never to one a file names`,
    );
    expect(other.seen).toEqual([]);
    expect(w.sandbox.requests()).toEqual([]);

    const elsewhereServer = await w.cli(['apply', planFile]);
    expect(elsewhereServer.code).toBe(1);
    expect(elsewhereServer.stderr).toContain(`the plan was made for ${other.url}, not ${w.sandbox.url}: refusing to apply it elsewhere`);
    expect(other.seen).toEqual([]);
    expect(w.sandbox.requests()).toEqual([]);
    expect(bare.stdout + bare.stderr + elsewhereServer.stdout + elsewhereServer.stderr).not.toContain(ADMIN_TOKEN);
  });
});
