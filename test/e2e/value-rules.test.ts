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
