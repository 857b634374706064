import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiIssue } from '../support/api-types.js';
import { isLockRequest } from '../support/requests.js';
import { acmeIssuePeople } from '../support/seeds.js';
import { ADMIN_TOKEN, calls, runCli, world, type World } from './helpers.js';

const seed = acmeIssuePeople([
  {
    name: 'acme/widgets',
    labels: [
      { name: 'defect', color: 'ee0701' },
      { name: 'docs', color: '0000ff' },
      { name: 'urgent', color: 'ff0000' },
      { name: 'twin', color: '111111' },
      { name: 'twin', color: '222222' },
    ],
    milestones: [{ title: 'v1' }, { title: 'v2' }],
    issues: [
      { title: 'One', body: 'first', labels: ['defect'], author: 'alice' },
      { title: 'Two', labels: ['docs', 'urgent'], author: 'alice' },
      { title: 'Three', labels: ['docs', 'urgent'], author: 'alice' },
      { title: 'Four', labels: ['docs', 'urgent'], author: 'alice' },
      { title: 'Five', body: 'old body', milestone: 'v1', assignees: ['alice'], due_date: '2026-12-24', author: 'alice' },
    ],
  },
]);

let w: World;
afterEach(async () => w?.sandbox.close());

async function issue(w: World, n: number): Promise<ApiIssue> {
  return (await w.api<ApiIssue>('GET', `repos/acme/widgets/issues/${n}`)).body;
}
const names = (i: ApiIssue) => i.labels.map((l) => l.name).sort();

