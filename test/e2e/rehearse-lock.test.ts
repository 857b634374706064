/**
 * plan --rehearse while a live apply holds the server (issue 30 with issue 28's lock): the lock's organisation (its
 * default name, or policy.apply_lock's) is no object of the copy, the rehearsal neither waits for the lock nor takes
 * it (it writes to the copy only, the server gets the plan's reads and nothing else), and the output says that the
 * copy is of a server being changed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { calls, world, writes, type World } from './helpers.js';

const at = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString().replace(/\.\d+Z$/, 'Z');
const record = () => `Held by forgeform apply: user=ci host=build-7 pid=4242 since=${at(-30_000)} renewed=${at(-30_000)} id=abc123`;
const lockOrg = (name: string) => ({ name, owners: ['root'], visibility: 'private', description: record() });
const HELD = /Limit: an apply held the server \(the apply lock "([^"]+)"\) while the plan read it: the copy is of a server being changed, as the plan is; the rehearsal neither waited for that apply nor took the lock \(it writes to the copy only\)/;

let w: World | undefined;
afterEach(async () => w?.sandbox.close());

// orgs: makes the plan read the list of every organisation (the lock is in it), beside the lock's own GET.
const CONFIG = `version: 1
orgs:
  acme:
    description: "Acme, rehearsed"
    labels:
      org-bug: { color: "00ff00" }
repos:
  acme/widgets:
    labels:
      bug: { color: "ee0701" }
`;

describe.each([
  ['the default lock', 'forgeform-lock', ''],
  ['a lock named by policy.apply_lock', 'ops-lock', 'policy:\n  apply_lock: ops-lock\n'],
])('plan --rehearse while an apply holds %s', (_what, name, policy) => {
  it('rehearses without the lock in the copy, takes no lock, and says the copy is of a server being changed', { timeout: 60_000 }, async () => {
    w = await world({
      users: [{ username: 'root', admin: true, email: 'root@example.com' }],
      orgs: [{ name: 'acme', owners: ['root'] }, lockOrg(name)],
      repos: [{ name: 'acme/widgets' }],
    });
    const file = w.config(CONFIG + policy);
    const plain = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plain.code, plain.stdout + plain.stderr).toBe(2);
    expect(plain.stdout).toContain(`Warning: an apply held the server while this plan was made (the apply lock "${name}"`);
    const reads = calls(w.sandbox);
    w.sandbox.clearRequests();
    const r = await w.cli(['plan', '-c', file, '--rehearse', '--detailed-exitcode']);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stdout).toMatch(/Rehearsed on a copy of gitea [\d.]+: 3 changes applied, 0 failed; the plan after it is empty/);
    expect(r.stdout).toMatch(HELD);
    expect(HELD.exec(r.stdout)?.[1]).toBe(name);
    // Nothing of the lock is a finding or a limit of the copy's (its reads are no object to copy).
    expect(r.stdout).not.toMatch(new RegExp(`(Limit|Not rehearsed|Failed|Would not converge): .*${name}(?!")`));
    // The server: the plan's reads (one GET of the lock among them), no lock taken, nothing written.
    expect(calls(w.sandbox).sort()).toEqual([...reads].sort());
    expect(w.sandbox.requests().filter((q) => q.path.includes(name)).map((q) => `${q.method} ${q.path.replace(/^\/api\/v1\//, '')}`)).toEqual([`GET orgs/${name}`]);
    expect(writes(w.sandbox)).toEqual([]);
    // The lock is still the live apply's, as it was.
    const lock = await w.api<{ description: string }>('GET', `orgs/${name}`);
    expect(lock.body.description).toMatch(/^Held by forgeform apply: user=ci host=build-7 pid=4242 /);
  });
});

it('no apply holds the server: no such limit', { timeout: 60_000 }, async () => {
  w = await world({ users: [{ username: 'root', admin: true, email: 'root@example.com' }], orgs: [{ name: 'acme', owners: ['root'] }], repos: [{ name: 'acme/widgets' }] });
  const r = await w.cli(['plan', '-c', w.config(CONFIG), '--rehearse', '--detailed-exitcode']);
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.stdout).toMatch(/Rehearsed on a copy of gitea [\d.]+: 3 changes applied, 0 failed; the plan after it is empty/);
  expect(r.stdout).not.toMatch(/an apply held the server/);
});
