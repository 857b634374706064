import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { applies, calls, planExits, world, type World } from './helpers.js';

/**
 * Values the plan would accept and the server then refuses or ignores (issue 27 item 1): each is a plan
 * error at its file:line:col, before anything is written.
 */

const seed: SeedFile = { users: [{ username: 'root', admin: true, email: 'root@example.com' }] };

function placeIn(yaml: string, text: string): string {
  const before = yaml.slice(0, yaml.indexOf(text)).split('\n');
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

describe('server-side value rules at plan time', () => {
  let w: World;
  beforeAll(async () => (w = await world(seed, { flavour: 'gitea@1.26' })));
  afterAll(async () => w.sandbox.close());

  it('an admin hook name with surrounding spaces is refused at its place (Gitea 1.26 trims it), nothing written', async () => {
    const yaml = `version: 1
hooks:
  - scope: system
    type: gitea
    url: https://ci.example/hook
    name: " deploy "
`;
    const file = w.config(yaml, 'hook.yaml');
    w.sandbox.clearRequests();
    const r = await planExits(w, file, 1);
    expect(r.stderr).toContain(`${file}:${placeIn(yaml, 'name:')}: name: " deploy " has surrounding spaces, which Gitea 1.26 trims`);
    expect(r.stderr).toContain('write it without the spaces');
    expect(calls(w.sandbox).filter((c) => !c.startsWith('GET'))).toEqual([]);
  });
});

describe('a team below admin given no unit is refused at plan time (the server 500s on create, keeps its units on edit)', () => {
  let w: World;
  const teamSeed: SeedFile = {
    users: [{ username: 'root', admin: true, email: 'root@example.com' }],
    orgs: [{ name: 'acme', owners: ['root'], teams: [{ name: 'devs', permission: 'write' }] }],
  };
  beforeAll(async () => (w = await world(teamSeed, { flavour: 'gitea@1.25' })));
  afterAll(async () => w.sandbox.close());

  it.each([
    ['units: []', 'units', 'new'],
    ['units_map: {}', 'units_map', 'new'],
    ['units_map: { repo.code: none, repo.issues: none }', 'units_map', 'new'],
    ['units: []', 'units', 'existing'],
    ['units_map: { repo.code: none }', 'units_map', 'existing'],
  ])('%s (%s, on a %s team): refused at its place naming the release and the source, nothing written', async (units, field, which) => {
    const name = which === 'new' ? 'ops' : 'devs';
    const yaml = `version: 1
orgs:
  acme:
    teams:
      ${name}:
        permission: write
        ${units}
`;
    const file = w.config(yaml, `team-${field}-${which}.yaml`);
    w.sandbox.clearRequests();
    const r = await planExits(w, file, 1);
    expect(r.stderr).toContain(`${file}:${placeIn(yaml, `${field}:`)}: ${field}: the team gets no unit above none, and Gitea 1.25.4 (v1.25.4 routers/api/v1/org/team.go:226 CreateTeam, :310–315 EditTeam) answers 500 "units permission should not be empty"`);
    expect(r.stderr).toContain('give it at least one unit at read or write');
    expect(calls(w.sandbox).filter((c) => !c.startsWith('GET'))).toEqual([]);
  });

  it('a team with one unit above none still plans and applies, and the next plan is empty', async () => {
    const file = w.config(`version: 1
orgs:
  acme:
    teams:
      ops:
        permission: write
        units_map: { repo.code: write, repo.issues: none }
`, 'team-ok.yaml');
    await planExits(w, file, 2);
    await applies(w, file);
    await planExits(w, file, 0);
  });
});

describe('a pull mirror interval under the server minimum is refused at plan time (MIN_INTERVAL, 10m by default)', () => {
  let w: World;
  const mirrorSeed: SeedFile = {
    users: [{ username: 'root', admin: true, email: 'root@example.com' }],
    orgs: [{ name: 'acme', owners: ['root'] }],
    repos: [{ name: 'acme/copy', mirror: { from: 'https://code.example.com/up/copy.git', interval: '8h' } }],
  };
  beforeAll(async () => (w = await world(mirrorSeed, { flavour: 'forgejo@11' })));
  afterAll(async () => w.sandbox.close());

  const mirrorYaml = (repo: string, interval: string, policy = '') => `version: 1
${policy}repos:
  ${repo}:
    mirror:
      from: https://code.example.com/up/copy.git
      interval: ${interval}
`;

  it.each([
    ['a new mirror', 'acme/fresh', '5m'],
    ['an existing mirror', 'acme/copy', '90s'],
  ])('%s with interval under 10m: refused at its place naming the release and the source, nothing written', async (_what, repo, interval) => {
    const yaml = mirrorYaml(repo, interval);
    const file = w.config(yaml, `mirror-${interval}.yaml`);
    w.sandbox.clearRequests();
    const r = await planExits(w, file, 1);
    expect(r.stderr).toContain(`${file}:${placeIn(yaml, 'interval:')}: repository "${repo}": interval: "${interval}" is below the minimum mirror interval 10m (policy.mirror_min_interval, the server's [mirror] MIN_INTERVAL: 10m unless app.ini sets it), which Forgejo 11.0.15 (v11.0.15 services/repository/migrate.go:210, routers/api/v1/repo/repo.go:1115) refuses`);
    expect(r.stderr).toContain('or 0 to turn the periodic sync off');
    expect(calls(w.sandbox).filter((c) => !c.startsWith('GET'))).toEqual([]);
  });

  it('0 (no periodic sync) and 10m are taken, and the next plan is empty', async () => {
    for (const interval of ['"0"', '10m']) {
      const file = w.config(mirrorYaml('acme/copy', interval), `mirror-ok-${interval}.yaml`);
      await planExits(w, file, 2);
      await applies(w, file);
      await planExits(w, file, 0);
    }
  });
});

describe('policy.mirror_min_interval: a server whose MIN_INTERVAL is lower takes a shorter interval', () => {
  let w: World;
  beforeAll(async () => (w = await world({ users: [{ username: 'root', admin: true, email: 'root@example.com' }], orgs: [{ name: 'acme', owners: ['root'] }], mirror: { min_interval: '2m' } }, { flavour: 'gitea@1.25' })));
  afterAll(async () => w.sandbox.close());

  it('with the policy at 2m a 5m mirror is created and converges; under 2m it is still refused', async () => {
    const yaml = (interval: string) => `version: 1
policy:
  mirror_min_interval: 2m
repos:
  acme/fresh:
    mirror:
      from: https://code.example.com/up/copy.git
      interval: ${interval}
`;
    const short = w.config(yaml('90s'), 'short.yaml');
    const refused = await planExits(w, short, 1);
    expect(refused.stderr).toContain('interval: "90s" is below the minimum mirror interval 2m (policy.mirror_min_interval');
    const file = w.config(yaml('5m'), 'five.yaml');
    await planExits(w, file, 2);
    await applies(w, file);
    await planExits(w, file, 0);
  });
});

describe('an organisation e-mail the server would refuse is refused at plan time (ValidateEmail)', () => {
  let w: World;
  beforeAll(async () => (w = await world({ users: [{ username: 'root', admin: true, email: 'root@example.com' }], orgs: [{ name: 'acme', owners: ['root'], email: 'team@acme.example' }] }, { flavour: 'gitea@1.25' })));
  afterAll(async () => w.sandbox.close());

  it.each([
    ['an existing organisation', 'acme', ''],
    ['a new organisation', 'neworg', '    owner: root\n'],
  ])('%s: refused at its place naming the release and the source, nothing written', async (_what, org, owner) => {
    const yaml = `version: 1
orgs:
  ${org}:
${owner}    email: not-an-email
`;
    const file = w.config(yaml, `org-${org}.yaml`);
    w.sandbox.clearRequests();
    const r = await planExits(w, file, 1);
    expect(r.stderr).toContain(`${file}:${placeIn(yaml, 'email:')}: organisation "${org}": email: "not-an-email" is not an e-mail address Gitea accepts`);
    expect(r.stderr).toContain('Gitea 1.25.4 refuses it (v1.25.4 routers/api/v1/org/org.go:382–386, services/user/email.go:22)');
    expect(calls(w.sandbox).filter((c) => !c.startsWith('GET'))).toEqual([]);
  });

  it('a valid e-mail still converges', async () => {
    const file = w.config('version: 1\norgs:\n  acme:\n    email: ops@acme.example\n', 'org-ok.yaml');
    await planExits(w, file, 2);
    await applies(w, file);
    await planExits(w, file, 0);
  });
});
