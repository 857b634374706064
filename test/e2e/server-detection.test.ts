import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, world, type World } from './helpers.js';

const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com', password: 'root-password-1' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets' }],
};
const config = 'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: ee0701 }\n';

describe('which server: the fork and release are detected once, shown, and bind a saved plan', () => {
  let gitea: World;
  let forgejo: World;
  beforeAll(async () => {
    [gitea, forgejo] = await Promise.all([world(seed, { flavour: 'gitea@1.25' }), world(seed, { flavour: 'forgejo@11' })]);
  });
  afterAll(async () => Promise.all([gitea.sandbox.close(), forgejo.sandbox.close()]));

  it('names Gitea and its release in the plan header and the JSON plan (Gitea answers 404 to Forgejo’s version route)', async () => {
    gitea.sandbox.clearRequests();
    const r = await gitea.cli(['plan', '-c', gitea.config(config)]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`Server: Gitea 1.25.4 at ${gitea.sandbox.url}`);
    expect(calls(gitea.sandbox).slice(0, 2)).toEqual(['GET version', 'GET /api/forgejo/v1/version']);
    expect(gitea.sandbox.requests()[1]!.status).toBe(404);
    const json = await gitea.cli(['plan', '-c', gitea.config(config), '--format', 'json']);
    expect(JSON.parse(json.stdout).server).toEqual({ url: gitea.sandbox.url, flavour: 'gitea', version: '1.25.4' });
  });

  it('names Forgejo by its own version route, without the frozen +gitea suffix', async () => {
    forgejo.sandbox.clearRequests();
    const r = await forgejo.cli(['plan', '-c', forgejo.config(config), '--format', 'markdown']);
    expect(r.code).toBe(0);
    expect(forgejo.sandbox.requests().slice(0, 2).map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual(['GET /api/v1/version 200', 'GET /api/forgejo/v1/version 200']);
    expect(r.stdout).toContain(`Server: Forgejo 11.0.15 at ${forgejo.sandbox.url}`);
    const json = await forgejo.cli(['plan', '-c', forgejo.config(config), '--format', 'json']);
    expect(JSON.parse(json.stdout).server).toEqual({ url: forgejo.sandbox.url, flavour: 'forgejo', version: '11.0.15' });
  });

  it('refuses a saved plan made for another release (an upgrade in between), and one whose release was edited', async () => {
    const file = gitea.config('version: 1\nrepos:\n  acme/widgets:\n    labels:\n      feature: { color: 00ff00 }\n');
    const out = join(gitea.dir, 'upgrade.plan.json');
    expect((await gitea.cli(['plan', '-c', file, '--out', out])).code).toBe(0);
    gitea.sandbox.clearRequests();
    const elsewhere = await gitea.cli(['apply', out, '--server-version', 'gitea@1.26']);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain('the plan was made for Gitea 1.25.4, but the server runs Gitea 1.26.0 (--server-version): refusing to apply it');
    const edited = join(gitea.dir, 'edited.plan.json');
    const plan = JSON.parse(readFileSync(out, 'utf8'));
    writeFileSync(edited, JSON.stringify({ ...plan, server: { ...plan.server, flavour: 'forgejo', version: '11.0.15' } }));
    const r = await gitea.cli(['apply', edited]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the plan was made for Forgejo 11.0.15, but the server runs Gitea 1.25.4');
    expect(calls(gitea.sandbox).filter((c) => !c.startsWith('GET'))).toEqual([]);
    const same = await gitea.cli(['apply', out]);
    expect(same.code).toBe(0);
    expect(calls(gitea.sandbox)).toContain('POST repos/acme/widgets/labels');
  });

  it('--server-version replaces the detection: no version request, and the header says where the release came from', async () => {
    gitea.sandbox.clearRequests();
    const r = await gitea.cli(['plan', '-c', gitea.config(config), '--server-version', 'forgejo@11.0.2']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`Server: Forgejo 11.0.2 at ${gitea.sandbox.url} (as --server-version says)`);
    expect(calls(gitea.sandbox).filter((c) => c.includes('version'))).toEqual([]);
    const bad = await gitea.cli(['plan', '-c', gitea.config(config), '--server-version', 'gitea-1.25']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--server-version: "gitea-1.25" is not FLAVOUR@VERSION: write gitea@1.25 or forgejo@11.0.2');
  });
});

describe('which server: answers that are not a release', () => {
  it('a version that is not a release number is an error that points to --server-version; an old release is a warning', async () => {
    let version = 'development';
    const fake = createServer((req, res) => {
      if (req.url === '/api/v1/version') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ version }));
      } else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"message":"not found"}');
      }
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    const w = await world(seed);
    try {
      const r = await w.cli(['plan', '-c', w.config(config)], { FORGEFORM_URL: url });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${url} reports version "development", which is not a release number forgeform can compare: pass --server-version gitea@1.25`);
      version = '1.19.8';
      const old = await w.cli(['plan', '-c', w.config(config)], { FORGEFORM_URL: url });
      expect(old.stderr).toContain('warning: Gitea 1.19.8 is older than the oldest release forgeform knows (Gitea 1.21)');
    } finally {
      fake.close();
      await w.sandbox.close();
    }
  });
});
