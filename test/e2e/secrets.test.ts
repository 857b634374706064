import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { ADMIN_TOKEN, world, type CliResult, type World } from './helpers.js';

// Distinctive values with what breaks a search-and-replace mask: quotes and backslashes (escaped by
// JSON), several lines (a diff shows them one by one), and characters outside ASCII.
const PASSWORD = 'pa"ss\\wörd-Zq81\nsecond-pw-line-Hy4';
const HOOK_SECRET = 'hook"sig\\ñ-Xv20\nline-two-of-hook-Rt7\n  indented-third-Kp5';
const HOOK_AUTH = 'Bearer aut"h\\-токен-Wd63';
/** Not a secret field, read from the environment: masking is by type, so it prints (and is saved) as itself. */
const DESCRIPTION = 'desc "quoted" Jb42\\path\nsecond desc line Nc77';
const env = { PASSWORD, HOOK_SECRET, HOOK_AUTH, DESCRIPTION };

const SECRETS = [PASSWORD, HOOK_SECRET, HOOK_AUTH, ADMIN_TOKEN];

/** Every form in which a value could leak: as is, JSON-escaped, and each of its lines. */
function forms(values: string[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    out.add(v);
    out.add(JSON.stringify(v).slice(1, -1));
    for (const line of v.split('\n')) if (line.trim().length >= 3) out.add(line.trim());
  }
  return [...out];
}

function expectNoLeak(what: string, text: string, values: string[] = SECRETS): void {
  for (const form of forms(values)) {
    if (text.includes(form)) throw new Error(`${what} contains ${JSON.stringify(form)}:\n${text}`);
  }
}

function expectQuiet(what: string, r: CliResult, values?: string[]): void {
  expectNoLeak(`${what} (stdout)`, r.stdout, values);
  expectNoLeak(`${what} (stderr)`, r.stderr, values);
  // A leak is not all that can go wrong: a crash prints a stack trace instead of the message.
  expect(r.stderr, what).not.toMatch(/\n\s+at .*:\d+:\d+\)?\n/);
}

const seed: SeedFile = { users: [{ username: 'root', admin: true, email: 'root@example.com' }] };

const config = `version: 1
users:
  carol:
    email: carol@example.com
    password: \${PASSWORD}
    must_change_password: false
    description: \${DESCRIPTION}
hooks:
  - url: https://ci.example.com/hook
    secret: \${HOOK_SECRET}
    authorization_header: \${env:HOOK_AUTH}
`;

let w: World;
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await w?.sandbox.close();
  for (const close of closers) await close();
  closers = [];
});

/** The sandbox's request log as served over HTTP (it needs the admin token). */
async function logOverHttp(w: World): Promise<string> {
  const res = await fetch(`${w.sandbox.url}/_sandbox/requests`, { headers: { authorization: `token ${ADMIN_TOKEN}` } });
  expect(res.status).toBe(200);
  return res.text();
}