describe('issue labels', () => {
  it('uses one call per issue for each shape of label change, and a second plan is empty', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
repos:
  acme/widgets:
    issues:
      1: { labels: [docs, kind/bug] }                      # add: one POST
      2: { labels: [docs], labels_mode: exact }            # removal: one PUT with the full set
      3: { labels: [], labels_mode: exact }                # exact and empty: one DELETE
      4: { labels: [docs, urgent, defect], labels_mode: exact }  # exact, only additions: one POST
`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/~ issue "#1"\n\s+~ labels: \["defect"\] → \["docs", "kind\/bug"\]/);
    expect(plan.stdout).toContain('Plan: 0 to create, 4 to update, 0 to delete, 0 to rename.');
    // reads: the four named issues from one page of the issue list (issue 12: it used to be one GET
    // each), the repo and org label lists once
    const reads = calls(w.sandbox);
    expect(reads.filter((c) => c.startsWith('GET repos/acme/widgets/issues'))).toEqual(['GET repos/acme/widgets/issues']);
    expect(w.sandbox.requests().find((r) => r.path.endsWith('/issues'))?.query).toMatchObject({ state: 'all', page: '1', limit: '50' });
    expect(reads.filter((c) => c === 'GET repos/acme/widgets/labels')).toHaveLength(1);
    expect(reads.filter((c) => c === 'GET orgs/acme/labels')).toHaveLength(1);

    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code).toBe(0);
    const writes = calls(w.sandbox).filter((c) => !c.startsWith('GET'));
    expect(writes.sort()).toEqual([
      'DELETE repos/acme/widgets/issues/3/labels',
      'POST repos/acme/widgets/issues/1/labels',
      'POST repos/acme/widgets/issues/4/labels',
      'PUT repos/acme/widgets/issues/2/labels',
    ]);
    // ids only, never names, in every body
    for (const r of w.sandbox.requests().filter((r) => r.method !== 'GET' && r.body && !isLockRequest(r))) expect((r.body as { labels: unknown[] }).labels.every((x) => typeof x === 'number')).toBe(true);
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    expect(names(await issue(w, 1))).toEqual(['defect', 'docs', 'kind/bug']);
    expect(names(await issue(w, 2))).toEqual(['docs']);
    expect(names(await issue(w, 3))).toEqual([]);
    expect(names(await issue(w, 4))).toEqual(['defect', 'docs', 'urgent']);
    expect((await w.cli(['plan', '-c', file])).stdout).toContain('No changes.');
  });

  it('in a repository of 120 issues, issues past the first page of the list are read one by one (fewer reads than the rest of the list), closed ones too', async () => {
    const many = { ...seed, repos: [{ ...seed.repos[0]!, issues: Array.from({ length: 120 }, (_, i) => ({ title: `Issue ${i + 1}`, author: 'alice', ...(i === 1 ? { state: 'closed' } : {}) })) }] };
    w = await world(many);
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    issues:\n      1: { title: First }\n      2: { state: open }\n      119: { title: Late }\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('Plan: 0 to create, 3 to update, 0 to delete, 0 to rename.');
    expect(plan.stdout).toMatch(/~ issue "#2"\n\s+~ state: "closed" → "open"/);
    // the newest 50 come first: #119 is on it, #1 and #2 are not; two GETs cost less than two more pages
    const reads = calls(w.sandbox).filter((c) => c.startsWith('GET repos/acme/widgets/issues'));
    expect(reads.sort()).toEqual(['GET repos/acme/widgets/issues', 'GET repos/acme/widgets/issues/1', 'GET repos/acme/widgets/issues/2']);
    expect((await w.cli(['apply', '-c', file, '--yes'])).code).toBe(0);
    expect((await issue(w, 119)).title).toBe('Late');
    expect((await issue(w, 2)).state).toBe('open');
    expect((await w.cli(['plan', '-c', file])).stdout).toContain('No changes.');
  });

  it('resolves labels this plan creates or renames, in dependency order', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
orgs:
  acme:
    labels:
      kind/chore: { color: "cccccc", exclusive: true }
repos:
  acme/widgets:
    labels:
      bug: { color: ee0701, previously: [defect] }
      triage: { color: "fbca04" }
    issues:
      1: { labels: [bug, triage, kind/chore], labels_mode: exact }
`);
    const plan = await w.cli(['plan', '-c', file, '--format', 'json']);
    expect(plan.code).toBe(0);
    const changes = JSON.parse(plan.stdout).changes as { id: string; kind: string; depends_on: string[] }[];
    const issueChange = changes.find((c) => c.kind === 'issue')!;
    expect(issueChange.depends_on.sort()).toEqual(['org_label/org:acme/kind/chore', 'repo_label/repo:acme/widgets/triage']);
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code).toBe(0);
    expect(names(await issue(w, 1))).toEqual(['bug', 'kind/chore', 'triage']);
    expect((await w.cli(['plan', '-c', file])).stdout).toContain('No changes.');
  });

  it('refuses unknown, ambiguous and same-scope exclusive labels, naming the issue and the place', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
repos:
  acme/widgets:
    issues:
      1:
        labels: [nosuch]
      2:
        labels: [twin]
      3:
        labels: [kind/bug, kind/feature]
      99:
        state: closed
`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${file}:6:9: issue "#1" in acme/widgets: label "nosuch" does not exist in acme/widgets or its organisation`);
    expect(plan.stderr).toContain(`${file}:8:9: issue "#2" in acme/widgets: label "twin" is ambiguous: 2 labels of that name exist`);
    expect(plan.stderr).toMatch(/:10:9: issue "#3" in acme\/widgets: labels "kind\/bug" and "kind\/feature" share the exclusive scope "kind"/);
    expect(plan.stderr).toContain(`${file}:11:7: issue "#99" in acme/widgets: issue #99 does not exist`);
    expect(calls(w.sandbox).filter((c) => !c.startsWith('GET'))).toEqual([]);
  });

  it('a label deletion shows how many issues carry it and makes the plan unsafe without --force', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
policy: { prune: [labels] }
repos:
  acme/widgets:
    labels:
      defect: { color: ee0701 }
      twin: { color: "111111" }
`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(3);
    expect(plan.stdout).toMatch(/- label "docs"\n\s+# carried by 3 issues: deleting it removes it from them/);
    expect(plan.stdout).toContain('Unsafe: label "urgent" in acme/widgets is carried by 3 issues');
    const refused = await w.cli(['apply', '-c', file, '--yes']);
    expect(refused.code).toBe(3);
    expect((await w.cli(['apply', '-c', file, '--yes', '--force'])).code).toBe(0);
    expect(names(await issue(w, 2))).toEqual([]);
  });
});

describe('issue fields', () => {
  it('changes only the changed fields in one PATCH and reads nothing per field', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
repos:
  acme/widgets:
    issues:
      5:
        title: Five, renamed
        state: closed
        body: |
          new body
          second line
        milestone: v2
        assignees: [bob, alice]
        due_date: 2027-01-15
`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.stdout).toMatch(/~ title\s*: "Five" → "Five, renamed"/);
    expect(plan.stdout).toMatch(/~ milestone\s*: "v1" → "v2"/);
    expect(plan.stdout).toMatch(/~ due_date\s*: "2026-12-24" → "2027-01-15"/);
    expect(plan.stdout).toMatch(/-old body\n[^\n]*No newline at end of file\n\s+\+new body\n\s+\+second line/);
    expect(calls(w.sandbox).filter((c) => c.includes('milestones'))).toEqual(['GET repos/acme/widgets/milestones']);
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code).toBe(0);
    const patches = w.sandbox.requests().filter((r) => r.method === 'PATCH');
    expect(patches).toHaveLength(1);
    expect(patches[0]!.status).toBe(201);
    const body = patches[0]!.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['assignees', 'body', 'content_version', 'due_date', 'milestone', 'state', 'title']);
    const i = await issue(w, 5);
    expect(i).toMatchObject({ title: 'Five, renamed', state: 'closed', body: 'new body\nsecond line\n', milestone: { title: 'v2' } });
    expect(i.due_date?.slice(0, 10)).toBe('2027-01-15');
    expect((await w.cli(['plan', '-c', file])).stdout).toContain('No changes.');

    // null removes the milestone and the due date
    const unset = w.config(`version: 1
repos:
  acme/widgets:
    issues:
      5: { milestone: null, due_date: null }
`);
    w.sandbox.clearRequests();
    expect((await w.cli(['apply', '-c', unset, '--yes'])).code).toBe(0);
    expect(w.sandbox.requests().find((r) => r.method === 'PATCH')!.body).toEqual({ milestone: 0, unset_due_date: true });
    expect(await issue(w, 5)).toMatchObject({ milestone: null, due_date: null });
  });

  it('an issue edited between plan and apply fails with "changed since plan" while the others proceed', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
repos:
  acme/widgets:
    issues:
      1: { body: "planned body" }
      5: { body: "also planned" }
`);
    const planFile = `${w.dir}/plan.json`;
    expect((await w.cli(['plan', '-c', file, '--out', planFile])).code).toBe(0);
    expect(JSON.parse(readFileSync(planFile, 'utf8')).changes[0].ops[0].body.content_version).toBeTypeOf('number');
    // someone edits issue 1's body in the meantime
    expect((await w.api('PATCH', 'repos/acme/widgets/issues/1', { body: 'edited by a human' })).status).toBe(201);
    w.sandbox.clearRequests();
    const apply = await runCli(['apply', planFile], { env: { FORGEFORM_URL: w.sandbox.url, FORGEFORM_TOKEN: ADMIN_TOKEN, NO_COLOR: '1' } });
    expect(apply.code).toBe(1);
    expect(apply.stdout).toMatch(/✗ ~ issue "#1" in repo:acme\/widgets: issue #1 of acme\/widgets changed since the plan was made: plan again \(PATCH .* → 409/);
    expect(apply.stdout).toContain('✓ ~ issue "#5" in repo:acme/widgets');
    expect((await issue(w, 1)).body).toBe('edited by a human');
    expect((await issue(w, 5)).body).toBe('also planned');
  });

  it('fails on a field the server silently did not take (an inconsistent result), naming it and the release', async () => {
    w = await world({
      ...seed,
      users: [...seed.users, { username: 'carol', email: 'carol@example.com', token: 'carol-token' }],
      repos: [{ name: 'acme/widgets', collaborators: {}, issues: [{ title: 'Mine', author: 'carol' }] }],
      orgs: [{ name: 'acme', owners: ['root'] }],
    });
    // carol wrote the issue but cannot write to the repository: Gitea drops her assignee change with 201
    const file = w.config(`version: 1
repos:
  acme/widgets:
    issues:
      1: { title: "Mine, edited", assignees: [root] }
`);
    const apply = await w.cli(['apply', '-c', file, '--yes'], { FORGEFORM_TOKEN: 'carol-token' });
    expect(apply.code).toBe(1);
    expect(apply.stdout).toMatch(/✗ ~ issue "#1" in repo:acme\/widgets: inconsistent result after apply: Gitea 1\.26\.0 did not take assignees: sent \["root"\], server kept \[\]/);
    expect((await issue(w, 1)).title).toBe('Mine, edited');
  });
});

describe('issue projects and ref', () => {
  it('replaces the projects and sets the ref, then plans nothing (Gitea main: no release has issue projects)', async () => {
    w = await world({
      users: seed.users,
      orgs: [{ name: 'acme', owners: ['root'] }],
      repos: [
        {
          name: 'acme/widgets',
          projects: [{ title: 'Roadmap' }, { title: 'Bugs' }],
          issues: [
            { title: 'One', projects: ['Roadmap'], author: 'alice' },
            { title: 'Two', projects: ['Bugs'], author: 'alice' },
          ],
        },
      ],
    }, { flavour: 'gitea@main' });
    const idOf = async (n: number) => ((await w.api<{ projects: { id: number }[] }>('GET', `repos/acme/widgets/issues/${n}`)).body.projects)[0]!.id;
    const [roadmap, bugs] = [await idOf(1), await idOf(2)];
    const file = w.config(`version: 1
repos:
  acme/widgets:
    issues:
      1: { projects: [${bugs}], ref: refs/heads/fix-1 }
`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.stdout).toMatch(new RegExp(`~ projects: \\[${roadmap}\\] → \\[${bugs}\\]`));
    w.sandbox.clearRequests();
    expect((await w.cli(['apply', '-c', file, '--yes'])).code).toBe(0);
    expect(w.sandbox.requests().find((r) => r.method === 'PATCH')!.body).toEqual({ projects: [bugs], ref: 'refs/heads/fix-1' });
    const after = (await w.api<{ projects: { id: number }[]; ref: string }>('GET', 'repos/acme/widgets/issues/1')).body;
    expect(after.projects.map((p) => p.id)).toEqual([bugs]);
    expect(after.ref).toBe('refs/heads/fix-1');
    expect((await w.cli(['plan', '-c', file])).stdout).toContain('No changes.');
  });
});
