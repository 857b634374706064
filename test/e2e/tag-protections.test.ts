// Tag protections end to end: the built CLI against the sandbox, on every flavour that serves the routes.
import { afterEach, describe, expect, it } from 'vitest';
import { FLAVOURS } from '../../src/sandbox/flavours/flavour.js';
import type { SeedFile } from '../../src/sandbox/index.js';
import { rootAnd } from '../support/seeds.js';
import { applies, bodyOf, exportRoundTrip, planExits, positionOf, writes, world, type World } from './helpers.js';

const seed: SeedFile = {
  users: rootAnd('alice', 'bob', 'carol', 'dave'),
  orgs: [
    {
      name: 'acme',
      owners: ['root'],
      teams: [
        { name: 'devs', permission: 'write', members: ['alice', 'bob'], repos: ['widgets'] },
        { name: 'ops', permission: 'write', members: ['carol'], repos: ['widgets'] },
      ],
    },
  ],
  repos: [
    {
      name: 'acme/widgets',
      private: true,
      tag_protections: [
        { name_pattern: 'v*', whitelist_usernames: ['alice'] },
        { name_pattern: 'old-*', whitelist_teams: ['ops'] },
      ],
    },
  ],
};

interface ApiTagProtection {
  id: number;
  name_pattern: string;
  whitelist_usernames: string[];
  whitelist_teams: string[];
}

const CONFIG = `version: 1
policy:
  prune: [tag_protections]
orgs:
  acme:
    teams:
      releasers:
        permission: write
        units: [repo.code]
        members: [carol]
        repositories: [widgets]
repos:
  acme/widgets:
    tag_protections:
      "v*":
        whitelist_usernames: [alice, bob]
        whitelist_teams: [devs]
      "/^release-[0-9]+$/":
        whitelist_teams: [releasers]
`;

let w: World;
afterEach(async () => w?.sandbox.close());

async function protections(w: World): Promise<ApiTagProtection[]> {
  return (await w.api<ApiTagProtection[]>('GET', 'repos/acme/widgets/tag_protections')).body;
}

