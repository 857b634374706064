/**
 * One apply at a time on a server (issue 18 §1): apply takes a lock (the organisation
 * forgeform-lock, src/lock/lock.ts) before its first read and gives it back at its end, on
 * SIGINT/SIGTERM too. A second apply exits 1 naming the holder, or waits with --lock-timeout.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiLabel } from '../support/api-types.js';
import { lockCalls } from '../support/requests.js';
import { rootAndAcme, widgetsLabelsConfig } from '../support/seeds.js';
import { calls, spawnCli, type World, world } from './helpers.js';

const NAMES = Array.from({ length: 20 }, (_, i) => `area/${String(i).padStart(2, '0')}`);
const HOOKS = ['https://ci.example.com/a', 'https://ci.example.com/b', 'https://ci.example.com/c'];
const seed = rootAndAcme({ repos: [{ name: 'acme/widgets' }] });
const config = `${widgetsLabelsConfig(NAMES.map((name) => ({ name, color: '00aa00' })))}hooks:
${HOOKS.map((u) => `  - { url: "${u}", type: gitea, events: [push] }`).join('\n')}
`;

let w: World;
afterEach(async () => w?.sandbox.close());

const serverLabels = async () => (await w.api<ApiLabel[]>('GET', 'repos/acme/widgets/labels?limit=50')).body.map((l) => l.name);
const serverHooks = async () => (await w.api<{ config: { url: string } }[]>('GET', 'admin/hooks?type=system&limit=50')).body.map((h) => h.config.url);
const duplicates = (names: string[]) => names.filter((n, i) => names.indexOf(n) !== i);
const lockStatus = async () => (await w.api('GET', 'orgs/forgeform-lock')).status;
/** Three applies started at the same moment, each a process of the built CLI. */
const threeAtOnce = (extra: string[] = []) => {
  const file = w.config(config);
  return Promise.all([0, 1, 2].map(() => spawnCli(['apply', '--yes', '-c', file, ...extra], { env: w.env, cwd: w.dir }).done));
};
/** A time as forgeform records it: whole seconds (the record is parsed strictly). */
const nowSeconds = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString().replace(/\.\d+Z$/, 'Z');
const lockBody = (renewed: string, id = 'abc123') => ({
  username: 'forgeform-lock',
  visibility: 'private',
  description: `Held by forgeform apply: user=ci host=build-7 pid=4242 since=${renewed} renewed=${renewed} id=${id}`,
});

