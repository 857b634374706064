import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, world, type World } from './helpers.js';

const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com', password: 'root-password-1' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets' }],
};
const config = 'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: ee0701 }\n';

let w: World;
let file: string;
beforeAll(async () => {
  w = await world(seed);
  file = w.config(config);
});
afterAll(async () => w.sandbox.close());

/** A loopback HTTP server answering every request with `answer`. */
async function fakeServer(answer: (path: string) => { status: number; body: string; headers?: Record<string, string> }): Promise<{ url: string; paths: string[]; server: Server }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    const a = answer(req.url ?? '');
    res.writeHead(a.status, a.headers ?? {});
    res.end(a.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths, server };
}

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+/);

describe('preflight: GET /version before any state is read', () => {
  it('a wrong base path is "not a Gitea or Forgejo API", not "repository … does not exist"', async () => {
    w.sandbox.clearRequests();
    const r = await w.cli(['plan', '-c', file], { FORGEFORM_URL: `${w.sandbox.url}/gitea` });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${w.sandbox.url}/gitea is not a Gitea or Forgejo API: GET ${w.sandbox.url}/gitea/api/v1/version answered 404`);
    expect(r.stderr).not.toContain('does not exist');
    noStack(r.stderr);
    expect(calls(w.sandbox).filter((c) => c.includes('repos/'))).toEqual([]);
  });

  it('a URL ending in /api/v1 is told to give the server root', async () => {
    const r = await w.cli(['plan', '-c', file], { FORGEFORM_URL: `${w.sandbox.url}/api/v1` });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is not a Gitea or Forgejo API: .*Give the server root without \/api\/v1/);
  });

  it('a login page (200, HTML) is not a Gitea API, and its first bytes are quoted', async () => {
    const fake = await fakeServer(() => ({ status: 200, body: '<!DOCTYPE html><html><title>Sign in</title></html>', headers: { 'content-type': 'text/html' } }));
    try {
      const r = await w.cli(['plan', '-c', file], { FORGEFORM_URL: fake.url });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${fake.url} is not a Gitea or Forgejo API: GET ${fake.url}/api/v1/version answered text that is not JSON ("<!DOCTYPE html><html><title>Sign in</title></html>")`);
      expect(fake.paths).toEqual(['/api/v1/version']);
    } finally {
      fake.server.close();
    }
  });

  it('JSON without a version string is not a Gitea API', async () => {
    const fake = await fakeServer(() => ({ status: 200, body: '{"status":"ok"}', headers: { 'content-type': 'application/json' } }));
    try {
      const r = await w.cli(['export', '--include', 'acme'], { FORGEFORM_URL: fake.url });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('is not a Gitea or Forgejo API');
      expect(r.stderr).toContain('{"status":"ok"}');
    } finally {
      fake.server.close();
    }
  });

  it('a redirect of the API elsewhere says where to, and is not followed', async () => {
    const fake = await fakeServer(() => ({ status: 302, body: '', headers: { location: 'https://sso.example.invalid/login' } }));
    try {
      const r = await w.cli(['plan', '-c', file], { FORGEFORM_URL: fake.url });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/redirects the API .*302.*https:\/\/sso\.example\.invalid\/login.*forgeform does not follow redirects/);
      expect(fake.paths).toEqual(['/api/v1/version']);
    } finally {
      fake.server.close();
    }
  });

  it('an invalid token is named as such after one request, and never printed', async () => {
    w.sandbox.clearRequests();
    const r = await w.cli(['plan', '-c', file], { FORGEFORM_TOKEN: 'not-the-right-token-1234' });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`the token in FORGEFORM_TOKEN is not valid for ${w.sandbox.url}: GET /api/v1/version → 401 Unauthorized: invalid username, password or token. Check it, or create a new token (Settings → Applications).`);
    expect(r.stdout + r.stderr).not.toContain('not-the-right-token-1234');
    expect(calls(w.sandbox)).toEqual(['GET version']);
  });

  it('a wrong password names the user and the variables, never the password', async () => {
    const r = await w.cli(['plan', '-c', file], { FORGEFORM_TOKEN: '', FORGEFORM_USERNAME: 'root', FORGEFORM_PASSWORD: 'wrong-password-5678' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the password of root (FORGEFORM_USERNAME and FORGEFORM_PASSWORD) is not valid for');
    expect(r.stdout + r.stderr).not.toContain('wrong-password-5678');
    // and the right one passes the preflight
    const ok = await w.cli(['plan', '-c', file], { FORGEFORM_TOKEN: '', FORGEFORM_USERNAME: 'root', FORGEFORM_PASSWORD: 'root-password-1' });
    expect(ok.stderr).not.toContain('not valid');
    expect(ok.code).toBe(0);
  });

  it('a token from --token-file that the server refuses names the file', async () => {
    const tokenFile = `${w.dir}/wrong-token`;
    writeFileSync(tokenFile, 'abcdef0123456789\n');
    const r = await w.cli(['plan', '-c', file, '--token-file', tokenFile]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the token in --token-file ${tokenFile} is not valid for`);
  });

  it('plan, apply (with and without a plan file) and export each send one GET /version, first', async () => {
    const planFile = `${w.dir}/preflight-plan.json`;
    const runs: string[][] = [
      ['plan', '-c', file, '--out', planFile],
      ['apply', planFile],
      ['apply', '-c', file, '--yes'],
      ['export', '--include', 'acme/*'],
    ];
    for (const args of runs) {
      w.sandbox.clearRequests();
      const r = await w.cli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      const seen = calls(w.sandbox);
      expect(seen[0]).toBe('GET version');
      expect(seen.filter((c) => c === 'GET version')).toHaveLength(1);
    }
  });
});

describe('errors that need no server come before any request', () => {
  const cases: { name: string; args: (dir: string) => string[]; env?: Record<string, string>; text: RegExp }[] = [
    { name: 'a bad --target', args: () => ['plan', '-c', 'forgeform.yaml', '--target', 'repository:acme/widgets'], text: /--target "repository:acme\/widgets": expected repo:OWNER\/NAME/ },
    { name: '--timeout 1e9', args: () => ['plan', '-c', 'forgeform.yaml', '--timeout', '1e9'], text: /--timeout must be a number of seconds above 0 and at most 86400, got 1e9/ },
    { name: '--timeout abc', args: () => ['plan', '-c', 'forgeform.yaml', '--timeout', 'abc'], text: /--timeout must be a number of seconds/ },
    { name: '--concurrency 0', args: () => ['plan', '-c', 'forgeform.yaml', '--concurrency', '0'], text: /--concurrency must be a whole number from 1 to 64, got 0/ },
    { name: '--concurrency 65', args: () => ['plan', '-c', 'forgeform.yaml', '--concurrency', '65'], text: /--concurrency must be a whole number from 1 to 64, got 65/ },
    { name: '--out into a directory', args: (d) => ['plan', '-c', 'forgeform.yaml', '--out', d], text: /cannot write --out .*: it is a directory: give a file name/ },
    { name: '--out in a missing directory', args: (d) => ['plan', '-c', 'forgeform.yaml', '--out', `${d}/no/such/dir/plan.json`], text: /cannot write --out .*plan\.json: its directory .*no\/such\/dir does not exist/ },
    { name: 'export -o a directory', args: (d) => ['export', '--include', 'acme', '-o', d], text: /cannot write -o .*: it is a directory/ },
    { name: 'an --include that cannot be a name', args: () => ['export', '--include', 'labels!'], text: /--include "labels!" is not a kind, a repository or an organisation: expected a kind \(users, orgs, (?:[a-z_]+, )*labels, teams(, [a-z_]+)*\), OWNER\/REPO/ }, // every exported kind, in registry order: kinds added later (repos, with pull mirrors) sit anywhere in the list
    { name: 'a two-line token file', args: (d) => ['plan', '-c', 'forgeform.yaml', '--token-file', `${d}/two-lines`], text: /--token-file .*two-lines holds 2 lines: it must hold the API token alone, on one line/ },
    { name: 'a token with a space', args: () => ['plan', '-c', 'forgeform.yaml'], env: { FORGEFORM_TOKEN: 'abc def' }, text: /FORGEFORM_TOKEN holds a space, a control or a non-ASCII character/ },
    { name: 'a missing token file', args: (d) => ['plan', '-c', 'forgeform.yaml', '--token-file', `${d}/nothing-here`], text: /cannot read --token-file .*nothing-here: no such file or directory/ },
    { name: 'an unset variable in the config', args: () => ['plan', '-c', 'unset.yaml'], text: /unset\.yaml:5:42: .*NOT_SET_ANYWHERE/ },
    { name: 'a password written in clear', args: () => ['plan', '-c', 'clear-password.yaml'], text: /clear-password\.yaml:5:5: password is a secret and must come from an environment variable/ },
    { name: 'a hook declared twice', args: () => ['apply', '-c', 'twice-hook.yaml', '--yes'], text: /twice-hook\.yaml:4:5: this hook \(scope system, type gitea, url https:\/\/ci\.example\.com\/x\) is declared twice: here and at .*twice-hook\.yaml:3:5/ },
  ];

  beforeAll(() => {
    writeFileSync(`${w.dir}/two-lines`, 'first-line-token\nsecond-line-token\n');
    w.config('version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: ee0701, description: "${NOT_SET_ANYWHERE}" }\n', 'unset.yaml');
    w.config('version: 1\nusers:\n  carol:\n    email: carol@example.com\n    password: written-in-clear-1\n', 'clear-password.yaml');
    w.config('version: 1\nhooks:\n  - { url: https://ci.example.com/x }\n  - { url: https://ci.example.com/x }\n', 'twice-hook.yaml');
  });

  for (const c of cases) {
    it(`${c.name}: one line, exit 1, no request`, async () => {
      w.sandbox.clearRequests();
      const r = await w.cli(c.args(w.dir), c.env);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(c.text);
      noStack(r.stderr);
      expect(r.stderr).not.toContain('second-line-token');
      expect(w.sandbox.requests()).toEqual([]);
    });
  }
});
