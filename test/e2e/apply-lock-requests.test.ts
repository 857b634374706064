/**
 * apply's lock costs its own requests and nothing more (issue 21: the large benchmark's apply at its
 * request floor). The lock's removal (`DELETE orgs/forgeform-lock`) and renewal are writes under the
 * API's root; taken for writes that rest on the lists read, they made the client read the page after
 * every list that had ended on X-Total-Count's word (an organisation of exactly 50 repositories: one
 * GET more), although no list decides anything about the lock. A team's delete and PATCH
 * (`teams/{id}`, a path under the root too) did the same: they rest on their organisation's team list only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { lockCalls, requestsTo } from '../support/requests.js';
import { calls, world, type World } from './helpers.js';

const worlds: World[] = [];
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.sandbox.close()));
});

// 50 repositories: the organisation's repository list is one full page whose X-Total-Count says 50,
// so it ends on the header's word, and only a write under orgs/acme/ needs its page 2 read.
const REPOS = Array.from({ length: 50 }, (_, i) => `acme/repo-${String(i).padStart(2, '0')}`);
const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'], teams: [{ name: 'retired', permission: 'read', members: [], repos: [] }] }],
  repos: REPOS.map((name) => ({ name, labels: [{ name: 'bug', color: 'ee0701' }] })),
};
const labelsOnly = `version: 1
repos:
  "acme/*":
    labels:
      bug: { color: ee0701 }
  acme/repo-00:
    labels:
      feature: { color: 00aa00 }
`;
const LOCK = ['POST orgs', 'GET orgs/forgeform-lock', 'DELETE orgs/forgeform-lock'];

async function applied(config: string, extra: string[] = []) {
  const w = await world(seed);
  worlds.push(w);
  const apply = await w.cli(['apply', '--yes', '-c', w.config(config), ...extra]);
  expect(apply.stderr).not.toMatch(/warning|error/i);
  expect(apply.code).toBe(0);
  return w;
}

describe("apply's lock costs its own requests and nothing more", () => {
  it('with the lock, apply sends the floor (the same requests as with --no-lock) plus the lock\'s three: its release proves no list', async () => {
    const locked = await applied(labelsOnly);
    const unlocked = await applied(labelsOnly, ['--no-lock']);
    // The floor: the preflight (2), the repository list (1 page), 50 label lists, the create, and the
    // re-read of the labels where it created one (src/apply/concurrent.ts).
    const floor = 2 + 1 + REPOS.length + 1 + 1;
    expect(calls(unlocked.sandbox)).toHaveLength(floor);
    expect(calls(locked.sandbox).sort()).toEqual(calls(unlocked.sandbox).sort());
    expect(lockCalls(locked.sandbox)).toEqual(LOCK);
    expect(locked.sandbox.requests()).toHaveLength(floor + LOCK.length);
    // No write under orgs/acme/: the list's page 2 is never needed.
    expect(requestsTo(locked.sandbox, 'GET', 'orgs/acme/repos').map((r) => r.query.page)).toEqual(['1']);
  });

  it('a write under the organisation (a team create) still reads the page that proves its repository list first, once', async () => {
    const w = await applied(`${labelsOnly}orgs:\n  acme:\n    teams:\n      devs: { permission: admin }\n`);
    const log = w.sandbox.requests().map((r) => `${r.method} ${r.path.replace(/^\/api\/v1\//, '')}${r.query.page ? ` page ${r.query.page}` : ''}`);
    expect(log.filter((l) => l.startsWith('GET orgs/acme/repos'))).toEqual(['GET orgs/acme/repos page 1', 'GET orgs/acme/repos page 2']);
    expect(log.indexOf('GET orgs/acme/repos page 2')).toBeLessThan(log.indexOf('POST orgs/acme/teams'));
    expect(lockCalls(w.sandbox)).toEqual(LOCK);
  });

  it('a team deleted (DELETE teams/{id}) proves its organisation\'s team list, not the repository list beside it', async () => {
    const w = await applied(`version: 1\npolicy:\n  prune: [teams]\n${labelsOnly.slice('version: 1\n'.length)}orgs:\n  acme:\n    teams:\n      Owners: { members: [root] }\n`);
    expect(requestsTo(w.sandbox, 'DELETE', 'teams/2')).toHaveLength(1);
    expect(requestsTo(w.sandbox, 'GET', 'orgs/acme/repos').map((r) => r.query.page)).toEqual(['1']);
    expect(lockCalls(w.sandbox)).toEqual(LOCK);
  });

  it("an organisation's edit (PATCH orgs/acme, under the root) proves the organisation list it was read from, not the repository list", async () => {
    const w = await applied(`${labelsOnly}orgs:\n  acme:\n    description: Widgets\n`);
    expect(requestsTo(w.sandbox, 'PATCH', 'orgs/acme')).toHaveLength(1);
    expect(requestsTo(w.sandbox, 'GET', 'orgs/acme/repos').map((r) => r.query.page)).toEqual(['1']);
    expect(lockCalls(w.sandbox)).toEqual(LOCK);
  });
});

// A repository of exactly 50 labels: its label list ends on X-Total-Count's word, and only a write under
// repos/acme/big/ needs its page 2.
const bigSeed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [
    { name: 'acme/big', labels: Array.from({ length: 50 }, (_, i) => ({ name: `l${String(i).padStart(2, '0')}`, color: 'ee0701' })) },
    { name: 'acme/small', labels: [] },
  ],
};

describe("a repository's edit rests on that repository alone", () => {
  it("a settings edit of one repository (PATCH repos/acme/small) does not prove another repository's label list", async () => {
    const w = await world(bigSeed);
    worlds.push(w);
    const config = `version: 1\nrepos:\n  acme/big:\n    labels:\n${Array.from({ length: 50 }, (_, i) => `      l${String(i).padStart(2, '0')}: { color: ee0701 }`).join('\n')}\n  acme/small:\n    settings:\n      description: Small\n`;
    const apply = await w.cli(['apply', '--yes', '-c', w.config(config)]);
    expect(apply.code).toBe(0);
    expect(requestsTo(w.sandbox, 'PATCH', 'repos/acme/small')).toHaveLength(1);
    expect(requestsTo(w.sandbox, 'GET', 'repos/acme/big/labels').map((r) => r.query.page)).toEqual(['1']);
  });
});