describe('tag protections end to end', () => {
  it('plans a create, a per-element change and a prune; apply sends the minimal requests; the next plan is empty', async () => {
    w = await world(seed);
    const file = w.config(CONFIG);
    const plan = await planExits(w, file, 2);
    const out = plan.stdout;
    expect(out).toMatch(/~ tag protection "v\*"\n\s+~ whitelist_usernames:\n\s+\+ "bob"\n\s+~ whitelist_teams:\n\s+\+ "devs"/);
    expect(out).toContain('+ tag protection "/^release-[0-9]+$/"');
    expect(out).toContain('- tag protection "old-*"');
    const ids = Object.fromEntries((await protections(w)).map((p) => [p.name_pattern, p.id]));

    w.sandbox.clearRequests();
    await applies(w, file);
    const made = writes(w.sandbox).filter((c) => c.includes('tag_protections'));
    expect(made.sort()).toEqual([`DELETE repos/acme/widgets/tag_protections/${ids['old-*']}`, `PATCH repos/acme/widgets/tag_protections/${ids['v*']}`, 'POST repos/acme/widgets/tag_protections'].sort());
    // The PATCH carries the lists that changed; the POST the pattern and its list.
    expect(bodyOf(w.sandbox, 'PATCH', `repos/acme/widgets/tag_protections/${ids['v*']}`)).toEqual({ whitelist_usernames: ['alice', 'bob'], whitelist_teams: ['devs'] });
    expect(bodyOf(w.sandbox, 'POST', 'repos/acme/widgets/tag_protections')).toEqual({ name_pattern: '/^release-[0-9]+$/', whitelist_teams: ['releasers'] });
    // The team is created before the protection that names it.
    const team = positionOf(w.sandbox, 'POST', /\/orgs\/acme\/teams$/);
    expect(team).toBeGreaterThanOrEqual(0);
    expect(positionOf(w.sandbox, 'POST', /\/tag_protections$/)).toBeGreaterThan(team);

    const after = await protections(w);
    expect(after.map((p) => [p.name_pattern, p.whitelist_usernames, p.whitelist_teams])).toEqual([
      ['v*', ['alice', 'bob'], ['devs']],
      ['/^release-[0-9]+$/', [], ['releasers']],
    ]);
    await planExits(w, file, 0);
  });

  it('renames a protection with previously: one PATCH of its id with the new pattern, no create, no delete', async () => {
    w = await world(seed);
    const file = w.config('version: 1\npolicy:\n  prune: [tag_protections]\nrepos:\n  acme/widgets:\n    tag_protections:\n      "release-*": { previously: ["v*"], whitelist_usernames: [alice, bob] }\n      "old-*": { whitelist_teams: [ops] }\n');
    const plan = await planExits(w, file, 2);
    expect(plan.stdout).toMatch(/> tag protection "v\*" → "release-\*"/);
    const id = (await protections(w)).find((p) => p.name_pattern === 'v*')!.id;
    w.sandbox.clearRequests();
    await applies(w, file);
    expect(writes(w.sandbox).filter((c) => c.includes('tag_protections'))).toEqual([`PATCH repos/acme/widgets/tag_protections/${id}`]);
    expect(bodyOf(w.sandbox, 'PATCH', `repos/acme/widgets/tag_protections/${id}`)).toEqual({ name_pattern: 'release-*', whitelist_usernames: ['alice', 'bob'] });
    expect((await protections(w)).find((p) => p.id === id)).toMatchObject({ name_pattern: 'release-*', whitelist_usernames: ['alice', 'bob'] });
    await planExits(w, file, 0);
  });

  it('without tag_protections in policy.prune an undeclared protection is kept', async () => {
    w = await world(seed);
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    tag_protections:\n      "v*": { whitelist_usernames: [alice] }\n');
    const plan = await planExits(w, file, 0);
    // Not deleted: kept, and the plan says so (issue 27).
    expect(plan.stdout).not.toMatch(/- tag protection "old-\*"/);
    expect(plan.stdout).toContain('add tag_protections to policy.prune to delete it ("old-*")');
  });

  it('refuses at their places: a broken pattern, a new protection naming nobody, unknown accounts, a user without access, teams on a user repository', async () => {
    w = await world({ ...seed, repos: [...seed.repos!, { name: 'alice/tools', private: true }] });
    const file = w.config(`version: 1
orgs:
  acme:
    teams:
      outsiders: { permission: read, units: [repo.code], repositories: [] }
repos:
  acme/widgets:
    tag_protections:
      "v[0-9": { whitelist_usernames: [alice] }
      "/(?=v)/": { whitelist_usernames: [alice] }
      "nobody-*": {}
      "x-*": { whitelist_usernames: [ghost], whitelist_teams: [phantoms] }
      "y-*": { whitelist_usernames: [dave] }
      "z-*": { whitelist_teams: [outsiders] }
  alice/tools:
    tag_protections:
      "v*": { whitelist_usernames: [alice], whitelist_teams: [devs] }
`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(1);
    const err = plan.stderr;
    expect(err).toContain('unclosed "["');
    expect(err).toContain('look-around');
    expect(err).toContain('tag protection "nobody-*" does not exist yet: name at least one user');
    expect(err).toContain('user "ghost" does not exist on the server');
    expect(err).toContain('team "phantoms" does not exist in organisation acme');
    expect(err).toContain('alice/tools is owned by a user, and Gitea ignores team lists there');
    // Stored but never answered: every plan would show them again.
    expect(err).toContain('user "dave" has no explicit access to acme/widgets (its permission is none)');
    expect(err).toContain('team "outsiders" does not have acme/widgets');
    expect(err).toMatch(/forgeform\.yaml:\d+:\d+/);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('exports the protections, and the export plans no change', async () => {
    w = await world(seed);
    const text = await exportRoundTrip(w);
    expect(text).toMatch(/v\*:\n\s+whitelist_usernames:\n\s+- alice/);
    expect(text).toMatch(/old-\*:\n\s+whitelist_teams:\n\s+- ops/);
  });
});

describe('hostile patterns on the server are printed inert', () => {
  // A repository administrator may store any pattern (the server never compiles it when saving).
  const HOSTILE = ['\u001b[1A\u001b[2K\r  ~ tag protection "v*" (cosmetic)', 'x\n+ tag protection "forged"', 'bidi \u202egnp \u200bzw'];
  // eslint-disable-next-line no-control-regex -- finding these characters is the point
  const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/;

  it('their deletion is one plan line each, with nothing raw', async () => {
    w = await world({ ...seed, repos: [{ name: 'acme/widgets', tag_protections: HOSTILE.map((name_pattern) => ({ name_pattern, whitelist_usernames: ['alice'] })) }] });
    const file = w.config('version: 1\npolicy: { prune: [tag_protections], max_deletes: 10, max_delete_fraction: 1 }\nrepos:\n  acme/widgets:\n    tag_protections: {}\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code, plan.stderr).toBe(0);
    for (const out of [plan.stdout, plan.stderr]) for (const l of out.split('\n')) expect(RAW.test(l), JSON.stringify(l)).toBe(false);
    expect(plan.stdout.split('\n').filter((l) => /^\s+- tag protection /.test(l))).toHaveLength(HOSTILE.length);
    expect(plan.stdout).not.toMatch(/^\s+\+ tag protection "forged"/m);
  });
});

const SERVES = new Set(['gitea@1.23', 'gitea@1.24', 'gitea@1.25', 'gitea@1.26', 'gitea@main', 'forgejo@11', 'forgejo@15']);
const FLAVOUR_CONFIG = `version: 1
repos:
  acme/widgets:
    tag_protections:
      "v*": { whitelist_usernames: [alice, bob], whitelist_teams: [devs] }
      "/^rc-/": { whitelist_teams: [ops] }
`;

describe.each(FLAVOURS.filter((f) => SERVES.has(f.name)).map((f) => [f.name] as const))('tag protections on %s', (flavour) => {
  it('plan → apply → plan is empty', async () => {
    w = await world({ ...seed, repos: [{ name: 'acme/widgets', private: true }] }, { flavour });
    const file = w.config(FLAVOUR_CONFIG);
    await planExits(w, file, 2);
    await applies(w, file);
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    await planExits(w, file, 0);
    expect((await protections(w)).map((p) => [p.name_pattern, p.whitelist_usernames, p.whitelist_teams]).sort()).toEqual([
      ['/^rc-/', [], ['ops']],
      ['v*', ['alice', 'bob'], ['devs']],
    ]);
  });
});

describe.each(FLAVOURS.filter((f) => !SERVES.has(f.name)).map((f) => [f.name] as const))('tag protections on %s', (flavour) => {
  it('are refused at their place before anything is read or written', async () => {
    w = await world({ ...seed, repos: [{ name: 'acme/widgets' }] }, { flavour });
    const file = w.config(FLAVOUR_CONFIG);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code, plan.stdout + plan.stderr).not.toBe(0);
    expect(plan.stderr).toMatch(/tag_protections need Gitea ≥ 1\.23 or Forgejo ≥ 8/);
    expect(plan.stderr).toMatch(/forgeform\.yaml:4:\d+/);
    expect(writes(w.sandbox)).toEqual([]);
  });
});
