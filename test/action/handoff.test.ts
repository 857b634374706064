import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { deletions } from '../../src/action/action-run.js';
import { runUrl, type RunnerContext } from '../../src/action/context.js';
import { Forge } from '../../src/action/forge.js';
import { differences, readRecord, recordLine, reviewedRecord } from '../../src/action/handoff.js';
import type { Change, Plan } from '../../src/plan/types.js';

const change = (id: string, action: Change['action'], after: unknown): Change => ({
  id,
  kind: 'repo_label',
  scope: 'repo:acme/widgets',
  key: id,
  action,
  fields: [{ path: 'color', after }],
  precondition: { digest: `digest-${Math.random()}` },
  depends_on: [],
  ops: [{ method: 'POST', path: `repos/acme/widgets/labels?n=${Math.random()}` }],
});
const plan = (...changes: Change[]) => ({ changes }) as unknown as Plan;

describe('the reviewed plan in the comment', () => {
  it('survives the comment (no "--" can end it early) and compares changes, not requests or preconditions', () => {
    const reviewed = reviewedRecord(plan(change('a--b', 'create', 'ee0701'), change('c', 'delete', undefined)), 'f'.repeat(40), '2/3');
    const back = readRecord(`<!-- forgeform:plan x -->\n${recordLine(reviewed)}\nvisible`)!;
    expect(back).toEqual(reviewed);
    expect(recordLine(reviewed)).not.toMatch(/--.*--.*--/);
    expect(back).toMatchObject({ head: 'f'.repeat(40), shard: '2/3', count: 2, deletes: 1 });
    // Other request paths and preconditions (made afresh by every plan): the same changes.
    expect(differences(back, plan(change('c', 'delete', undefined), change('a--b', 'create', 'ee0701')))).toEqual([]);
  });

  it('names each difference: a changed value, a change no longer needed, a change nobody reviewed', () => {
    const back = readRecord(recordLine(reviewedRecord(plan(change('a', 'create', 'ee0701'), change('b', 'create', '000000')), 'h', '')))!;
    expect(differences(back, plan(change('a', 'update', 'ee0701'), change('n', 'create', '111111')))).toEqual([
      'update repo_label "a" in repo:acme/widgets is not what was reviewed: the server or the configuration changed since the plan was made',
      'b was reviewed but is no longer needed',
      'create repo_label "n" in repo:acme/widgets is needed now but was not reviewed',
    ]);
  });

  it('ignores a record that is not one', () => {
    expect(readRecord('<!-- forgeform:reviewed bm90IGpzb24 -->')).toBeUndefined();
    expect(readRecord('no record')).toBeUndefined();
  });
});

describe('deletions come first', () => {
  it('lists every deletion before the plan, capped so that the list always fits a comment', () => {
    const many = plan(...Array.from({ length: 3000 }, (_, i) => change(`label-${i}-${'x'.repeat(20)}`, 'delete', undefined)), change('keep', 'create', 'ee0701'));
    const md = deletions(many);
    expect(md.startsWith('**Deletes 3000:**\n- **delete** repo_label `label-0-')).toBe(true);
    expect(md.length).toBeLessThan(21_000);
    expect(md).toMatch(/- … and \d+ more \(in the step summary\)/);
    expect(deletions(plan(change('keep', 'create', 'ee0701')))).toBe('');
  });
});

describe('links to the workflow run', () => {
  const ctx = (forge: RunnerContext['forge']): RunnerContext =>
    ({ serverUrl: 'https://forge.example', repository: { owner: 'o', repo: 'r' }, forge, runId: '987654', runNumber: '42' }) as RunnerContext;
  it('GitHub by run id; Forgejo and Gitea before 1.26 by run number; Gitea 1.26 and later by run id', () => {
    expect(runUrl(ctx('github'), undefined)).toBe('https://forge.example/o/r/actions/runs/987654');
    expect(runUrl(ctx('forgejo'), '11.0.1+gitea-1.22.0')).toBe('https://forge.example/o/r/actions/runs/42');
    expect(runUrl(ctx('gitea'), '11.0.1+gitea-1.22.0')).toBe('https://forge.example/o/r/actions/runs/42'); // a Forgejo runner that says GITEA_ACTIONS only
    expect(runUrl(ctx('gitea'), '1.25.4')).toBe('https://forge.example/o/r/actions/runs/42');
    expect(runUrl(ctx('gitea'), '1.26.0')).toBe('https://forge.example/o/r/actions/runs/987654');
    expect(runUrl(ctx('gitea'), undefined)).toBe('https://forge.example/o/r/actions/runs/42');
  });
});

describe('the merged pull request of a commit', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    server = undefined;
  });

  it("reads GitHub's list (commits/{sha}/pulls), and Gitea's single answer (commits/{sha}/pull) where there is no list", async () => {
    const seen: string[] = [];
    let github = true;
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
      if (github && req.url === '/repos/o/r/commits/abc/pulls') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ number: 7, merged_at: 'x', merge_commit_sha: 'abc', head: { sha: 'h7' } }]));
      else if (!github && req.url === '/repos/o/r/commits/abc/pull') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ number: 8, merged: true, merge_commit_sha: 'abc', head: { sha: 'h8' } }));
      else res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const forge = new Forge(`http://127.0.0.1:${(server.address() as { port: number }).port}`, 'job-token', 'o', 'r');
    expect(await forge.pullOfCommit('abc')).toMatchObject({ number: 7, head: { sha: 'h7' } });
    github = false;
    expect(await forge.pullOfCommit('abc')).toMatchObject({ number: 8, head: { sha: 'h8' } });
    expect(await forge.pullOfCommit('nope')).toBeUndefined();
    expect(seen.every((s) => s.endsWith('token job-token'))).toBe(true);
  });
});
