/**
 * Failures that cannot succeed fail fast, with one line (issue 17 §6), and a server that stopped
 * answering costs about one --timeout, not one per batch of requests (issue 18 §5). These run with
 * the CLI's real retry delays (the other e2e tests shorten them): the times below are what a user
 * waits. Times are asserted loosely (the machine is shared); the figures are in docs/reliability.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMisbehavingProxy, type MisbehavingProxy } from '../support/misbehaving-proxy.js';
import { runCli, world, type World } from './helpers.js';
import { closedPort } from '../support/loopback.js';

const REPOS = Array.from({ length: 60 }, (_, i) => `acme/r${String(i).padStart(2, '0')}`);
const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: REPOS.map((name) => ({ name, labels: [{ name: 'bug', color: 'ee0701' }] })),
};
const config = `version: 1\nrepos:\n${REPOS.map((r) => `  ${r}:\n    labels:\n      bug: { color: ee0701 }\n`).join('')}`;

let w: World;
beforeAll(async () => {
  w = await world(seed);
});
afterAll(async () => w.sandbox.close());

/** The CLI with the default retry delays (helpers shorten them to 5 ms), timed from spawn to exit. */
async function timed(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string; seconds: number }> {
  const started = Date.now();
  const r = await runCli(args, { env: { FORGEFORM_TOKEN: 'e2e-admin-token', FORGEFORM_RETRY_DELAY_MS: '', ...env }, cwd: w.dir });
  return { ...r, seconds: (Date.now() - started) / 1000 };
}

/** One line on stderr and exit 1. */
function oneLine(r: { code: number | null; stderr: string }): string {
  expect(r.code, r.stderr).toBe(1);
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  return lines[0]!;
}

describe('what can never succeed fails at once, in one line (issue 17 §6: 57.6 s of retries each before)', () => {
  it('a closed port', async () => {
    const port = await closedPort();
    const r = await timed(['plan', '-c', w.config(config)], { FORGEFORM_URL: `http://127.0.0.1:${port}` });
    expect(oneLine(r)).toBe(`cannot reach http://127.0.0.1:${port}: the connection was refused (ECONNREFUSED); check the host and port of the URL, and that the server is running.`);
    // Under 5 s on an idle machine (about 0.7 s, most of it Node's start); loose here, the machine is shared.
    expect(r.seconds).toBeLessThan(15);
  });

  it('a host name that does not resolve', async () => {
    const r = await timed(['plan', '-c', w.config(config)], { FORGEFORM_URL: 'https://forgeform-failfast.invalid' });
    expect(oneLine(r)).toMatch(/^cannot reach https:\/\/forgeform-failfast\.invalid: the host name does not resolve/);
    expect(r.seconds).toBeLessThan(15);
  });

  it('TLS to a port that speaks plain HTTP', async () => {
    const r = await timed(['plan', '-c', w.config(config)], { FORGEFORM_URL: w.sandbox.url.replace('http://', 'https://') });
    expect(oneLine(r)).toMatch(/the TLS handshake failed \(\w+\); the port may speak plain HTTP \(use http:\/\/\)/);
    expect(r.seconds).toBeLessThan(15);
  });

  it('--retries is bounded: above 10 is an error before anything is sent', async () => {
    const r = await timed(['plan', '-c', w.config(config), '--retries', '11'], { FORGEFORM_URL: w.sandbox.url });
    expect(oneLine(r)).toBe('--retries must be a whole number from 0 to 10, got 11');
  });
});

