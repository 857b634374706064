/**
 * Plan says when an apply holds the server (issue 28 item 5): it reads the lock once (one GET, on the
 * request floor), and a lock held puts a warning in every format — text, markdown, JSON, and a saved
 * plan shown later (what the Action's PR comment renders) — that the diff may be half-applied. The
 * holder is printed only as parsed strictly: a record forgeform never writes is never echoed.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnCli, type World, world } from './helpers.js';

const base = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets' }],
};
const config = `version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: "ee0701" }\n`;
const at = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString().replace(/\.\d+Z$/, 'Z');
const record = (extra = '') => `Held by forgeform apply: user=ci host=build-7 pid=4242 since=${at(-30_000)} renewed=${at(-30_000)} id=abc123${extra}`;
const lockOrg = (description: string) => ({ name: 'forgeform-lock', owners: ['root'], visibility: 'private', description });
const NOTICE = /an apply held the server while this plan was made \(the apply lock "forgeform-lock": held by ci on host "build-7" \(pid 4242\) since \S+Z \(\d+ s ago, last renewed \d+ s ago\); lock id abc123\): the server may be half-applied, and this plan shows what is left; plan again once that apply has ended/;

let w: World;
afterEach(async () => w?.sandbox.close());

const lockReads = () => w.sandbox.requests().filter((r) => r.path.includes('forgeform-lock')).map((r) => `${r.method} ${r.path.replace(/^\/api\/v1\//, '')}`);

describe('plan while an apply holds the server', () => {
  it('says so in text, markdown and JSON, with the holder as parsed; one GET of the lock each, no other request to it', async () => {
    w = await world({ ...base, orgs: [...base.orgs, lockOrg(record())] });
    const file = w.config(config);
    const text = await w.cli(['plan', '-c', file]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`Warning: ${NOTICE.source}`));
    expect(lockReads()).toEqual(['GET orgs/forgeform-lock']);
    const md = await w.cli(['plan', '-c', file, '--format', 'markdown']);
    expect(md.stdout).toMatch(NOTICE);
    const json = await w.cli(['plan', '-c', file, '--format', 'json']);
    const warnings = (JSON.parse(json.stdout) as { warnings: string[] }).warnings;
    expect(warnings.some((x) => NOTICE.test(x))).toBe(true);
    expect(lockReads()).toEqual(['GET orgs/forgeform-lock', 'GET orgs/forgeform-lock', 'GET orgs/forgeform-lock']);
  });

  it('a saved plan keeps the notice: show renders it (the PR comment is rendered from the saved plan)', async () => {
    w = await world({ ...base, orgs: [...base.orgs, lockOrg(record())] });
    const out = `${w.dir}/plan.json`;
    expect((await w.cli(['plan', '-c', w.config(config), '--out', out])).code).toBe(0);
    expect((JSON.parse(readFileSync(out, 'utf8')) as { warnings: string[] }).warnings.some((x) => NOTICE.test(x))).toBe(true);
    for (const format of ['text', 'markdown'])
      expect((await w.cli(['show', out, '--format', format])).stdout).toMatch(NOTICE);
  });

  it('a record forgeform never writes is never echoed, and is no notice', async () => {
    w = await world({ ...base, orgs: [...base.orgs, lockOrg(`${record()} url=https://phish.example/run`), ] });
    const plan = await w.cli(['plan', '-c', w.config(config), '--format', 'markdown']);
    expect(plan.code).toBe(0);
    expect(plan.stdout + plan.stderr).not.toContain('phish');
    expect(plan.stdout).not.toMatch(/an apply held the server/);
  });

  it('no lock: no notice, and the one GET of the lock (a 404) is the only request beside the plan floor', async () => {
    w = await world(base);
    const plan = await w.cli(['plan', '-c', w.config(config)]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).not.toMatch(/apply held/);
    expect(lockReads()).toEqual(['GET orgs/forgeform-lock']);
    const withoutLock = w.sandbox.requests().filter((r) => !r.path.includes('forgeform-lock')).length;
    expect(plan.stderr).toContain(`${withoutLock + 1} requests.`);
  });

  it('a plan made while a real apply holds the lock (a process of the built CLI, stopped once it took the lock) says so', async () => {
    w = await world(base, { latencyMs: 100 });
    const file = w.config(config);
    const apply = spawnCli(['apply', '--yes', '-c', file], { env: w.env, cwd: w.dir });
    const took = () => w.sandbox.requests().some((r) => r.method === 'POST' && r.path === '/api/v1/orgs');
    for (let i = 0; i < 2000 && !took(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(took()).toBe(true);
    // Stopped (SIGSTOP) while it holds the lock, before its writes; continued once the plan is made.
    apply.child.kill('SIGSTOP');
    const plan = await w.cli(['plan', '-c', file]);
    apply.child.kill('SIGCONT');
    const done = await apply.done;
    expect(done.code, done.stderr).toBe(0);
    expect(plan.stdout).toMatch(/Warning: an apply held the server while this plan was made \(the apply lock "forgeform-lock": held by \S+ on host "[^"]+" \(pid \d+\) since/);
    expect(plan.stdout).toContain(`(pid ${apply.child.pid})`);
    expect(plan.stdout).toContain('+ label "bug"');
  });
});
