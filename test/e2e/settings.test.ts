// Repository settings end to end: the built CLI against the sandbox, on every flavour it plays.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { FLAVOURS } from '../../src/sandbox/flavours/flavour.js';
import { calls, type CliResult, type World, world, writes } from './helpers.js';

const seed: SeedFile = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [
    { name: 'acme/widgets', description: 'old', topics: ['old', 'keep'] },
    { name: 'acme/attic', description: 'gone', archived: true },
  ],
};

interface Repo {
  description: string;
  website: string;
  archived: boolean;
  has_wiki: boolean;
  allow_rebase: boolean;
  default_merge_style: string;
  topics?: string[];
}

let w: World;
afterEach(async () => w?.sandbox.close());

const settings = `version: 1
repos:
  acme/widgets:
    settings:
      description: Widgets and gadgets
      website: https://widgets.example.com
      has_wiki: false
      allow_rebase: false
      default_merge_style: squash
      topics: [Go, keep, cli]
`;

async function topicsOf(w: World, repo: string): Promise<string[]> {
  return (await w.api<{ topics: string[] }>('GET', `repos/${repo}/topics`)).body.topics;
}

/** A plan of the file that has changes (exit code 2), with no error or warning. */
async function planWithChanges(file: string): Promise<CliResult> {
  const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
  expect(plan.stderr).not.toMatch(/error|warning/i);
  expect(plan.code).toBe(2);
  return plan;
}

/** An apply of the file, with no error or warning, that writes acme/widgets' PATCH and then the PUT of its topics, nothing else. */
async function applyPatchAndTopics(file: string): Promise<void> {
  w.sandbox.clearRequests();
  const apply = await w.cli(['apply', '-c', file, '--yes']);
  expect(apply.stderr).not.toMatch(/error|warning/i);
  expect(apply.code).toBe(0);
  expect(writes(w.sandbox)).toEqual(['PATCH repos/acme/widgets', 'PUT repos/acme/widgets/topics']);
}

/** The next plan of the file says there is nothing to change. */
async function expectNoChanges(file: string): Promise<void> {
  const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
  expect(again.stdout).toContain('No changes');
  expect(again.code).toBe(0);
}

/** The next plan of the file has no change (exit code 0). */
async function expectEmptyPlan(file: string): Promise<void> {
  expect((await w.cli(['plan', '-c', file, '--detailed-exitcode'])).code).toBe(0);
}

describe('repository settings end to end', () => {
  it('plans the changed fields and each topic added or removed; apply sends one PATCH and one PUT; a second plan is empty', async () => {
    w = await world(seed);
    const file = w.config(settings);
    const plan = await planWithChanges(file);
    expect(plan.stdout).toContain('~ repository settings "acme/widgets"');
    expect(plan.stdout).toMatch(/~ description +: "old" → "Widgets and gadgets"/);
    expect(plan.stdout).toMatch(/~ default_merge_style: "merge" → "squash"/);
    // Each topic added or removed, lower-cased as Gitea stores them; "keep" is unchanged.
    expect(plan.stdout).toMatch(/~ topics:\n +\+ "cli"\n +\+ "go"\n +- "old"\n/);
    expect(plan.stdout).not.toContain('"keep"');
    expect(plan.stdout).not.toContain('"Go"');
    await applyPatchAndTopics(file);
    const repo = (await w.api<Repo>('GET', 'repos/acme/widgets')).body;
    expect(repo).toMatchObject({ description: 'Widgets and gadgets', website: 'https://widgets.example.com', has_wiki: false, allow_rebase: false, default_merge_style: 'squash' });
    expect(await topicsOf(w, 'acme/widgets')).toEqual(['cli', 'go', 'keep']);
    await expectNoChanges(file);
  });
});

/** Fields every release answers and takes; the flavours that answer allow_fast_forward_only_merge set it too. */
const everywhere = (flavour: string) => `version: 1
repos:
  acme/widgets:
    settings:
      description: Widgets
      private: true
      template: true
      has_issues: false
      has_projects: false
      allow_squash_merge: false
      default_delete_branch_after_merge: true
      default_merge_style: rebase
${flavour === 'gitea@1.21' ? '' : '      allow_fast_forward_only_merge: false\n'}      topics: [cli, go]
`;

describe.each(FLAVOURS.map((f) => f.name))('repository settings on %s', (flavour) => {
  it('plan → apply → plan is empty, with one PATCH and one PUT of the topics', async () => {
    w = await world(seed, { flavour });
    const file = w.config(everywhere(flavour));
    w.sandbox.clearRequests();
    const plan = await planWithChanges(file);
    // The repository's GET (made to find it) is the read; the topics cost a GET of their own only where it does not carry them.
    const answersTopics = !['gitea@1.21', 'gitea@1.22', 'forgejo@7'].includes(flavour);
    expect(calls(w.sandbox).filter((c) => c.startsWith('GET repos/acme/widgets'))).toEqual(answersTopics ? ['GET repos/acme/widgets'] : ['GET repos/acme/widgets', 'GET repos/acme/widgets/topics']);
    expect(plan.stdout).toMatch(/~ topics:\n +\+ "cli"\n +\+ "go"\n +- "keep"\n +- "old"\n/);
    await applyPatchAndTopics(file);
    expect(await topicsOf(w, 'acme/widgets')).toEqual(['cli', 'go']);
    await expectNoChanges(file);
  });
});

