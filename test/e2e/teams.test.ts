import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FLAVOURS } from '../../src/sandbox/flavours/flavour.js';
import { loadSeedFile, type SeedFile } from '../../src/sandbox/index.js';
import { rootAnd } from '../support/seeds.js';
import { calls, writes, world, type World } from './helpers.js';

const seed: SeedFile = {
  users: rootAnd('olga', 'alice', 'bob', 'carol'),
  orgs: [
    {
      name: 'acme',
      owners: ['root'],
      teams: [
        { name: 'devs', permission: 'write', members: ['alice', 'carol'], repos: ['widgets'] },
        { name: 'interns', permission: 'read', members: ['bob'], repos: [] },
      ],
    },
  ],
  repos: [{ name: 'acme/widgets' }, { name: 'acme/gadgets' }],
};

const CONFIG = `version: 1
policy:
  prune: [teams]
orgs:
  acme:
    teams:
      Owners:
        members: [root, olga]
      developers:
        previously: [devs]
        description: People who write the code
        permission: write
        units: [repo.code, repo.pulls, repo.issues]
        members: [alice, bob]
        repositories: [widgets, gadgets]
      reviewers:
        units_map: { repo.code: read, repo.pulls: write }
        includes_all_repositories: true
        members: [carol]
      platform:
        permission: admin
        can_create_org_repo: true
        members: [olga]
`;

interface ApiTeam {
  id: number;
  name: string;
  permission: string;
  units_map: Record<string, string>;
  includes_all_repositories: boolean;
  can_create_org_repo: boolean;
}

let w: World;
afterEach(async () => w?.sandbox.close());

async function teams(w: World): Promise<ApiTeam[]> {
  return (await w.api<ApiTeam[]>('GET', 'orgs/acme/teams?limit=50')).body;
}
async function namesOf(w: World, team: string, list: 'members' | 'repos'): Promise<string[]> {
  const t = (await teams(w)).find((x) => x.name === team)!;
  const body = (await w.api<{ login?: string; name?: string }[]>('GET', `teams/${t.id}/${list}?limit=50&page=1`)).body;
  return body.map((x) => String(x.login ?? x.name)).sort();
}

