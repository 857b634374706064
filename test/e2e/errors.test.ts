import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/gitea/errors.js';
import type { SeedFile } from '../../src/sandbox/index.js';
import { calls, CLI, runCli, world, writes, type World } from './helpers.js';
import { closedPort } from '../support/loopback.js';

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAII8vywx2sI3cqKD7ZSC0zl8u/dy3KXHSkqwT7tg5me5Y alice@laptop';

const seed: SeedFile = {
  badges: ['early', 'helper'],
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com', password: 'alice-password-1', badges: ['early'], keys: [{ title: 'laptop', key: KEY }] },
    { username: 'bob', email: 'bob@example.com' },
  ],
  orgs: [{ name: 'acme', owners: ['root'], members: ['alice', 'bob'], teams: [{ name: 'devs', permission: 'write', members: ['alice'] }] }],
  repos: [
    { name: 'acme/widgets', labels: [{ name: 'bug', color: 'ee0701' }], branch_protections: [{ rule_name: 'main', enable_push: false }] },
    { name: 'acme/gadgets' },
    { name: 'alice/dotfiles' },
  ],
};

let w: World;
beforeAll(async () => {
  w = await world(seed);
});
afterAll(async () => w.sandbox.close());

/** One line on stderr, exit 1, no stack trace: what every failure below must look like. */
function oneClearLine(r: { code: number | null; stderr: string }): string {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).not.toMatch(/\n\s+at .+:\d+/);
  expect(r.stderr).not.toContain('unexpected error');
  expect(r.stderr).not.toContain('internal error');
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  return lines[0]!;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A loopback port nothing listens on (taken, then released). */
/**
 * A proxy in front of the sandbox that answers the paths `rules` names itself ("/api/v1/…" for
 * every method, "POST /api/v1/…" for one), like a misbehaving server or proxy, and forwards the rest.
 */