describe('default_merge_style takes the merge styles of the release', () => {
  const style = (value: string) => `version: 1\nrepos:\n  acme/widgets:\n    settings:\n      default_merge_style: ${value}\n`;

  it('"manual" is no merge style of any release (Forgejo 11 answered 422 at apply): refused at its line, with the name it means', async () => {
    w = await world(seed, { flavour: 'forgejo@11' });
    const plan = await w.cli(['plan', '-c', w.config(style('manual')), '--detailed-exitcode']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/forgeform\.yaml:5:28: .*default_merge_style must be one of .*manually-merged.*\(did you mean "manually-merged"\?\)/);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('manually-merged converges on every release', async () => {
    for (const flavour of ['gitea@1.21', 'forgejo@11']) {
      w = await world(seed, { flavour });
      const file = w.config(style('manually-merged'));
      expect((await w.cli(['apply', '-c', file, '--yes'])).code).toBe(0);
      await expectNoChanges(file);
      await w.sandbox.close();
    }
  });

  it('fast-forward-only on Gitea 1.21, which stores it and has no such merge: refused at its line, naming the releases that have it', async () => {
    w = await world(seed, { flavour: 'gitea@1.21' });
    const plan = await w.cli(['plan', '-c', w.config(style('fast-forward-only')), '--detailed-exitcode']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/forgeform\.yaml:5:\d+: .*default_merge_style: fast-forward-only.*Gitea 1\.21\.11/);
    expect(writes(w.sandbox)).toEqual([]);
  });
});

/** Un-archives acme/attic and protects its main branch there: a change the archive would withhold. */
const UNARCHIVE_AND_PROTECT = `version: 1
repos:
  acme/attic:
    settings:
      archived: false
    branch_protections:
      main: { enable_push: false }
`;

/** What an apply of UNARCHIVE_AND_PROTECT writes to repositories, in this order (the protection waits for the un-archiving), and that the next plan is empty. */
async function expectUnarchivedThenProtected(file: string): Promise<void> {
  expect(writes(w.sandbox).filter((c) => c.includes('repos/'))).toEqual(['PATCH repos/acme/attic', 'POST repos/acme/attic/branch_protections']);
  await expectEmptyPlan(file);
}

describe('an archived repository', () => {
  it('is written nothing but its un-archiving: other settings are withheld with a warning', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
repos:
  acme/attic:
    settings:
      description: back
      topics: [old]
`);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('Warning: acme/attic is archived, so forgeform writes nothing else to it: description, topics not compared (write archived: false to un-archive it first)');
    expect(plan.stdout).toContain('No changes');
  });

  it('un-archived first: one PATCH with archived: false and the other fields, then the topics; a second plan is empty', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
repos:
  acme/attic:
    settings:
      archived: false
      description: back
      topics: [old]
`);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toMatch(/~ archived +: true → false/);
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code).toBe(0);
    const writes = w.sandbox.requests().filter((r) => r.method !== 'GET' && r.path.startsWith('/api/v1/repos/'));
    expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual(['PATCH /api/v1/repos/acme/attic', 'PUT /api/v1/repos/acme/attic/topics']);
    expect(writes[0]!.body).toEqual({ archived: false, description: 'back' });
    await expectEmptyPlan(file);
  });

  it('un-archived in the same apply as the other kinds of the repository: their changes are not withheld and wait for it', async () => {
    w = await world(seed);
    const file = w.config(UNARCHIVE_AND_PROTECT);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).not.toContain('withheld');
    expect(plan.stdout).toMatch(/~ repository settings "acme\/attic"\n +~ archived: true → false\n/);
    expect(plan.stdout).toContain('+ branch protection "main"');
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.stderr).not.toMatch(/error/i);
    expect(apply.code).toBe(0);
    await expectUnarchivedThenProtected(file);
  });

  it('the same from a saved plan: apply checks it with the repository still archived, and un-archives first', async () => {
    w = await world(seed);
    const file = w.config(UNARCHIVE_AND_PROTECT);
    expect((await w.cli(['plan', '-c', file, '--out', 'saved.json'])).code).toBe(0);
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', 'saved.json', '--yes']);
    expect(apply.stderr).not.toMatch(/error|differs/i);
    expect(apply.code).toBe(0);
    await expectUnarchivedThenProtected(file);
  });

  it('without the un-archiving, the other kinds\' changes there are withheld', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
repos:
  acme/attic:
    branch_protections:
      main: { enable_push: false }
`);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('1 branch protection change(s) withheld: acme/attic is archived');
  });

  it('archiving writes the topics first, then the PATCH that archives', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
repos:
  acme/widgets:
    settings:
      archived: true
      topics: [done]
`);
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code).toBe(0);
    expect(writes(w.sandbox)).toEqual(['PUT repos/acme/widgets/topics', 'PATCH repos/acme/widgets']);
    await expectEmptyPlan(file);
  });

  /** Creates acme/fresh archived, and writes three other kinds there: the server refuses each of them after the archiving (423 repo is archived). */
  const ARCHIVE_AND_MORE = `version: 1
repos:
  acme/fresh:
    create: {}
    settings:
      archived: true
    labels:
      done: { color: "00ff00" }
    branch_protections:
      main: { enable_push: false }
    tag_protections:
      "v*": { whitelist_usernames: [root] }
`;
  /** The archiving PATCH is the last write to the repository, after every other change of it; the next plan is empty. */
  async function expectArchivedLast(file: string): Promise<void> {
    const repoWrites = writes(w.sandbox).filter((c) => c.includes('repos/acme/fresh'));
    expect(repoWrites).toHaveLength(4);
    expect(repoWrites.at(-1)).toBe('PATCH repos/acme/fresh');
    expect((await w.api<Repo>('GET', 'repos/acme/fresh')).body.archived).toBe(true);
    await expectEmptyPlan(file);
  }

  it('archiving in the same apply as other kinds of the repository: it waits for all of them (found by the contract property: the tag protection was refused with 423)', async () => {
    w = await world(seed);
    const file = w.config(ARCHIVE_AND_MORE);
    w.sandbox.clearRequests();
    // One change at a time would hide nothing: the archiving waits for the others, not for its turn.
    const apply = await w.cli(['apply', '-c', file, '--yes', '--concurrency', '8']);
    expect(apply.stdout + apply.stderr).not.toMatch(/423|repo is archived/);
    expect(apply.code).toBe(0);
    await expectArchivedLast(file);
  });

  it('the same from a saved plan: apply checks what the archiving waits for, and archives last', async () => {
    w = await world(seed);
    const file = w.config(ARCHIVE_AND_MORE);
    expect((await w.cli(['plan', '-c', file, '--out', 'saved.json'])).code).toBe(0);
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', 'saved.json', '--yes']);
    expect(apply.stderr).not.toMatch(/error|differs/i);
    expect(apply.code).toBe(0);
    await expectArchivedLast(file);
  });

  it('a saved plan whose archiving no longer waits for the other changes is refused whole', async () => {
    w = await world(seed);
    const file = w.config(ARCHIVE_AND_MORE);
    expect((await w.cli(['plan', '-c', file, '--out', 'saved.json'])).code).toBe(0);
    const saved = JSON.parse(readFileSync(join(w.dir, 'saved.json'), 'utf8')) as { changes: { kind: string; depends_on: string[] }[] };
    for (const c of saved.changes) if (c.kind === 'repo_settings') c.depends_on = [];
    writeFileSync(join(w.dir, 'saved.json'), JSON.stringify(saved));
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', 'saved.json', '--yes']);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('depends_on in the plan file differs from what the change needs');
    expect(writes(w.sandbox).filter((c) => c.includes('repos/'))).toEqual([]);
  });
});