describe('teams end to end', () => {
  it('plans a rename, set changes per element, creates and a prune; apply makes one request per element; the next plan is empty', async () => {
    w = await world(seed);
    const file = w.config(CONFIG);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(2);
    const out = plan.stdout;
    expect(out).toContain('# org:acme');
    expect(out).toMatch(/> team "devs" → "developers"/);
    // Each member and repository added or removed on its own line.
    expect(out).toMatch(/~ members:\n\s+\+ "bob"\n\s+- "carol"/);
    expect(out).toMatch(/~ repositories:\n\s+\+ "gadgets"\n/);
    expect(out).toMatch(/~ team "Owners"\n\s+~ members:\n\s+\+ "olga"\n/);
    expect(out).toContain('+ team "reviewers"');
    expect(out).toContain('+ team "platform"');
    expect(out).toContain('- team "interns"');
    // One list of teams; members and repositories only of the declared teams that declare them.
    const reads = calls(w.sandbox).filter((c) => c.includes('teams'));
    expect(reads.filter((c) => c === 'GET orgs/acme/teams?limit=50&page=1' || c.startsWith('GET orgs/acme/teams'))).toHaveLength(1);
    const ids = Object.fromEntries((await teams(w)).map((t) => [t.name, t.id]));
    const lists = reads.filter((c) => c.startsWith('GET teams/')).map((c) => c.replace(/\?.*/, '')).sort();
    expect(lists).toEqual([`GET teams/${ids.devs}/members`, `GET teams/${ids.devs}/repos`, `GET teams/${ids.Owners}/members`].sort());

    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const made = writes(w.sandbox);
    expect(made).toEqual(
      expect.arrayContaining([
        `PATCH teams/${ids.devs}`,
        `PUT teams/${ids.devs}/members/bob`,
        `DELETE teams/${ids.devs}/members/carol`,
        `PUT teams/${ids.devs}/repos/acme/gadgets`,
        `PUT teams/${ids.Owners}/members/olga`,
        `DELETE teams/${ids.interns}`,
        'POST orgs/acme/teams',
      ]),
    );
    // Nothing for what is already right: alice in developers, widgets in developers, root in Owners.
    expect(made.filter((c) => /members\/(alice|root)$|repos\/acme\/widgets$/.test(c))).toEqual([]);

    expect(await namesOf(w, 'developers', 'members')).toEqual(['alice', 'bob']);
    expect(await namesOf(w, 'developers', 'repos')).toEqual(['gadgets', 'widgets']);
    expect(await namesOf(w, 'Owners', 'members')).toEqual(['olga', 'root']);
    expect(await namesOf(w, 'reviewers', 'repos')).toEqual(['gadgets', 'widgets']);
    const after = await teams(w);
    expect(after.map((t) => t.name).sort()).toEqual(['Owners', 'developers', 'platform', 'reviewers']);
    expect(after.find((t) => t.name === 'reviewers')!.units_map).toEqual({ 'repo.code': 'read', 'repo.pulls': 'write' });

    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('No changes');
  });

  it('applies a saved plan of member, repository and field changes exactly, and refuses it once applied', async () => {
    w = await world(seed);
    const file = w.config(CONFIG);
    const saved = `${w.dir}/teams.plan`;
    const plan = await w.cli(['plan', '-c', file, '--out', saved]);
    expect(plan.code, plan.stderr).toBe(0);
    const apply = await w.cli(['apply', saved]);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(await namesOf(w, 'developers', 'members')).toEqual(['alice', 'bob']);
    expect((await w.cli(['plan', '-c', file, '--detailed-exitcode'])).code).toBe(0);
    // Applied again, its creates and renames find their names taken: refused, nothing written twice.
    w.sandbox.clearRequests();
    const again = await w.cli(['apply', saved]);
    expect(again.code).not.toBe(0);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('keeps the Owners team out of a prune, with a warning', async () => {
    w = await world(seed);
    const file = w.config('version: 1\npolicy:\n  prune: [teams]\norgs:\n  acme:\n    teams:\n      devs: { permission: write, units: [repo.code] }\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('- team "interns"');
    expect(plan.stdout).not.toContain('- team "Owners"');
    expect(plan.stdout + plan.stderr).toMatch(/Owners team is never deleted/);
  });
});

describe('branch protections name teams', () => {
  it('a team the plan creates is made before the protection that names it; one list of teams serves both kinds', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
orgs:
  acme:
    teams:
      platform:
        permission: admin
        members: [olga]
        repositories: [widgets]   # a team without access to the repository is dropped from the rule (as Gitea does)
repos:
  acme/widgets:
    branch_protections:
      main:
        enable_push: true
        enable_push_whitelist: true
        push_whitelist_teams: [platform, devs]
`);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(calls(w.sandbox).filter((c) => c.startsWith('GET orgs/acme/teams'))).toHaveLength(1);
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const requests = w.sandbox.requests();
    const createTeam = requests.findIndex((r) => r.method === 'POST' && r.path.endsWith('/orgs/acme/teams'));
    const protection = requests.findIndex((r) => r.method === 'POST' && r.path.endsWith('/branch_protections'));
    expect(createTeam).toBeGreaterThanOrEqual(0);
    expect(protection).toBeGreaterThan(createTeam);
    const rule = (await w.api<{ push_whitelist_teams: string[] }>('GET', 'repos/acme/widgets/branch_protections/main')).body;
    expect([...rule.push_whitelist_teams].sort()).toEqual(['devs', 'platform']);
    expect((await w.cli(['plan', '-c', file, '--detailed-exitcode'])).code).toBe(0);
  });

  it('a team named by a protection that neither the server nor the plan has is still an error at its place', async () => {
    w = await world(seed);
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    branch_protections:\n      main: { enable_push: true, enable_push_whitelist: true, push_whitelist_teams: [ghosts] }\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('team "ghosts" does not exist in organisation acme');
  });
});

describe('the Owners team guards refuse with exit 3 and change nothing', () => {
  const cases: [string, string, RegExp][] = [
    ['removing its last member', 'Owners: { members: [] }', /last member/],
    ["removing the token's own user", 'Owners: { members: [olga] }', /token's own user is never removed/],
    ['renaming it', 'Bosses: { previously: [Owners] }', /never renamed/],
  ];
  for (const [what, team, message] of cases) {
    it(what, async () => {
      w = await world({ ...seed, orgs: [{ name: 'acme', owners: ['root', 'olga'] }] });
      const file = w.config(`version: 1\norgs:\n  acme:\n    teams:\n      ${team}\n`);
      const plan = await w.cli(['plan', '-c', file]);
      expect(plan.code, plan.stdout + plan.stderr).toBe(3);
      expect(plan.stdout + plan.stderr).toMatch(message);
      w.sandbox.clearRequests();
      const apply = await w.cli(['apply', '-c', file, '--yes']);
      expect(apply.code).toBe(3);
      expect(writes(w.sandbox)).toEqual([]);
    });
  }
});

describe('the teams example', () => {
  it('plans, applies, and then plans no changes (examples/teams)', async () => {
    const dir = fileURLToPath(new URL('../../examples/teams/', import.meta.url));
    w = await world(loadSeedFile(`${dir}seed.yaml`));
    const file = `${dir}forgeform.yaml`;
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stdout).toContain('- team "interns"');
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
  });
});

describe('export of teams', () => {
  it('exports every team with its members and repositories, and the export plans no change', async () => {
    w = await world(seed);
    const out = `${w.dir}/exported.yaml`;
    const exported = await w.cli(['export', '-o', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/teams:/);
    for (const name of ['devs:', 'interns:', 'Owners:']) expect(text).toContain(name);
    w.sandbox.clearRequests();
    const plan = await w.cli(['plan', '-c', out, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(writes(w.sandbox)).toEqual([]);
  });
});

// Every flavour serves the team routes (Gitea 1.21 on, Forgejo 7 on): plan → apply → plan is empty on each.
const FLAVOUR_CONFIG = `version: 1
orgs:
  acme:
    teams:
      developers:
        previously: [devs]
        permission: write
        units: [repo.code, repo.pulls]
        members: [alice, bob]
        repositories: [gadgets]
      leads:
        permission: admin
        members: [olga]
      readers:
        units_map: { repo.code: read, repo.wiki: none }
        includes_all_repositories: true
`;

describe.each(FLAVOURS.map((f) => [f.name] as const))('teams on %s', (flavour) => {
  it('plan → apply → plan is empty', async () => {
    w = await world(seed, { flavour });
    const file = w.config(FLAVOUR_CONFIG);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
    expect(await namesOf(w, 'developers', 'members')).toEqual(['alice', 'bob']);
  });
});