describe('the apply lock', () => {
  it('3 applies started at the same moment leave 0 duplicates: one applies, the others exit 1 naming who holds the server', async () => {
    w = await world(seed, { latencyMs: 15 });
    const runs = await threeAtOnce();
    const labels = await serverLabels();
    const hooks = await serverHooks();
    console.log(`3 applies at once: exit codes ${runs.map((r) => r.code).join(', ')}; ${duplicates(labels).length} duplicate labels, ${duplicates(hooks).length} duplicate hooks`);
    expect(duplicates(labels)).toEqual([]);
    expect(duplicates(hooks)).toEqual([]);
    expect(labels.sort()).toEqual(NAMES);
    expect(hooks.sort()).toEqual(HOOKS);
    expect(runs.filter((r) => r.code === 0).length).toBeGreaterThanOrEqual(1);
    for (const r of runs.filter((r) => r.code !== 0)) {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/another apply holds the server: held by \S+ on host "[^"]+" \(pid \d+\) since \S+Z .*; lock id [0-9a-f]{12}\. Nothing was changed\./);
      expect(r.stderr).toMatch(/forgeform unlock [0-9a-f]{12}/);
    }
    // Each run that applied created each object once; the lock is gone.
    expect(calls(w.sandbox).filter((c) => c === 'POST repos/acme/widgets/labels')).toHaveLength(20);
    expect(await lockStatus()).toBe(404);
    const plan = await w.cli(['plan', '-c', `${w.dir}/forgeform.yaml`]);
    expect(plan.stdout).toContain('No changes');
  });

  it('with --lock-timeout the 3 applies wait for each other: all exit 0, and 0 duplicates', async () => {
    w = await world(seed, { latencyMs: 15 });
    const runs = await threeAtOnce(['--lock-timeout', '2m']);
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(duplicates(await serverLabels())).toEqual([]);
    expect(duplicates(await serverHooks())).toEqual([]);
    expect(runs.some((r) => r.stderr.includes('Waiting for the apply lock (--lock-timeout 2m): held by'))).toBe(true);
    expect(await lockStatus()).toBe(404);
  });

  it('plan takes no lock and never shows the lock as an object (only the notice that an apply holds the server); a held lock does not stop it', async () => {
    w = await world(seed);
    expect((await w.api('POST', 'orgs', lockBody(nowSeconds()))).status).toBe(201);
    const file = w.config(`version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: "ee0701" }\norgs:\n  acme: {}\n`);
    const before = lockCalls(w.sandbox).length; // the test's own create
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).not.toMatch(/organisation "forgeform-lock"/);
    expect(plan.stdout).toContain('Warning: an apply held the server while this plan was made (the apply lock "forgeform-lock": held by ci on host "build-7"');
    // Its one read of the lock, and no write.
    expect(lockCalls(w.sandbox).slice(before)).toEqual(['GET orgs/forgeform-lock']);
    const exported = await w.cli(['export']);
    expect(exported.stdout).not.toContain('forgeform-lock');
  });

  it('a held lock: apply exits 1 at once, writing nothing; unlock needs the lock id; then apply runs', async () => {
    w = await world(seed);
    expect((await w.api('POST', 'orgs', lockBody(nowSeconds()))).status).toBe(201);
    const file = w.config(`version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: "ee0701" }\n`);
    const apply = await w.cli(['apply', '--yes', '-c', file]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('another apply holds the server: held by ci on host "build-7" (pid 4242) since');
    expect(apply.stderr).toContain('remove the lock with: forgeform unlock abc123');
    expect(calls(w.sandbox).filter((c) => !c.startsWith('GET'))).toEqual([]);

    const show = await w.cli(['unlock']);
    expect(show.code).toBe(1);
    expect(show.stdout).toContain('The server is locked: held by ci on host "build-7"');
    const wrong = await w.cli(['unlock', 'fff000']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("the lock's id is abc123, not fff000");
    expect(await lockStatus()).toBe(200);
    const unlock = await w.cli(['unlock', 'abc123']);
    expect(unlock.code).toBe(0);
    expect(unlock.stdout).toContain('Removed the apply lock held by ci');
    expect(await lockStatus()).toBe(404);
    expect((await w.cli(['apply', '--yes', '-c', file])).code).toBe(0);
  });

  it('a lock not renewed for longer than --lock-stale is taken over, with a warning', async () => {
    w = await world(seed);
    expect((await w.api('POST', 'orgs', lockBody('2026-01-01T00:00:00Z'))).status).toBe(201);
    const file = w.config(`version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: "ee0701" }\n`);
    const apply = await w.cli(['apply', '--yes', '-c', file]);
    expect(apply.code).toBe(0);
    expect(apply.stderr).toMatch(/warning: the apply lock held by ci on host "build-7" \(pid 4242\) since 2026-01-01T00:00:00Z .* is stale \(not renewed for over 10 min by the server's clock\): taking it over/);
    expect(await lockStatus()).toBe(404);
  });

  it('an organisation of that name that is not a lock is left alone: apply says so', async () => {
    w = await world(seed);
    expect((await w.api('POST', 'orgs', { username: 'forgeform-lock', description: 'ours, by hand' })).status).toBe(201);
    const apply = await w.cli(['apply', '--yes', '-c', w.config('version: 1\n')]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('an organisation named "forgeform-lock" exists that is not forgeform\'s apply lock');
    expect(await lockStatus()).toBe(200);
  });

  it('SIGINT during the writes: apply ends as usual and gives the lock back', async () => {
    w = await world(seed, { latencyMs: 40 });
    const run = spawnCli(['apply', '--yes', '--concurrency', '1', '-c', w.config(config)], { env: w.env, cwd: w.dir });
    for (let i = 0; i < 500 && !run.output().stdout.includes('✓'); i++) await new Promise((r) => setTimeout(r, 10));
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.code).toBe(130);
    expect(r.stdout).toContain('Interrupted by SIGINT');
    expect(lockCalls(w.sandbox)[0]).toBe('POST orgs');
    expect(lockCalls(w.sandbox).at(-1)).toBe('DELETE orgs/forgeform-lock');
    expect(await lockStatus()).toBe(404);
  });
});
