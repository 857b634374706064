// Issue 27: references to server objects resolved when the plan is made. Each was accepted and then failed
// at apply (a team member or repository that does not exist: 404 half way through) or never converged
// (a default branch that does not exist: Gitea answers 200 and keeps the old one; a push mirror on an
// archived repository: 423). Each is refused at its place now, or converges.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestsTo, writes, world, type World } from './helpers.js';
import { rootAnd } from '../support/seeds.js';

const seed = {
  users: rootAnd('alice', 'bob'),
  orgs: [{ name: 'acme', owners: ['root'], teams: [{ name: 'devs', permission: 'write', members: ['alice'], repos: ['widgets'] }] }],
  repos: [
    { name: 'acme/widgets', branches: ['main', 'develop'] },
    { name: 'acme/blank', empty: true, branches: [] },
    { name: 'acme/attic', archived: true },
  ],
};

let w: World;
beforeAll(async () => {
  w = await world(seed);
});
afterAll(async () => w?.sandbox.close());

/** The plan's located lines, and that it changed nothing. */
async function refused(yaml: string, name: string): Promise<{ file: string; lines: string[] }> {
  const before = writes(w.sandbox).length;
  const file = w.config(yaml, name);
  const r = await w.cli(['plan', '-c', file]);
  expect(r.code, r.stdout).toBe(1);
  expect(writes(w.sandbox).length).toBe(before);
  return { file, lines: r.stderr.split('\n').filter((l) => l.startsWith(file)) };
}

async function converges(yaml: string, name: string): Promise<string> {
  const file = w.config(yaml, name);
  const plan = await w.cli(['plan', '-c', file]);
  expect(plan.code, plan.stderr).toBe(0);
  const apply = await w.cli(['apply', '-c', file, '-y']);
  expect(apply.code, apply.stdout + apply.stderr).toBe(0);
  expect(apply.stdout).not.toContain('did not take');
  const again = await w.cli(['plan', '-c', file]);
  expect(again.stdout).toContain('No changes. The server matches the configuration.');
  return plan.stdout;
}

describe('team members and repositories', () => {
  it('refuses a member and a repository that do not exist, each at its place in the list', async () => {
    const { file, lines } = await refused(
      'version: 1\norgs:\n  acme:\n    teams:\n      devs:\n        permission: write\n        units: [repo.code]\n        members: [alice, ghost]\n        repositories: [widgets, nothere]\n',
      'team-refs.yaml',
    );
    expect(lines).toEqual([
      `${file}:8:26: team "devs" in acme: members: user "ghost" does not exist on the server, and this configuration does not create it (Gitea would refuse to add it)`,
      `${file}:9:33: team "devs" in acme: repositories: repository "nothere" does not exist in organisation acme, and this configuration does not create it (Gitea would refuse to add it)`,
    ]);
  });

  it('takes a member who exists and a repository the same plan creates', async () => {
    const plan = await converges(
      'version: 1\norgs:\n  acme:\n    teams:\n      devs:\n        permission: write\n        units: [repo.code]\n        members: [alice, bob]\n        repositories: [widgets, tools]\nrepos:\n  acme/tools:\n    create: {}\n',
      'team-ok.yaml',
    );
    expect(plan).toContain('+ repository "acme/tools"');
    expect(plan).toContain('+ "bob"');
  });
});

describe('default_branch', () => {
  it('refuses a branch the repository does not have, at the field', async () => {
    const { file, lines } = await refused('version: 1\nrepos:\n  acme/widgets:\n    settings: { default_branch: nope }\n', 'branch-missing.yaml');
    expect(lines).toEqual([
      `${file}:4:17: repository settings "acme/widgets" in acme/widgets: default_branch: acme/widgets has no branch "nope"; Gitea changes the default branch only to a branch that exists (it answers 200 and keeps the old one). Push the branch first, or name one that exists`,
    ]);
  });

  it('changes it to a branch that exists, or in an empty repository, and reads no branch when it does not change', async () => {
    await converges('version: 1\nrepos:\n  acme/widgets:\n    settings: { default_branch: develop }\n  acme/blank:\n    settings: { default_branch: trunk }\n', 'branch-ok.yaml');
    const reads = requestsTo(w.sandbox, 'GET', 'repos/acme/widgets/branches/develop').length;
    const again = await w.cli(['plan', '-c', `${w.dir}/branch-ok.yaml`]);
    expect(again.code).toBe(0);
    expect(requestsTo(w.sandbox, 'GET', 'repos/acme/widgets/branches/develop').length).toBe(reads);
  });

  it('knows the one branch a repository it creates with auto_init will have', async () => {
    const { file, lines } = await refused('version: 1\nrepos:\n  acme/fresh:\n    create: { auto_init: true }\n    settings: { default_branch: develop }\n', 'branch-new.yaml');
    expect(lines).toEqual([
      `${file}:5:17: repository settings "acme/fresh" in acme/fresh: default_branch: "develop" is not a branch of acme/fresh as this plan creates it: with auto_init it has one branch, named after the server's default branch (repository.DEFAULT_BRANCH, main unless changed); Gitea changes the default branch only to a branch that exists (it answers 200 and keeps the old one). Name the first branch with create.default_branch: develop`,
    ]);
    await converges('version: 1\nrepos:\n  acme/fresh:\n    create: { auto_init: true, default_branch: develop }\n    settings: { default_branch: develop }\n', 'branch-new-ok.yaml');
  });
});

describe('push mirrors', () => {
  it('refuses a new push mirror of an archived repository (the release answers 423)', async () => {
    const { file, lines } = await refused('version: 1\nrepos:\n  acme/attic:\n    push_mirrors:\n      - { remote_address: "https://mirror.example.com/attic.git", interval: 8h }\n', 'mirror-archived.yaml');
    expect(lines).toEqual([
      `${file}:5:9: push mirror "https://mirror.example.com/attic.git" in acme/attic: acme/attic is archived: Gitea 1.26.0 refuses to add a push mirror to it (423 repo is archived); un-archive it (settings: { archived: false }) or remove the push mirror`,
    ]);
  });
});
