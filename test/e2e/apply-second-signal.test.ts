/**
 * A second signal during the writes (issue 28 items 5 and 7): apply stops at once, but still prints the
 * result lines of what was done and a closing line, gives the apply lock back, and exits 130/143; when
 * the lock cannot be given back it says so with the unlock command and exits 1. Real signals to a
 * process of the built CLI.
 */
import { describe, expect, it } from 'vitest';
import { lockCalls } from '../support/requests.js';
import { rootAndAcme } from '../support/seeds.js';
import { spawnCli } from './helpers.js';
import { proxiedWorlds, type ProxiedWorld } from './proxied-world.js';

const seed = rootAndAcme({ repos: [{ name: 'acme/widgets' }] });
const names = Array.from({ length: 6 }, (_, i) => `l${i}`);
const config = `version: 1\nrepos:\n  acme/widgets:\n    labels:\n${names.map((n) => `      ${n}: { color: "ee0701" }\n`).join('')}`;

const start = proxiedWorlds();
let w: ProxiedWorld;

const created = () => w.sandbox.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/labels')).length;

/** apply with one change at a time; SIGINT once the first label is created (the second in flight), and again at once. */
async function twoSignals(env: NodeJS.ProcessEnv = {}) {
  const run = spawnCli(['apply', '--yes', '--concurrency', '1', '-c', w.config(config)], { env: { ...w.env, ...env }, cwd: w.dir });
  for (let i = 0; i < 2000 && created() < 1; i++) await new Promise((r) => setTimeout(r, 5));
  expect(created()).toBe(1);
  run.child.kill('SIGINT');
  // Until the first signal is heard (its message), then the second.
  for (let i = 0; i < 2000 && !run.output().stderr.includes('SIGINT received'); i++) await new Promise((r) => setTimeout(r, 5));
  run.child.kill('SIGINT');
  return run.done;
}

describe('a second signal during the writes', () => {
  it('prints the result lines of what was done and a closing line, gives the lock back, exit 130', async () => {
    w = await start(seed, undefined, { latencyMs: 300 });
    const r = await twoSignals();
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('SIGINT again: stopping now, once the apply lock is given back.');
    // The first label's result line, though the process stopped before the batch of lines was due.
    expect(r.stdout).toMatch(/✓ .*label "l0"/);
    expect(r.stdout).toMatch(/Stopped by a second SIGINT: 1 change done, 0 failed, 5 not finished \(those in progress may be left incomplete\)\. Run apply again to finish\./);
    expect(r.stdout).not.toContain('Apply complete!');
    expect(lockCalls(w.sandbox).at(-1)).toBe('DELETE orgs/forgeform-lock');
    expect((await w.api('GET', 'orgs/forgeform-lock')).status).toBe(404);
  });

  it('a lock that cannot be given back: said with the unlock command, exit 1', async () => {
    w = await start(seed, (req) => (req.method === 'DELETE' && req.path === 'orgs/forgeform-lock' ? { type: 'status', status: 503, body: 'down' } : undefined), { latencyMs: 300 });
    const r = await twoSignals({ FORGEFORM_URL: w.proxy.url });
    expect(r.code).toBe(1);
    // The second signal may land while the writes stop or while the lock is given back: either way the done change is said.
    expect(r.stdout).toMatch(/(Stopped by a second|Interrupted by) SIGINT: 1 change done/);
    expect(r.stderr).toMatch(/error: could not give the apply lock back: .*503.*remove it with: forgeform unlock [0-9a-f]{12}/);
    expect((await w.api('GET', 'orgs/forgeform-lock')).status).toBe(200);
  });
});