describe('a server that stops answering fails the run in about one --timeout (issue 18 §5)', () => {
  let proxy: MisbehavingProxy;
  afterAll(async () => proxy?.close());

  it('60 repositories behind a server that answers /version and then nothing: one line, within 2 × --timeout, and nothing sent after the first timeout', async () => {
    proxy = await startMisbehavingProxy(w.sandbox.url, (r) => (r.path === 'version' ? undefined : { type: 'stall' }));
    const timeout = 3;
    const r = await timed(['plan', '-c', w.config(config), '--timeout', String(timeout)], { FORGEFORM_URL: proxy.url });
    expect(r.code, r.stderr).toBe(1);
    // One error for the whole run, not one per repository.
    const errors = r.stderr.trim().split('\n').filter((l) => l !== 'Planning failed: nothing was changed.');
    expect(errors, r.stderr).toHaveLength(1);
    expect(r.stderr).toContain('Planning failed: nothing was changed.');
    expect(errors[0]).toContain(`${proxy.url} stopped answering: no answer in time to GET /api/v1/`);
    expect(errors[0]).toContain(`(nothing came from the server within ${timeout} s, --timeout), so nothing more is sent`);
    // The requests in flight when it stopped (at most --concurrency 8, after the two of the preflight); none after.
    const stalled = proxy.seen.filter((s) => s.did === 'stall' && s.path !== 'user');
    expect(stalled.length).toBeGreaterThan(0);
    expect(stalled.length).toBeLessThanOrEqual(8);
    // and the one question whether the server is alive (GET /user, at half the time limit), unanswered too.
    expect(proxy.seen.filter((s) => s.path === 'user')).toHaveLength(1);
    // Before: 2 × --timeout per batch of 8 (75 s for 60 repositories at --timeout 5).
    expect(r.seconds).toBeLessThan(2 * timeout);
  });
});

describe('credentials refused in the middle of the writes (issue 18)', () => {
  let proxy: MisbehavingProxy;
  afterAll(async () => proxy?.close());

  it('stop apply: the rest is not sent, and is reported as not started', async () => {
    const labels = Array.from({ length: 12 }, (_, i) => `new${String(i).padStart(2, '0')}`);
    const file = w.config(`version: 1\nrepos:\n  acme/r00:\n    labels:\n      bug: { color: ee0701 }\n${labels.map((l) => `      ${l}: { color: "00aa00" }\n`).join('')}`, 'revoked.yaml');
    let posts = 0;
    // The token is revoked after the third create: every request from then on is refused.
    proxy = await startMisbehavingProxy(w.sandbox.url, (r) => {
      if (r.method === 'POST' && r.path.endsWith('/labels')) posts++;
      return posts > 3 ? { type: 'status', status: 401, headers: { 'content-type': 'application/json' }, body: '{"message":"invalid username, password or token"}' } : undefined;
    });
    const r = await runCli(['apply', '--yes', '-c', file, '--concurrency', '1'], { env: { FORGEFORM_TOKEN: 'e2e-admin-token', FORGEFORM_URL: proxy.url }, cwd: w.dir });
    expect(r.code, r.stderr).toBe(1);
    const sent = proxy.seen.filter((s) => s.method === 'POST' && s.path.endsWith('/labels'));
    // Three creates done, the fourth refused; then one GET /user tells a revoked token from a route it may not use.
    expect(sent).toHaveLength(4);
    expect(proxy.seen.filter((s) => s.path === 'user')).toHaveLength(1);
    expect(r.stdout.match(/✓/g)).toHaveLength(3);
    expect(r.stdout).toContain('401 Unauthorized: invalid username, password or token');
    const skipped = r.stdout.split('\n').filter((l) => l.includes('refused the credentials (401 Unauthorized on GET /api/v1/user) after accepting them, so nothing more is sent'));
    expect(skipped, r.stdout).toHaveLength(8);
  });
});

describe('progress on every long read (issue 17 §6)', () => {
  let proxy: MisbehavingProxy;
  afterAll(async () => proxy?.close());

  it('a read that takes long prints a progress line off a terminal, though no scope finished in between', async () => {
    const file = w.config('version: 1\nrepos:\n  acme/r00:\n    labels:\n      bug: { color: ee0701 }\n', 'slow.yaml');
    proxy = await startMisbehavingProxy(w.sandbox.url, (r) =>
      r.path === 'repos/acme/r00/labels' ? { type: 'before', run: () => new Promise((resolve) => setTimeout(resolve, 6000)) } : undefined,
    );
    const r = await runCli(['plan', '-c', file, '--timeout', '10'], { env: { FORGEFORM_TOKEN: 'e2e-admin-token', FORGEFORM_URL: proxy.url }, cwd: w.dir });
    expect(r.code, r.stderr).toBe(0);
    // Every 5 s while reading (stderr is not a terminal here), with the requests sent so far.
    expect(r.stderr).toMatch(/^Reading the server: 0\/1 \(\d+ requests, 5\.\ds\)$/m);
    expect(r.stderr).toMatch(/^Reading the server: 1\/1 \(\d+\.\ds\)$/m);
  });
});
