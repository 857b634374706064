/**
 * apply's lock is given back on every exit path (issue 28, src/cli/lock-guard.ts): SIGINT or SIGTERM
 * while the lock is being taken, while the server is read, after the writes (the duplicate check) and
 * while the lock is given back all end with the lock gone; a release that fails after the client's
 * retries is an error naming `forgeform unlock ID`, never "Apply complete!" with exit 0.
 */
import { describe, expect, it } from 'vitest';
import { lockCalls } from '../support/requests.js';
import { spawnCli } from './helpers.js';
import { proxiedWorlds, type ProxiedWorld } from './proxied-world.js';

const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets' }],
};
const config = `version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: "ee0701" }\n`;

const start = proxiedWorlds();
let w: ProxiedWorld;

const lockStatus = async () => (await w.api('GET', 'orgs/forgeform-lock')).status;
const logged = () => w.sandbox.requests().map((r) => `${r.method} ${r.path.replace(/^\/api\/v1\//, '')}`);

/**
 * Starts an apply, sends `signal` once the sandbox has answered the `nth` request matching `when` (its
 * log records a request as it answers; with 300 ms of latency the next request is then in flight), and
 * waits for its end.
 */
async function signalledAt(when: (request: string) => boolean, signal: NodeJS.Signals, nth = 1) {
  const run = spawnCli(['apply', '--yes', '-c', w.config(config)], { env: w.env, cwd: w.dir });
  for (let i = 0; i < 1000 && logged().filter(when).length < nth; i++) await new Promise((r) => setTimeout(r, 5));
  expect(logged().filter(when).length).toBeGreaterThanOrEqual(nth);
  run.child.kill(signal);
  return run.done;
}

describe('a signal in any phase gives the lock back', () => {
  const phases: [string, (r: string) => boolean, number][] = [
    // The preflight answered: POST orgs in flight.
    ['while the lock is being taken', (r) => r.endsWith('forgejo/v1/version'), 1],
    // The lock taken: the label list in flight.
    ['while the server is read', (r) => r === 'POST orgs', 1],
    // The label created: its re-read in flight.
    ['while the duplicates are looked for, after the writes', (r) => r === 'POST repos/acme/widgets/labels', 1],
  ];
  for (const [phase, when, nth] of phases)
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      it(`${signal} ${phase}: exit ${signal === 'SIGINT' ? 130 : 143}, the lock removed`, async () => {
        w = await start(seed, undefined, { latencyMs: 300 });
        const r = await signalledAt(when, signal, nth);
        expect(r.stderr).toContain(`${signal} received: stopping once the apply lock is given back.`);
        expect(r.code).toBe(signal === 'SIGINT' ? 130 : 143);
        expect(lockCalls(w.sandbox).at(-1)).toBe('DELETE orgs/forgeform-lock');
        expect(await lockStatus()).toBe(404);
      });

  it('SIGINT while the lock is given back: the release finishes, the lock is gone', async () => {
    w = await start(seed, undefined, { latencyMs: 300 });
    // The re-read answered: the release's read of the lock in flight.
    const r = await signalledAt((c) => c === 'GET repos/acme/widgets/labels', 'SIGINT', 2);
    expect(r.stdout).toContain('Apply complete!');
    expect(r.code).toBe(130);
    expect(lockCalls(w.sandbox).at(-1)).toBe('DELETE orgs/forgeform-lock');
    expect(await lockStatus()).toBe(404);
  });
});

describe('a release that fails', () => {
  it('is exit 1 with the error and the unlock command (not exit 0): the lock is left for `forgeform unlock ID` to remove', async () => {
    w = await start(seed, (req) => (req.method === 'DELETE' && req.path === 'orgs/forgeform-lock' ? { type: 'status', status: 503, body: 'down' } : undefined));
    const apply = await w.viaProxy(['apply', '--yes', '-c', w.config(config)]);
    expect(apply.stdout).toContain('Apply complete!');
    expect(apply.code).toBe(1);
    const id = /forgeform unlock ([0-9a-f]{12})/.exec(apply.stderr)?.[1];
    expect(apply.stderr).toMatch(/error: could not give the apply lock back: .*503.*Other applies are refused until it is removed \(or for 10 min\): remove it with: forgeform unlock [0-9a-f]{12}/);
    expect(await lockStatus()).toBe(200);
    const unlock = await w.cli(['unlock', id ?? '']);
    expect(unlock.code).toBe(0);
    expect(await lockStatus()).toBe(404);
  });
});
