/**
 * An apply interrupted by SIGINT or SIGTERM starts nothing new, finishes what it started (every
 * request of a change: a user created is also given the edit that bars it from signing in), says
 * what was done and what was not, and exits 130 or 143. A second signal stops at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiUser } from '../support/api-types.js';
import { spawnCli, world, type CliResult, type World } from './helpers.js';

const NAMES = Array.from({ length: 16 }, (_, i) => `bot${String(i).padStart(2, '0')}`);
const config = `version: 1
users:
${NAMES.map((n) => `  ${n}:\n    email: ${n}@example.com\n    password: \${BOT_PASSWORD}\n    prohibit_login: true`).join('\n')}
`;
const seed = { users: [{ username: 'root', admin: true, email: 'root@example.com' }] };

let w: World;
afterEach(async () => w?.sandbox.close());

/** Starts `forgeform apply`, sends `signals` once the server has created the first user, and waits for the end. */
function applyInterrupted(signals: NodeJS.Signals[], file: string): Promise<CliResult> {
  const run = spawnCli(['apply', '--yes', '--concurrency', '2', '-c', file], { cwd: w.dir, env: { ...w.env, BOT_PASSWORD: 'a-long-bot-password-1' } });
  const poll = setInterval(() => {
    if (!w.sandbox.requests().some((r) => r.method === 'POST' && r.path === '/api/v1/admin/users')) return;
    clearInterval(poll);
    const [first, ...more] = signals;
    run.child.kill(first);
    // a second signal once the first one is acknowledged
    if (more.length) {
      const again = setInterval(() => {
        if (!run.output().stderr.includes('received')) return;
        clearInterval(again);
        for (const s of more) run.child.kill(s);
      }, 5);
    }
  }, 5);
  return run.done.finally(() => clearInterval(poll));
}

const bots = async () => (await w.api<ApiUser[]>('GET', 'admin/users?limit=50')).body.filter((u) => NAMES.includes(u.login));

describe('an interrupted apply', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s: no change is left half-made, the rest is not started, and apply again finishes the job', async (signal, code) => {
    w = await world(seed, { latencyMs: 100 });
    const file = w.config(config);
    const run = await applyInterrupted([signal], file);
    expect(run.code).toBe(code);
    expect(run.stderr).toContain(`${signal} received: finishing the changes in progress and starting no new one`);

    const created = await bots();
    // every user that was created also got its edit: none can sign in
    expect(created.filter((u) => !u.prohibit_login)).toEqual([]);
    expect(created.length).toBeGreaterThan(0);
    expect(created.length).toBeLessThan(NAMES.length);
    const notStarted = NAMES.filter((n) => !created.some((u) => u.login === n));
    for (const n of notStarted) expect(run.stdout).toContain(`○ + user "${n}" in server: skipped, not started: apply was interrupted`);
    for (const u of created) expect(run.stdout).toContain(`✓ + user "${u.login}" in server`);
    expect(run.stdout).toContain(`Interrupted by ${signal}: ${created.length} changes done, 0 failed, ${notStarted.length} not started. Run apply again to finish.`);

    const again = await w.cli(['apply', '--yes', '-c', file], { BOT_PASSWORD: 'a-long-bot-password-1' });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Apply complete! ${notStarted.length} created`);
    const all = await bots();
    expect(all).toHaveLength(NAMES.length);
    expect(all.every((u) => u.prohibit_login)).toBe(true);
  });

  it('a second signal stops at once (once the apply lock is given back: test/e2e/apply-second-signal.test.ts)', async () => {
    w = await world(seed, { latencyMs: 300 });
    const run = await applyInterrupted(['SIGINT', 'SIGINT'], w.config(config));
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('SIGINT again: stopping now, once the apply lock is given back. Changes in progress may be left incomplete; run apply again to finish them.');
    expect(run.stdout).toMatch(/Stopped by a second SIGINT: \d+ changes? done/);
    expect(run.stdout).not.toContain('Apply complete');
  });
});
