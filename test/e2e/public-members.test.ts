// Public organisation membership end to end: the built CLI against the sandbox, on every flavour (the routes are in every release).
import { afterEach, describe, expect, it } from 'vitest';
import { FLAVOURS } from '../../src/sandbox/flavours/flavour.js';
import type { SeedFile } from '../../src/sandbox/index.js';
import { rootAnd } from '../support/seeds.js';
import { applies, calls, exportRoundTrip, planExits, positionOf, writes, world, type World } from './helpers.js';

const seed: SeedFile = {
  users: rootAnd('alice', 'bob', 'carol', 'dave'),
  orgs: [{ name: 'acme', owners: ['root'], teams: [{ name: 'devs', permission: 'write', members: ['alice', 'bob'], repos: [] }], public_members: ['bob'] }],
};

const CONFIG = `version: 1
orgs:
  acme:
    teams:
      support:
        permission: read
        units: [repo.issues]
        members: [carol]                 # carol joins acme through this new team
    public_members: [alice, carol, root]
`;

let w: World;
afterEach(async () => w?.sandbox.close());

async function isPublic(w: World, user: string): Promise<boolean> {
  return (await w.api('GET', `orgs/acme/public_members/${user}`)).status === 204;
}

describe('public members end to end (gitea@1.26: site administrators change anyone)', () => {
  it('plans each member made public or private on its own line; apply sends one request each, after the team that brings a member in; the next plan is empty', async () => {
    w = await world(seed);
    const file = w.config(CONFIG);
    const plan = await planExits(w, file, 2);
    expect(plan.stdout).toMatch(/~ public members "acme"\n\s+~ members:\n\s+\+ "alice"\n\s+\+ "carol"\n\s+\+ "root"\n\s+- "bob"/);
    // The list answers a site administrator every member here: each one listed is asked about on its own.
    const reads = calls(w.sandbox).filter((c) => c.includes('members'));
    expect(reads.filter((c) => c === 'GET orgs/acme/public_members')).toHaveLength(1);
    expect(reads.filter((c) => /^GET orgs\/acme\/public_members\/\w+$/.test(c)).sort()).toEqual(['GET orgs/acme/public_members/alice', 'GET orgs/acme/public_members/bob', 'GET orgs/acme/public_members/root']);

    w.sandbox.clearRequests();
    await applies(w, file);
    const made = writes(w.sandbox).filter((c) => c.includes('public_members'));
    expect(made.sort()).toEqual(['DELETE orgs/acme/public_members/bob', 'PUT orgs/acme/public_members/alice', 'PUT orgs/acme/public_members/carol', 'PUT orgs/acme/public_members/root']);
    const team = positionOf(w.sandbox, 'PUT', /\/teams\/\d+\/members\/carol$/);
    expect(team).toBeGreaterThanOrEqual(0);
    expect(positionOf(w.sandbox, 'PUT', /\/public_members\/carol$/)).toBeGreaterThan(team);
    expect(await Promise.all(['alice', 'bob', 'carol', 'root', 'dave'].map((u) => isPublic(w, u)))).toEqual([true, false, true, true, false]);

    await planExits(w, file, 0);
  });

  it('applies a saved plan, the team first', async () => {
    w = await world(seed);
    const file = w.config(CONFIG);
    const saved = `${w.dir}/members.plan`;
    expect((await w.cli(['plan', '-c', file, '--out', saved])).code).toBe(0);
    const apply = await w.cli(['apply', saved]);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(await isPublic(w, 'carol')).toBe(true);
    await planExits(w, file, 0);
  });

  it('makes the owner of an organisation the plan creates public, after the create', async () => {
    w = await world(seed);
    const file = w.config('version: 1\norgs:\n  tools:\n    owner: alice\n    public_members: [alice]\n');
    const plan = await planExits(w, file, 2);
    expect(plan.stdout).toMatch(/\+ public members "tools"/);
    await applies(w, file);
    const made = writes(w.sandbox);
    expect(made.indexOf('PUT orgs/tools/public_members/alice')).toBeGreaterThan(made.indexOf('POST admin/users/alice/orgs'));
    expect((await w.api('GET', 'orgs/tools/public_members/alice')).status).toBe(204);
    await planExits(w, file, 0);
  });

  it('refuses a user who is no member at its place (the server would answer 204 and change nothing)', async () => {
    w = await world(seed);
    const file = w.config('version: 1\norgs:\n  acme:\n    public_members: [bob, dave]\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(1);
    expect(plan.stderr).toMatch(/forgeform\.yaml:4:27: public members "acme" in acme: user "dave" is not a member of acme \(the server answers 204 and changes nothing\)/);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('exports the public members, and the export plans no change', async () => {
    w = await world(seed);
    expect(await exportRoundTrip(w)).toMatch(/public_members:\n\s+- bob/);
  });
});

/** Releases where only the member themself may change their public membership (Gitea ≤ 1.23, every Forgejo). */
const SELF_ONLY = new Set(['gitea@1.21', 'gitea@1.22', 'gitea@1.23', 'forgejo@7', 'forgejo@11', 'forgejo@15']);

describe.each(FLAVOURS.map((f) => [f.name] as const))('public members on %s', (flavour) => {
  it("plan → apply → plan is empty for the token's own membership", async () => {
    w = await world(seed, { flavour });
    const file = w.config('version: 1\norgs:\n  acme:\n    public_members: [bob, root]\n');
    const plan = await planExits(w, file, 2);
    expect(plan.stdout).toMatch(/\+ "root"/);
    await applies(w, file);
    expect(writes(w.sandbox).filter((c) => c.includes('public_members'))).toEqual(['PUT orgs/acme/public_members/root']);
    await planExits(w, file, 0);
    expect(await isPublic(w, 'root')).toBe(true);
  });

  it(SELF_ONLY.has(flavour) ? "refuses to change another member's (the server allows only their own)" : "changes another member's (site administrators may)", async () => {
    w = await world(seed, { flavour });
    const file = w.config('version: 1\norgs:\n  acme:\n    public_members: [alice]\n');
    const plan = await w.cli(['plan', '-c', file]);
    if (SELF_ONLY.has(flavour)) {
      expect(plan.code, plan.stdout + plan.stderr).toBe(1);
      expect(plan.stderr).toMatch(/lets only "alice" change their own public membership \(403 "Cannot publicize another member"\), and the token is root's/);
      expect(plan.stderr).toMatch(/lets only "bob" change their own public membership \(403 "Cannot conceal another member"\)/);
      expect(writes(w.sandbox)).toEqual([]);
    } else {
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      await applies(w, file);
      expect([await isPublic(w, 'alice'), await isPublic(w, 'bob')]).toEqual([true, false]);
    }
  });
});