async function proxy(rules: Record<string, (res: ServerResponse) => void>): Promise<{ url: string; close: () => void }> {
  const target = new URL(w.sandbox.url);
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0]!;
    const rule = rules[`${req.method} ${path}`] ?? rules[path];
    if (rule) return rule(res);
    const fwd = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    req.pipe(fwd);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const url = await listen(server);
  return {
    url,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

const labelsConfig = 'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: ee0701 }\n';

describe('no answer from the server: one line, what failed, what to do', () => {
  it('connection refused', async () => {
    const port = await closedPort();
    const line = oneClearLine(await w.cli(['plan', '-c', w.config(labelsConfig)], { FORGEFORM_URL: `http://127.0.0.1:${port}` }));
    expect(line).toBe(`cannot reach http://127.0.0.1:${port}: the connection was refused (ECONNREFUSED); check the host and port of the URL, and that the server is running.`);
  });

  it('a host name that does not resolve (.invalid)', async () => {
    const line = oneClearLine(await w.cli(['plan', '-c', w.config(labelsConfig)], { FORGEFORM_URL: 'https://forgeform-test.invalid' }));
    expect(line).toMatch(/^cannot reach https:\/\/forgeform-test\.invalid: the host name does not resolve \((ENOTFOUND|EAI_AGAIN)\); check the host name in --url or FORGEFORM_URL\.$/);
  });

  it('TLS to a port that speaks plain HTTP', async () => {
    const https = w.sandbox.url.replace('http://', 'https://');
    const line = oneClearLine(await w.cli(['plan', '-c', w.config(labelsConfig)], { FORGEFORM_URL: https }));
    expect(line).toMatch(new RegExp(`^cannot reach ${https.replace(/[.]/g, '\\.')}: the TLS handshake failed \\(\\w+\\); the port may speak plain HTTP \\(use http://\\)`));
  });

  it('a server that never answers, within --timeout', async () => {
    const sockets: Socket[] = [];
    const silent = createServer(() => undefined);
    silent.on('connection', (s) => sockets.push(s));
    const url = await listen(silent);
    try {
      const line = oneClearLine(await w.cli(['plan', '-c', w.config(labelsConfig), '--timeout', '0.3'], { FORGEFORM_URL: url, FORGEFORM_RETRY_LIMIT: '0' }));
      expect(line).toBe(`cannot reach ${url}: no answer in time; the server is slow or unreachable: check the URL, or raise --timeout.`);
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });

  it('--debug (or FORGEFORM_DEBUG=1) adds the stack trace, and only then', async () => {
    const port = await closedPort();
    const env = { FORGEFORM_URL: `http://127.0.0.1:${port}` };
    const file = w.config(labelsConfig);
    for (const r of [await w.cli(['plan', '-c', file, '--debug'], env), await w.cli(['plan', '-c', file], { ...env, FORGEFORM_DEBUG: '1' })]) {
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('the connection was refused');
      expect(r.stderr).toMatch(/\n\s+at .+:\d+/);
    }
  });
});

describe('forgeform sandbox: a bad argument is one line', () => {
  const cases: { name: string; args: string[]; text: string | RegExp }[] = [
    { name: '--fault-rate 2', args: ['--fault-rate', '2'], text: 'forgeform sandbox: --fault-rate must be a share between 0 and 1 (0.2 = 20%), got 2' },
    { name: '--fault-rate abc', args: ['--fault-rate', 'abc'], text: '--fault-rate must be a number, got "abc"' },
    { name: '--port abc', args: ['--port', 'abc'], text: '--port must be a number, got "abc"' },
    { name: '--port 70000', args: ['--port', '70000'], text: 'forgeform sandbox: --port must be a whole number from 0 to 65535 (0 = any free port), got 70000' },
    { name: '--latency -5', args: ['--latency', '-5'], text: 'forgeform sandbox: --latency must be a number of milliseconds from 0 to 600000, got -5' },
    { name: 'a missing seed', args: ['--seed', 'no-such-seed.yaml'], text: 'forgeform sandbox: cannot read --seed no-such-seed.yaml: no such file' },
    { name: 'a seed with an unknown key', args: ['--seed', 'bad-seed.yaml'], text: /^forgeform sandbox: --seed bad-seed\.yaml: users\[0\]\.nmae: unknown key/ },
    { name: 'a seed that is not YAML', args: ['--seed', 'broken-seed.yaml'], text: /^forgeform sandbox: --seed broken-seed\.yaml: .* at line 2, column 1$/ },
    { name: 'a state file that is not one', args: ['--state', 'bad-state.json'], text: 'forgeform sandbox: --state bad-state.json is not a forgeform sandbox state file: remove it to start from the seed, or give another path' },
  ];
  beforeAll(() => {
    writeFileSync(`${w.dir}/bad-seed.yaml`, 'users:\n  - nmae: alice\n');
    writeFileSync(`${w.dir}/broken-seed.yaml`, 'users: [ { username: alice\n');
    writeFileSync(`${w.dir}/bad-state.json`, '{"not": "a state"');
  });
  for (const c of cases) {
    it(c.name, async () => {
      const line = oneClearLine(await runCli(['sandbox', ...c.args], { cwd: w.dir }));
      if (typeof c.text === 'string') expect(line).toBe(c.text);
      else expect(line).toMatch(c.text);
    });
  }

  it('a port in use', async () => {
    const port = new URL(w.sandbox.url).port;
    const line = oneClearLine(await runCli(['sandbox', '--port', port]));
    expect(line).toBe(`forgeform sandbox: port ${port} is already in use: choose another --port, or --port 0 for any free port`);
  });
});

describe('resolving scopes: every failure names the repository, its place and what to do', () => {
  const file = () => w.config(labelsConfig, 'scope-failure.yaml');
  const where = () => `${w.dir}/scope-failure.yaml:3:3: `;
  const cases: { name: string; answer: (res: ServerResponse) => void; text: RegExp }[] = [
    {
      name: '401',
      answer: (res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"token is required"}'),
      text: /cannot read repository acme\/widgets: GET \/api\/v1\/repos\/acme\/widgets → 401 Unauthorized: token is required \(the credentials were refused: check FORGEFORM_TOKEN/,
    },
    {
      name: 'a redirect to another host',
      answer: (res) => res.writeHead(302, { location: 'https://login.example.invalid/sso' }).end(),
      text: /cannot read repository acme\/widgets: GET \/api\/v1\/repos\/acme\/widgets → 302 Found: moved to https:\/\/login\.example\.invalid\/sso \(the server sends this request elsewhere: check --url/,
    },
    {
      name: '5xx after retries',
      answer: (res) => res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad gateway'),
      text: /cannot read repository acme\/widgets: GET \/api\/v1\/repos\/acme\/widgets → 502 Bad Gateway: Bad gateway \(the server or a proxy is overloaded or down: try again later\)/,
    },
    {
      name: 'an empty body',
      answer: (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(),
      text: /cannot read repository acme\/widgets: GET \/api\/v1\/repos\/acme\/widgets answered an empty body where an object is due: .*check --url/,
    },
    {
      name: 'a timeout',
      answer: () => undefined,
      // This route alone stalls: the server answers the probe (GET /user) meanwhile, so it is not called stopped (issue 28).
      text: /cannot read repository acme\/widgets: GET \/api\/v1\/repos\/acme\/widgets got no complete answer within 1 s \(--timeout\), though the server is answering: this request alone is slow or stalls on the server; try again, raise --timeout, or look for it in the server's log \(tried 2 times\)$/,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const p = await proxy({ '/api/v1/repos/acme/widgets': c.answer });
      try {
        const r = await w.cli(['plan', '-c', file(), '--timeout', '1'], { FORGEFORM_URL: p.url, FORGEFORM_RETRY_LIMIT: '1' });
        expect(r.code).toBe(1);
        expect(r.stderr).not.toMatch(/\n\s+at .+:\d+/);
        expect(r.stderr).toContain(where());
        expect(r.stderr.split('\n').find((l) => l.startsWith(where()))).toMatch(c.text);
        expect(r.stderr).toContain('Planning failed: nothing was changed.');
      } finally {
        p.close();
      }
    });
  }

  it('a 403 "already exists" at apply is not blamed on the token', async () => {
    const file = w.config('version: 1\nrepos:\n  acme/gadgets:\n    branch_protections:\n      main: { enable_push: false }\n', 'bp-exists.yaml');
    // Another run made the rule between this run's read and its write.
    const p = await proxy({
      'POST /api/v1/repos/acme/gadgets/branch_protections': (res) => res.writeHead(403, { 'content-type': 'application/json' }).end('{"message":"Branch protection already exist","url":""}'),
    });
    try {
      const r = await w.cli(['apply', '-c', file, '--yes'], { FORGEFORM_URL: p.url });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/POST \/api\/v1\/repos\/acme\/gadgets\/branch_protections → 403 Forbidden: Branch protection already exist \(it exists on the server already, perhaps made by another run: run plan again\)/);
      expect(r.stdout + r.stderr).not.toMatch(/lacks a permission|needs admin rights/);
    } finally {
      p.close();
    }
  });

  it('a 403 "already exists" is worded as a conflict, not a permission', () => {
    const e = new ApiError('POST', 'repos/acme/widgets/branch_protections', 403, 'Branch protection already exist', 'branch protection "main" in acme/widgets');
    expect(e.message).toBe(
      'branch protection "main" in acme/widgets: POST /api/v1/repos/acme/widgets/branch_protections → 403 Forbidden: Branch protection already exist (it exists on the server already, perhaps made by another run: run plan again)',
    );
    expect(e.message).not.toMatch(/permission|token/);
  });
});

describe('no surprises in scopes and targets', () => {
  it('an organisation that does not exist is an error at its file:line:col, like a repository', async () => {
    const file = w.config('version: 1\norgs:\n  ghost:\n    labels:\n      bug: { color: ee0701 }\n  acme:\n    labels: {}\n', 'ghost-org.yaml');
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:3:3: organisation "ghost" does not exist on the server: add owner: USER to create it`);
    expect(r.stderr).not.toMatch(/^error: /m);
    expect(r.stderr).not.toContain('GET /api/v1/orgs/ghost/labels');
  });

  it('missing owners and repositories are reported in line order, each with the nearest name the config gives', async () => {
    const text = ['version: 1', 'repos:', '  "acmee/*":', '    labels: {}', '  acme/widgets:', '    labels: {}', '  acme/widgts:', '    labels: {}', '  acmee/gadgets:', '    labels: {}', '  zzz/nothing:', '    labels: {}', ''].join('\n');
    const file = w.config(text, 'near-names.yaml');
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith(`${file}:`));
    expect(lines).toEqual([
      `${file}:3:3: owner "acmee" does not exist on the server: did you mean "acme"?`,
      `${file}:7:3: repository acme/widgts does not exist on the server (or the token cannot see it); add create: {} to create it: did you mean "acme/widgets"?`,
      `${file}:9:3: repository acmee/gadgets does not exist on the server (or the token cannot see it); add create: {} to create it: did you mean "acme/gadgets"?`,
      `${file}:11:3: repository zzz/nothing does not exist on the server (or the token cannot see it); add create: {} to create it`,
    ]);
  });

  it('an organisation with settings and no owner is reported once', async () => {
    const file = w.config('version: 1\norgs:\n  ghost: { full_name: Ghost }\n', 'ghost-org-settings.yaml');
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code).toBe(1);
    expect(r.stderr.match(/does not exist on the server/g)).toHaveLength(1);
  });

  it('a glob that matches nothing is a warning naming it', async () => {
    const file = w.config('version: 1\nrepos:\n  "acme/x-*":\n    labels:\n      bug: { color: ee0701 }\n  "acme/widg*":\n    labels:\n      bug: { color: ee0701 }\n', 'empty-glob.yaml');
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Warning: repos "acme/x-*" matches no repository on the server: nothing is planned for it');
    expect(r.stdout).not.toContain('"acme/widg*" matches');
  });

  it('a --target that matches nothing is an error naming it and the nearest names the configuration declares (exit 1, nothing planned)', async () => {
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: ee0701 }\n  acme/gadgets:\n    labels:\n      bug: { color: ee0701 }\n', 'target.yaml');
    const r = await w.cli(['plan', '-c', file, '--target', 'repo:acme/widgets', '--target', 'repo:acme/nothing-*', '--target', 'user:nobody']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: --target "repo:acme/nothing-*" matches nothing the configuration declares (the nearest it declares: "repo:acme/widgets", "repo:acme/gadgets")');
    expect(r.stderr).toContain('error: --target "user:nobody" matches nothing the configuration declares\n');
    expect(r.stderr).toContain('Planning failed: nothing was changed.');
    expect(r.stderr).not.toContain('"repo:acme/widgets" matches');
  });

  it('a mistyped --target is an error with a suggestion, for plan and apply (apply writes nothing)', async () => {
    const file = w.config(labelsConfig, 'target-typo.yaml');
    const plan = await w.cli(['plan', '-c', file, '--target', 'repo:acme/widgest']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('error: --target "repo:acme/widgest" matches nothing the configuration declares (did you mean "repo:acme/widgets"?)');
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes', '--target', 'repo:acme/widgest']);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('(did you mean "repo:acme/widgets"?)');
    expect(writes(w.sandbox)).toEqual([]);
  });
});

describe('branch protections: users and teams that do not exist are plan errors', () => {
  const rules = `    branch_protections:
      main:
        enable_push: true
        enable_push_whitelist: true
        push_whitelist_usernames: [alice, ghost-user]
        push_whitelist_teams: [devs, ghost-team]
        enable_merge_whitelist: true
        merge_whitelist_usernames: [ghost-user, bob]
`;

  it('at file:line:col, with one team list per organisation and one lookup per distinct name, and nothing written', async () => {
    const file = w.config(`version: 1\nrepos:\n  acme/widgets:\n${rules}  acme/gadgets:\n${rules}`, 'bp-accounts.yaml');
    w.sandbox.clearRequests();
    const r = await w.cli(['apply', '-c', file, '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:8:43: branch protection "main" in acme/widgets: push_whitelist_usernames: user "ghost-user" does not exist on the server`);
    expect(r.stderr).toContain(`${file}:9:38: branch protection "main" in acme/widgets: push_whitelist_teams: team "ghost-team" does not exist in organisation acme`);
    expect(r.stderr).toContain(`${file}:11:37: branch protection "main" in acme/widgets: merge_whitelist_usernames: user "ghost-user" does not exist on the server`);
    expect(r.stderr).toContain(`${file}:18:38: branch protection "main" in acme/gadgets: push_whitelist_teams: team "ghost-team"`);
    expect(r.stderr).not.toMatch(/user "alice"|user "bob" does not exist|team "devs"/);
    // bob exists but cannot write the code (alice can, through her team): Gitea would drop him from the merge list
    expect(r.stderr).toContain(`${file}:11:49: branch protection "main" in acme/widgets: merge_whitelist_usernames: user "bob" has no write access to acme/widgets (its permission is read)`);
    const seen = calls(w.sandbox);
    expect(seen.filter((c) => c.includes('/permission')).sort()).toEqual([
      'GET repos/acme/gadgets/collaborators/alice/permission',
      'GET repos/acme/gadgets/collaborators/bob/permission',
      'GET repos/acme/widgets/collaborators/alice/permission',
      'GET repos/acme/widgets/collaborators/bob/permission',
    ]);
    expect(seen.filter((c) => c.startsWith('GET orgs/acme/teams'))).toHaveLength(1);
    expect(seen.filter((c) => c.startsWith('GET users/')).sort()).toEqual(['GET users/alice', 'GET users/bob', 'GET users/ghost-user']);
    expect(seen.filter((c) => !c.startsWith('GET'))).toEqual([]);
  });

  it('uses the user list when the config manages users: no lookup per name', async () => {
    const file = w.config(`version: 1\nusers:\n  bob: { full_name: Bob }\nrepos:\n  acme/widgets:\n${rules}`, 'bp-accounts-users.yaml');
    w.sandbox.clearRequests();
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('push_whitelist_usernames: user "ghost-user" does not exist on the server');
    expect(calls(w.sandbox).filter((c) => c.startsWith('GET users/'))).toEqual([]);
  });
});

describe('export', () => {
  it('with no --include, exports everything the token can read, users with badges and SSH keys, and plans no changes', async () => {
    const out = `${w.dir}/everything.yaml`;
    const r = await w.cli(['export', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    for (const s of ['acme/widgets:', 'alice/dotfiles:', 'acme/gadgets:', 'bug:', 'main:', 'users:', 'alice:', 'early', 'ssh_keys:', 'title: laptop', KEY.slice(0, 40)]) expect(text).toContain(s);
    const plan = await w.cli(['plan', '-c', out, '--detailed-exitcode']);
    expect(plan.stderr).not.toMatch(/error/i);
    expect(plan.code).toBe(0);
  });

  it('with no --include and a token without site-admin rights, exports what that user can read, and says so', async () => {
    const r = await w.cli(['export'], { FORGEFORM_TOKEN: '', FORGEFORM_USERNAME: 'alice', FORGEFORM_PASSWORD: 'alice-password-1' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("Warning: the token is not a site administrator's: only the repositories of alice, acme are exported");
    expect(r.stderr).toMatch(/Warning: users: not exported, the token may not read them/);
    expect(r.stdout).toContain('alice/dotfiles:');
    expect(r.stdout).toContain('acme/widgets:');
    expect(r.stdout).not.toContain('ssh_keys:');
  });

  it('an --include word that is neither a kind nor an organisation is an error listing the kinds', async () => {
    const r = await w.cli(['export', '--include', 'label']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      '--include "label" is not a kind (did you mean "labels"?) and no organisation of this name exists on the server (or the token cannot see it); the kinds are users, orgs, repos, settings, hooks, runners, labels, teams, public_members, collaborators, secrets, variables, branch_protections, tag_protections, push_mirrors, webhooks, deploy_keys',
    );
  });

  it('the help says what no --include exports, and what it costs', async () => {
    const r = await runCli(['export', '--help']);
    expect(r.stdout).toMatch(/Without --include, export writes every kind .*badges and SSH keys: two more requests per user/s);
  });
});

describe('a sandbox that stops cleanly still prints its first line', () => {
  it('prints the URL and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, 'sandbox'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    expect(line).toMatch(/^forgeform sandbox listening on http:\/\/127\.0\.0\.1:\d+ \(token: \w+\)$/);
    const code = await new Promise<number | null>((resolve) => {
      child.on('close', resolve);
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  });
});
