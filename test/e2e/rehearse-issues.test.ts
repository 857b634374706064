/**
 * plan --rehearse with chosen issues (issue 30): the copy seeds the issues the plan read, with their numbers (the
 * requests name them so), their labels (a repository's and its organisation's), milestone, assignees and state, so
 * that their changes are rehearsed like any other; the server still gets the plan's reads and nothing else.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { acmeIssuePeople } from '../support/seeds.js';
import { calls, world, writes, type World } from './helpers.js';

let w: World;
beforeAll(async () => {
  w = await world(
    acmeIssuePeople([
      {
        name: 'acme/widgets',
        labels: [{ name: 'defect', color: 'ee0701' }, { name: 'docs', color: '0000ff' }],
        milestones: [{ title: 'v1' }, { title: 'v2' }],
        issues: [
          { title: 'One', body: 'first', labels: ['defect'], author: 'alice' },
          { title: 'Two', labels: ['docs', 'kind/bug'], author: 'alice' },
          { title: 'Three', author: 'alice', state: 'closed' },
          { title: 'Four', labels: ['docs'], milestone: 'v1', assignees: ['alice'], author: 'alice' },
          { title: 'Five', body: 'old body', milestone: 'v1', assignees: ['alice'], due_date: '2026-12-24', author: 'alice' },
        ],
      },
      {
        name: 'acme/gadgets',
        issues: [{ title: 'A' }, { title: 'B' }, { title: 'C', labels: ['kind/feature'], author: 'bob' }],
      },
    ]),
  );
});
afterAll(async () => w.sandbox.close());

const CONFIG = `version: 1
repos:
  acme/widgets:
    issues:
      2: { labels: [kind/feature], labels_mode: exact }
      4: { state: closed, milestone: v2, assignees: [alice, bob] }
      5: { body: "new body", due_date: "2027-01-31", title: Fifth }
  acme/gadgets:
    issues:
      3: { labels: [kind/bug], state: closed }
`;

it('rehearses the changes of chosen issues (read from the list, and one read by its number alone): applied, the plan after it empty', { timeout: 60_000 }, async () => {
  // A body edited once on the server: its content_version (1) is the server's own, the copy's issue starts at 0.
  expect((await w.api('PATCH', 'repos/acme/widgets/issues/5', { body: 'old body, edited' })).status).toBe(201);
  w.sandbox.clearRequests();
  const file = w.config(CONFIG);
  const plain = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
  expect(plain.code, plain.stdout + plain.stderr).toBe(2);
  expect(plain.stdout).toContain('Plan: 0 to create, 4 to update, 0 to delete');
  const reads = calls(w.sandbox);
  // acme/gadgets names one issue: the plan reads it by its number, and the copy must keep it (#3, not #1).
  expect(reads, reads.join('\n')).toContain('GET repos/acme/gadgets/issues/3');
  w.sandbox.clearRequests();
  const r = await w.cli(['plan', '-c', file, '--rehearse', '--detailed-exitcode']);
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.stdout).toMatch(/Rehearsed on a copy of gitea [\d.]+: 4 changes applied, 0 failed; the plan after it is empty/);
  expect(r.stdout).not.toContain('Not rehearsed');
  expect(r.stdout).not.toMatch(/Limit: the answers of GET repos\/[^ ]*\/issues/);
  // The server got the plan's reads and nothing else.
  expect(calls(w.sandbox).sort()).toEqual([...reads].sort());
  expect(writes(w.sandbox)).toEqual([]);
});