describe('a repository this plan creates', () => {
  it('gets its settings right after its creation: one PATCH of every declared field and the topics; a second plan is empty', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
repos:
  acme/fresh:
    create: { auto_init: true }
    settings:
      description: Brand new
      has_wiki: false
      topics: [new]
`);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('+ repository settings "acme/fresh"');
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.stderr).not.toMatch(/error/i);
    expect(apply.code).toBe(0);
    expect(writes(w.sandbox).filter((c) => c.includes('repos'))).toEqual(['POST admin/users/acme/repos', 'PATCH repos/acme/fresh', 'PUT repos/acme/fresh/topics']);
    expect((await w.api<Repo>('GET', 'repos/acme/fresh')).body).toMatchObject({ description: 'Brand new', has_wiki: false });
    await expectEmptyPlan(file);
  });
});

describe('export', () => {
  it('writes the settings of each repository, and planning the export shows no changes', async () => {
    w = await world(seed);
    const out = await w.cli(['export', '--include', 'acme/*']);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/acme\/widgets:\n(?: +\w+: \{\}\n)* +settings:\n +description: old\n/);
    expect(out.stdout).toMatch(/topics:\n +- keep\n +- old\n/);
    expect(out.stdout).toMatch(/acme\/attic:\n(?: +\w+: \{\}\n)* +settings:\n +archived: true\n/);
    const file = w.config(out.stdout, 'exported.yaml');
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.stderr).not.toMatch(/error|warning/i);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });
});
