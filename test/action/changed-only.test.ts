import { spawnSync } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildActionDir } from './runner.js';
import { actionWorld, PR, writesTo, type ActionWorld } from './world.js';

let actionDir: string;
let w: ActionWorld | undefined;
beforeAll(() => {
  actionDir = buildActionDir();
}, 120_000);
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@example.com' } });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
};

const CONFIG = (docs: string) => `version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: ee0701 }\n  acme/gadgets:\n    labels:\n      docs: { color: ${docs} }\n`;

describe('changed-only', () => {
  it('true: plans only what the pull request changed since its base commit', async () => {
    w = await actionWorld(actionDir, { managed: { users: [{ username: 'root', admin: true, email: 'root@example.com' }], orgs: [{ name: 'acme', owners: ['root'] }], repos: [{ name: 'acme/widgets' }, { name: 'acme/gadgets' }] } });
    git(w.workspace, 'init', '--quiet', '-b', 'main');
    w.write('forgeform.yaml', CONFIG('0075ca'));
    git(w.workspace, 'add', '-A');
    git(w.workspace, 'commit', '--quiet', '-m', 'base');
    const base = git(w.workspace, 'rev-parse', 'HEAD');
    w.write('forgeform.yaml', CONFIG('0075cb'));
    git(w.workspace, 'commit', '--quiet', '-am', 'change gadgets');
    const head = git(w.workspace, 'rev-parse', 'HEAD');
    const event = { action: 'synchronize', number: PR, pull_request: { number: PR, head: { sha: head }, base: { sha: base, ref: 'main' } } };

    const all = await w.run({});
    expect(all.outputs.summary).toBe('Plan: 2 to create, 0 to update, 0 to delete, 0 to rename.');
    const changed = await w.run({ 'changed-only': 'true' }, { event, sha: head });
    expect(changed.code, changed.stdout).toBe(0);
    expect(changed.outputs.summary).toBe('Plan: 1 to create, 0 to update, 0 to delete, 0 to rename.');
    expect(changed.summary).toContain('+ label "docs"');
    expect(changed.summary).not.toContain('+ label "bug"');
    expect(writesTo(w.managed)).toEqual([]);
  });

  it('true outside a pull request says what to give instead', async () => {
    w = await actionWorld(actionDir);
    w.write('forgeform.yaml', CONFIG('0075ca'));
    const r = await w.run({ 'changed-only': 'true' }, { event: {}, eventName: 'workflow_dispatch' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error::changed-only: true needs a pull request event (its base commit); give a git ref instead, e.g. changed-only: origin/main');
  });
});