describe('no secret in any output', () => {
  it('validate, plan in every format, plan --out, apply PLANFILE, apply --format json and export never show a secret', async () => {
    w = await world(seed);
    const file = w.config(config);
    const planFile = join(w.dir, 'plan.json');

    const validate = await w.cli(['validate', '-c', file], env);
    expect(validate.code).toBe(0);
    expectQuiet('validate', validate);

    for (const format of ['text', 'markdown', 'json']) {
      const plan = await w.cli(['plan', '-c', file, '--format', format], env);
      expect(plan.code, plan.stderr).toBe(0);
      // Each secret shows the variable it is read from, never its value (issue 28).
      expect(plan.stdout).toContain('(sensitive, from ${PASSWORD})');
      expect(plan.stdout).toContain('(sensitive, from ${HOOK_AUTH})');
      expectQuiet(`plan --format ${format}`, plan);
      // The other direction: a value that is not secret is shown, though it came from the environment.
      expect(plan.stdout).toContain(format === 'json' ? JSON.stringify(DESCRIPTION).slice(1, -1) : '+second desc line Nc77');
    }
    const json = JSON.parse((await w.cli(['plan', '-c', file, '--format', 'json'], env)).stdout) as { changes: { kind: string; ops: { body: Record<string, unknown> }[] }[] };
    const userCreate = json.changes.find((c) => c.kind === 'user')!.ops[0]!.body;
    expect(userCreate.password).toBe('(sensitive, from ${PASSWORD})');
    const hookCreate = json.changes.find((c) => c.kind === 'hook')!.ops[0]!.body;
    expect(hookCreate).toMatchObject({ config: { secret: '(sensitive, from ${HOOK_SECRET})' }, authorization_header: '(sensitive, from ${HOOK_AUTH})' });

    const saved = await w.cli(['plan', '-c', file, '--out', planFile], env);
    expectQuiet('plan --out', saved);
    const planText = readFileSync(planFile, 'utf8');
    expectNoLeak('the plan file', planText);
    expect(planText).toContain(`"after":${JSON.stringify(DESCRIPTION)}`);
    // A secret is saved as the reference it was read from, ${env:NAME} written as ${NAME}.
    const savedHook = (JSON.parse(planText) as typeof json).changes.find((c) => c.kind === 'hook')!.ops[0]!.body;
    expect(savedHook).toMatchObject({ authorization_header: { $env: '${HOOK_AUTH}' }, config: { secret: { $env: '${HOOK_SECRET}' } } });

    const apply = await w.cli(['apply', planFile, '--format', 'json'], env);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain('"format_version": 1');
    expectQuiet('apply PLANFILE --format json', apply);

    // ...and the server got the values themselves.
    const posted = w.sandbox.requests().filter((r) => r.method === 'POST').map((r) => r.body as Record<string, unknown>);
    expect(posted).toContainEqual(expect.objectContaining({ username: 'carol', password: PASSWORD }));
    expect(posted).toContainEqual(expect.objectContaining({ authorization_header: HOOK_AUTH, config: expect.objectContaining({ secret: HOOK_SECRET }) as unknown }));
    const carol = await fetch(`${w.sandbox.url}/api/v1/user`, { headers: { authorization: `Basic ${Buffer.from(`carol:${PASSWORD}`).toString('base64')}` } });
    expect(carol.status).toBe(200);

    // Secrets sent again (a PATCH for the user, a replacement for the hook), shown as JSON.
    for (const format of ['json', 'text', 'markdown']) {
      const rotate = await w.cli(['apply', '-c', file, '--yes', '--rotate-secrets', '--format', format], env);
      expect(rotate.code, rotate.stderr).toBe(0);
      expectQuiet(`apply --rotate-secrets --format ${format}`, rotate);
    }

    const exported = await w.cli(['export', '--include', 'users', '--include', 'hooks']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('https://ci.example.com/hook');
    // The description is the server's data, not a secret: export knows no environment to mask.
    expectQuiet('export', exported, SECRETS);
    const out = join(w.dir, 'exported.yaml');
    expect((await w.cli(['export', '--include', 'users', '--include', 'hooks', '-o', out])).code).toBe(0);
    expectNoLeak('the exported file', readFileSync(out, 'utf8'), SECRETS);

    expectNoLeak('the request log over HTTP', await logOverHttp(w), SECRETS);
  });

  it('a server that refuses the writes, echoing the request in its message (422, 500), has its answer masked', async () => {
    w = await world(seed);
    const proxy = await echoingProxy(w.sandbox.url, (method, path) => (method === 'POST' && path !== '/api/v1/orgs' /* apply's lock */ ? (path.endsWith('admin/users') ? 422 : 500) : undefined));
    const file = w.config(config);
    for (const format of ['text', 'json']) {
      const apply = await w.cli(['apply', '-c', file, '--yes', '--format', format], { ...env, FORGEFORM_URL: proxy });
      expect(apply.code).toBe(1);
      expect(apply.stdout).toMatch(/422 Unprocessable Entity: refused/);
      expect(apply.stdout).toMatch(/500 Internal Server Error: refused/);
      expectQuiet(`apply against a refusing server (${format})`, apply);
    }
    const planFile = join(w.dir, 'plan.json');
    expect((await w.cli(['plan', '-c', file, '--out', planFile], { ...env, FORGEFORM_URL: proxy })).code).toBe(0);
    const apply = await w.cli(['apply', planFile], { ...env, FORGEFORM_URL: proxy });
    expect(apply.code).toBe(1);
    expectQuiet('apply PLANFILE against a refusing server', apply);
  });

  it('a bad config next to the secrets, or a plan file without its variables, says so without a secret', async () => {
    w = await world(seed);
    const bad = w.config(`version: 1
users:
  carol:
    email: carol@example.com
    password: \${PASSWORD}
    admin: "\${PASSWORD}"
    pasword: \${PASSWORD}
    description: \${DESCRIPTION}
hooks:
  - url: https://ci.example.com/hook
    secret: \${HOOK_SECRET}
    authorization_header: \${HOOK_AUTH}
    events: 5
`);
    for (const command of ['validate', 'plan']) {
      const r = await w.cli([command, '-c', bad], env);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/forgeform\.yaml:6:\d+: .*admin/);
      expect(r.stderr).toMatch(/forgeform\.yaml:7:\d+: .*pasword/);
      expect(r.stderr).toMatch(/forgeform\.yaml:13:\d+: .*events/);
      expectQuiet(`${command} of a bad config`, r);
    }

    const planFile = join(w.dir, 'plan.json');
    expect((await w.cli(['plan', '-c', w.config(config), '--out', planFile], env)).code).toBe(0);
    const missing = await w.cli(['apply', planFile], { PASSWORD, DESCRIPTION });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/HOOK_SECRET/);
    expectQuiet('apply PLANFILE without its variables', missing);
  });

  it('refuses a server URL with a password in it, without repeating the password', async () => {
    w = await world(seed);
    const password = 'url-pass"word-Fe52';
    const withCredentials = w.sandbox.url.replace('http://', `http://root:${encodeURIComponent(password)}@`);
    const file = w.config('version: 1\nusers:\n  root: { email: root@example.com }\n');
    const fromConfig = w.config(`version: 1\nserver:\n  url: "${withCredentials}"\nusers:\n  root: { email: root@example.com }\n`, 'with-url.yaml');
    const runs = [
      await w.cli(['plan', '-c', file, '--url', withCredentials]),
      await w.cli(['plan', '-c', file], { FORGEFORM_URL: withCredentials }),
      await w.cli(['plan', '-c', fromConfig], { FORGEFORM_URL: undefined }),
      await w.cli(['export', '--include', 'users', '--url', withCredentials]),
    ];
    for (const r of runs) {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/user name or password/);
      expectQuiet('a URL with credentials', r, [password, encodeURIComponent(password)]);
    }
    expect(w.sandbox.requests()).toEqual([]);
  });
});

