/**
 * plan --changed-only REF: only the organisations, repositories and server-wide sections whose
 * configuration changed since a git ref are planned, and only they are read.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { calls, world, type World } from './helpers.js';

const seed = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com', full_name: 'Alice' },
  ],
  orgs: [
    { name: 'acme', owners: ['root'] },
    { name: 'beta', owners: ['root'] },
  ],
  repos: [
    { name: 'acme/a', labels: [{ name: 'bug', color: 'ee0701' }] },
    { name: 'acme/b', labels: [{ name: 'bug', color: 'ee0701' }] },
    { name: 'beta/a', labels: [{ name: 'bug', color: 'ee0701' }] },
  ],
};

const base = `version: 1
policy: { prune: [labels], max_delete_fraction: 1 }
users:
  alice: { full_name: Alice }
orgs:
  acme:
    labels:
      kind/bug: { color: d73a4a }
  beta:
    labels:
      kind/bug: { color: d73a4a }
repos:
  "acme/*":
    labels:
      bug: { color: ee0701 }
  acme/a:
    labels:
      extra: { color: "000000" }
  "beta/*":
    labels:
      bug: { color: ee0701 }
`;

let w: World;
let repo: string;
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } }).toString();
const write = (text: string, name = 'forgeform.yaml') => writeFileSync(join(repo, 'config', name), text);
const cli = (args: string[]) => w.cli([...args, '-c', join(repo, 'config')]);

beforeEach(async () => {
  w = await world(seed);
  repo = join(w.dir, 'gitops');
  mkdirSync(join(repo, 'config'), { recursive: true });
  git('init', '-q', '-b', 'main');
  write(base);
  git('add', '.');
  git('commit', '-q', '-m', 'base');
  // the server as the base configuration says
  expect((await cli(['apply', '--yes'])).code).toBe(0);
  w.sandbox.clearRequests();
});
afterEach(async () => {
  await w?.sandbox.close();
  rmSync(repo, { recursive: true, force: true });
});

const labelReads = () => calls(w.sandbox).filter((c) => /labels$/.test(c) && c.startsWith('GET '));

describe('plan --changed-only REF', () => {
  it('plans and reads only the repository whose entry changed; says what was skipped in one line', async () => {
    write(base.replace('extra: { color: "000000" }', 'extra: { color: "111111" }'));
    const plan = await cli(['plan', '--changed-only', 'main']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('~ label "extra"');
    expect(plan.stdout).toContain('Plan: 0 to create, 1 to update, 0 to delete, 0 to rename.');
    expect(plan.stderr).toContain('--changed-only main: planned repos acme/a; skipped as unchanged: 2 organisations, 2 repository entries, users');
    expect(labelReads()).toEqual(['GET repos/acme/a/labels']);
    expect(calls(w.sandbox)).not.toContain('GET admin/users');
  });

  it('a changed glob plans every repository it matches; a changed server-wide section is planned', async () => {
    write(base.replace(/"beta\/\*":\n {4}labels:\n {6}bug: \{ color: ee0701 \}/, '"beta/*":\n    labels:\n      bug: { color: ee0702 }').replace('alice: { full_name: Alice }', 'alice: { full_name: Alice L }'));
    const plan = await cli(['plan', '--changed-only', 'main']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('# repo:beta/a');
    expect(plan.stdout).toContain('~ user "alice"');
    expect(plan.stdout).not.toContain('repo:acme/');
    expect(labelReads()).toEqual(['GET repos/beta/a/labels']);
    expect(plan.stderr).toContain('planned repos beta/*; users;');
  });

  it('an entry removed since REF is changed: its repository is planned with what remains, and the label it alone declared is pruned', async () => {
    write(base.replace('  acme/a:\n    labels:\n      extra: { color: "000000" }\n', ''));
    const plan = await cli(['plan', '--changed-only', 'main']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('- label "extra"');
    expect(plan.stdout).toContain('Plan: 0 to create, 0 to update, 1 to delete, 0 to rename.');
    expect(labelReads().sort()).toEqual(['GET repos/acme/a/labels']);
  });

  it('an entry moved to another file is unchanged; with nothing changed, nothing is read but the preflight', async () => {
    write(base.replace('  acme/a:\n    labels:\n      extra: { color: "000000" }\n', ''));
    write('version: 1\nrepos:\n  acme/a:\n    labels:\n      extra: { color: "000000" }\n', 'more.yaml');
    const moved = await cli(['plan', '--changed-only', 'main', '--detailed-exitcode']);
    expect(moved.code).toBe(0);
    expect(moved.stdout).toContain('No changes.');
    expect(moved.stderr).toContain('planned nothing: files changed, but no entry in them');
    expect(calls(w.sandbox).filter((c) => c !== 'GET version' && c !== 'GET /api/forgejo/v1/version')).toEqual([]);

    git('add', '.');
    git('commit', '-q', '-m', 'split');
    const none = await cli(['plan', '--changed-only', 'HEAD']);
    expect(none.stderr).toContain('--changed-only HEAD: planned nothing: no configuration file changed since HEAD; skipped as unchanged: 2 organisations, 3 repository entries, users');
  });

  it('a policy change plans everything, saying why', async () => {
    write(base.replace('max_delete_fraction: 1', 'max_delete_fraction: 0.9'));
    const plan = await cli(['plan', '--changed-only', 'main']);
    expect(plan.code).toBe(0);
    expect(plan.stderr).toContain('--changed-only main: policy changed since main: planning everything');
    expect(labelReads().length).toBeGreaterThanOrEqual(5);
  });

  it('apply --changed-only applies only what changed', async () => {
    write(base.replace('extra: { color: "000000" }', 'extra: { color: "111111" }').replace('alice: { full_name: Alice }', 'alice: { full_name: Alice L }'));
    const apply = await cli(['apply', '--yes', '--changed-only', 'main']);
    expect(apply.code).toBe(0);
    expect(calls(w.sandbox).filter((c) => !c.startsWith('GET ')).sort()).toEqual(['PATCH admin/users/alice', expect.stringMatching(/^PATCH repos\/acme\/a\/labels\/\d+$/)]);
    expect((await cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('outside a git repository, or with an unknown ref, it is an error before any request', async () => {
    const bad = await cli(['plan', '--changed-only', 'no-such-branch']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--changed-only: "no-such-branch" is not a commit of the git repository at');
    expect(bad.stderr).not.toMatch(/\n\s+at /);

    rmSync(join(repo, '.git'), { recursive: true, force: true });
    const outside = await cli(['plan', '--changed-only', 'main']);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/--changed-only needs the configuration in a git repository, and \S+config is not in one/);
    expect(calls(w.sandbox)).toEqual([]);
  });
});
