/**
 * plan --rehearse's copy (src/sandbox/copy.ts) and its verdict lines (src/rehearse/rehearse.ts), below the CLI: what
 * a seed made of a plan's answers holds (apply's lock never; issues with their numbers), and the one readable line a
 * copy the plan cannot be made against gets.
 */
import { describe, expect, it } from 'vitest';
import { kinds } from '../../src/kinds/index.js';
import type { Plan } from '../../src/model/index.js';
import { rehearsalHeadline } from '../../src/render/rehearsal.js';
import { rehearse } from '../../src/rehearse/rehearse.js';
import { seedFromAnswers, type CopiedAnswer } from '../../src/sandbox/copy.js';
import { buildState, parseFlavour, SeedError } from '../../src/sandbox/index.js';

const answer = (path: string, data: unknown): CopiedAnswer => ({ path, query: {}, forgejoApi: false, data });
const flavour = parseFlavour('gitea@1.25');
const record = 'Held by forgeform apply: user=ci host=build-7 pid=4242 since=2026-01-01T00:00:00Z renewed=2026-01-01T00:00:00Z id=abc123';

describe("the copy's seed", () => {
  it("holds no organisation for apply's lock, read by its own GET or listed with every organisation, and names none of its reads as not copied", () => {
    for (const lock of ['forgeform-lock', 'Ops-Lock']) {
      const { seed, notCopied } = seedFromAnswers(
        [
          answer(`orgs/${lock}`, { id: 9, username: lock, description: record }),
          answer('admin/orgs', [{ id: 1, username: 'acme' }, { id: 9, username: lock.toLowerCase(), description: record }]),
          answer(`orgs/${lock}/members`, [{ login: 'root' }]),
          answer(`orgs/${lock}/repos`, []),
        ],
        flavour,
        lock,
      );
      expect(seed.orgs?.map((o) => o.name)).toEqual(['acme']);
      expect(notCopied).toEqual([]);
    }
  });

  it('an organisation of another name than the lock is copied, even one named like the default lock when the config names another', () => {
    const { seed } = seedFromAnswers([answer('admin/orgs', [{ id: 9, username: 'forgeform-lock' }])], flavour, 'ops-lock');
    expect(seed.orgs?.map((o) => o.name)).toEqual(['forgeform-lock']);
  });

  it('keeps the issues the plan read by their numbers, with their labels (a missing one added to the list its url names), milestone and assignees', () => {
    const { seed, notCopied } = seedFromAnswers(
      [
        answer('orgs/acme', { id: 1, username: 'acme' }),
        answer('repos/acme/widgets', { id: 2, full_name: 'acme/widgets', owner: { login: 'acme' } }),
        answer('repos/acme/widgets/labels', [{ id: 5, name: 'bug', color: 'ee0701' }]),
        answer('repos/acme/widgets/issues', [
          { number: 7, title: 'Seven', state: 'closed', content_version: 3, labels: [{ id: 5, name: 'bug', url: 'http://x/api/v1/repos/acme/widgets/labels/5' }, { id: 6, name: 'kind/x', color: '00ff00', exclusive: true, url: 'http://x/api/v1/orgs/acme/labels/6' }], milestone: { id: 1, title: 'v1', state: 'open' }, assignees: [{ login: 'alice' }] },
          { number: 2, title: 'Two', body: 'b' },
        ]),
        answer('repos/acme/widgets/issues/12', { number: 12, title: 'Twelve' }),
      ],
      flavour,
      'forgeform-lock',
    );
    const repo = seed.repos?.find((r) => r.name === 'acme/widgets');
    expect(repo?.issues?.map((i) => [i.number, i.title, i.state])).toEqual([[2, 'Two', 'open'], [7, 'Seven', 'closed'], [12, 'Twelve', 'open']]);
    expect(repo?.issues?.[1]).toMatchObject({ content_version: 3, labels: ['bug', 'kind/x'], milestone: 'v1', assignees: ['alice'] });
    expect(repo?.labels?.map((l) => l.name)).toEqual(['bug']);
    expect(seed.orgs?.find((o) => o.name === 'acme')?.labels?.map((l) => l.name)).toEqual(['kind/x']);
    expect(repo?.milestones?.map((m) => m.title)).toEqual(['v1']);
    expect(seed.users?.some((u) => u.username === 'alice')).toBe(true);
    expect(notCopied).toEqual([]);
  });
});

describe("the sandbox's seed of issues by number (what the copy relies on)", () => {
  const seed = (issues: { title: string; number?: number; content_version?: number }[]) => ({ users: [{ username: 'root', admin: true }], repos: [{ name: 'root/r', issues }] });
  it('keeps each given number and its body version; one without a number takes the next after the highest', () => {
    const state = buildState(seed([{ number: 7, title: 'Seven', content_version: 3 }, { number: 2, title: 'Two' }, { title: 'Next' }]));
    expect(state.data.issues.map((i) => [i.index, i.title, i.contentVersion])).toEqual([[7, 'Seven', 3], [2, 'Two', 0], [8, 'Next', 0]]);
  });
  it('refuses a number the repository already has', () => {
    expect(() => buildState(seed([{ number: 2, title: 'A' }, { number: 2, title: 'B' }]))).toThrow(SeedError);
    expect(() => buildState(seed([{ number: 2, title: 'A' }, { number: 2, title: 'B' }]))).toThrow('repos[0].issues[1].number: root/r already has an issue #2');
  });
});

describe('a copy the plan cannot be made against', () => {
  it('is not rehearsed, said in one line: the first three problems and how many more', async () => {
    const plan = { changes: [], policy: { prune: [], max_deletes: 10, max_delete_fraction: 0.3 } } as unknown as Plan;
    const errors = Array.from({ length: 6 }, (_, i) => `f.yaml:${i + 1}:7: issue "#${i + 1}": issue #${i + 1} does not exist`);
    const r = await rehearse({ plan, answers: [], kinds, server: { flavour: 'gitea', version: '1.25.4' }, lock: 'forgeform-lock', replan: async () => ({ plan, scopes: new Map(), errors }) });
    const line = rehearsalHeadline(r);
    expect(line).toMatch(/^Not rehearsed: the plan against the copy failed: f\.yaml:1:7: .*#3 does not exist \(and 3 more like them\)$/);
    expect(line).not.toContain('#4');
  });

  it('names, among its limits, the changes that send a write-only value (the copy holds none of the server\'s)', async () => {
    const change = { id: 'user/server:/alice', kind: 'user', scope: 'server:', key: 'alice', action: 'update', fields: [{ path: 'password', writeOnly: true, sensitive: true }], precondition: { digest: null }, depends_on: [], ops: [] };
    const plan = { changes: [change], policy: { prune: [], max_deletes: 10, max_delete_fraction: 0.3 } } as unknown as Plan;
    const r = await rehearse({ plan, answers: [], kinds, server: { flavour: 'gitea', version: '1.25.4' }, lock: 'forgeform-lock', replan: async () => ({ plan, scopes: new Map(), errors: ['x'] }) });
    expect(r.limits).toContain('write-only values (passwords, secrets, hook secrets) are never read from the server: the copy holds none of its values, so 1 change that sends one is rehearsed on what it sends, not on what the server holds');
  });
});
