/**
 * Reads a plan can do without: the requests the sandbox receives, for configurations where an
 * answer already read tells what another request would.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { calls, world, type World } from './helpers.js';

let w: World;
afterEach(async () => w?.sandbox.close());

const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [
    { name: 'acme', owners: ['root'], labels: [{ name: 'kind/bug', color: 'ee0701' }] },
    { name: 'solo', owners: ['root'] },
  ],
  repos: [
    { name: 'acme/widgets', labels: [{ name: 'bug', color: 'ee0701' }] },
    { name: 'acme/gadgets', labels: [{ name: 'bug', color: 'ee0701' }] },
  ],
};

describe('an organisation declared without owner', () => {
  it('is not looked up on its own when its repository list (a glob) already answered as an organisation', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
orgs:
  acme:
    labels:
      kind/bug: { color: ee0701 }
repos:
  "acme/*":
    labels:
      bug: { color: ee0701 }
`);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    const reads = calls(w.sandbox);
    expect(reads).toContain('GET orgs/acme/repos');
    expect(reads).not.toContain('GET orgs/acme');
  });

  it('one that does not exist is still named as missing, from the 404 of its repository list', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
orgs:
  ghost:
    labels:
      kind/bug: { color: ee0701 }
repos:
  "ghost/*":
    labels:
      bug: { color: ee0701 }
`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('organisation "ghost" does not exist on the server');
    expect(plan.stderr).toContain('forgeform.yaml:3:3');
    expect(calls(w.sandbox)).not.toContain('GET orgs/ghost');
  });

  it('without a glob of its repositories, one GET tells whether it exists (the one read that can say so with the config\'s place)', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
orgs:
  solo:
    labels:
      kind/bug: { color: ee0701 }
`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(0);
    expect(calls(w.sandbox).filter((c) => c === 'GET orgs/solo')).toHaveLength(1);
  });
});

describe('export of repositories with a pull mirror', () => {
  const mirrored = { ...seed, repos: [...seed.repos, { name: 'acme/upstream', mirror: { from: 'https://code.example.com/upstream.git', interval: '8h' } }] };
  /** How often each repository was read on its own (GET repos/OWNER/NAME). */
  const repoGets = (w: World) => calls(w.sandbox).filter((c) => /^GET repos\/[^/]+\/[^/]+$/.test(c)).sort();

  it('reads each repository once, whether named or found by listing its owner: the mirror is in the answer the settings read', async () => {
    w = await world(mirrored);
    const named = await w.cli(['export', '--include', 'acme/upstream', '--include', 'acme/widgets']);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toContain('mirror:\n      from: https://code.example.com/upstream.git\n      interval: 8h0m0s');
    expect(repoGets(w)).toEqual(['GET repos/acme/upstream', 'GET repos/acme/widgets']);
    w.sandbox.clearRequests();
    const all = await w.cli(['export']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain('mirror:\n      from: https://code.example.com/upstream.git');
    expect(repoGets(w)).toEqual(['GET repos/acme/gadgets', 'GET repos/acme/upstream', 'GET repos/acme/widgets']);
  });
});