describe('the sandbox keeps secrets out of its request log and state file', () => {
  it('serves the request log to the admin token only, with secret fields as (sensitive)', async () => {
    w = await world(seed);
    expect((await w.cli(['apply', '-c', w.config(config), '--yes'], env)).code).toBe(0);
    expect((await fetch(`${w.sandbox.url}/_sandbox/requests`)).status).toBe(401);
    expect((await fetch(`${w.sandbox.url}/_sandbox/requests`, { headers: { authorization: 'token wrong' } })).status).toBe(401);
    expect((await fetch(`${w.sandbox.url}/_sandbox/requests`, { method: 'DELETE' })).status).toBe(401);
    const log = JSON.parse(await logOverHttp(w)) as { method: string; body?: Record<string, unknown> }[];
    expectNoLeak('the request log over HTTP', JSON.stringify(log), SECRETS);
    const posts = log.filter((r) => r.method === 'POST').map((r) => r.body);
    expect(posts).toContainEqual(expect.objectContaining({ username: 'carol', password: '(sensitive)' }));
    expect(posts).toContainEqual(expect.objectContaining({ authorization_header: '(sensitive)', config: expect.objectContaining({ secret: '(sensitive)' }) as unknown }));
  });

  it('stores hook secrets hashed (as passwords) and authorization headers encrypted in its --state file', async () => {
    const statePath = join(mkdtempSync(join(tmpdir(), 'forgeform-state-')), 'state.json');
    w = await world(seed, { statePath });
    expect((await w.cli(['apply', '-c', w.config(config), '--yes'], env)).code).toBe(0);
    const state = readFileSync(statePath, 'utf8');
    expect(state).toContain('https://ci.example.com/hook');
    expectNoLeak('the state file', state, SECRETS);
    await w.sandbox.close();

    // Restarted from the file, the sandbox knows the hook and the user; nothing is hashed twice.
    w = await world(undefined, { statePath });
    expect((await w.cli(['plan', '-c', w.config(config), '--detailed-exitcode'], env)).code).toBe(0);
    const hooksIn = (text: string) => (JSON.parse(text) as { adminHooks: unknown[] }).adminHooks;
    expect(hooksIn(readFileSync(statePath, 'utf8'))).toEqual(hooksIn(state));
  });
});

/**
 * A server in front of the sandbox that refuses chosen writes with `status`, quoting the request
 * body in its message — as a careless proxy or server does.
 */
async function echoingProxy(target: string, refuse: (method: string, path: string) => number | undefined): Promise<string> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = (req.url ?? '').split('?')[0]!;
        const status = refuse(req.method ?? 'GET', path);
        if (status) {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: `refused: ${body}`, url: target }));
          return;
        }
        const answer = await fetch(`${target}${req.url ?? ''}`, {
          method: req.method ?? 'GET',
          headers: { authorization: req.headers.authorization ?? '', ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body } : {}),
        });
        const headers: Record<string, string> = { 'content-type': answer.headers.get('content-type') ?? 'application/json' };
        const total = answer.headers.get('x-total-count');
        if (total !== null) headers['x-total-count'] = total;
        res.writeHead(answer.status, headers);
        res.end(await answer.text());
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
