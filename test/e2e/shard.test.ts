import { afterEach, describe, expect, it } from 'vitest';
import { calls, world, type World } from './helpers.js';

/** Six organisations of three repositories, each with labels and issues that name the organisation's labels. */
const ORGS = ['acme', 'beta', 'gamma', 'delta', 'eps', 'zeta'];
const seed = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com' },
  ],
  orgs: ORGS.map((name) => ({ name, owners: ['root'], labels: [{ name: 'kind/bug', color: 'ee0701' }] })),
  repos: ORGS.flatMap((org) => ['a', 'b', 'c'].map((r) => ({ name: `${org}/${r}`, labels: [{ name: 'old', color: '000000' }], issues: [{ title: 'One', author: 'alice' }] }))),
};

const config = `version: 1
policy: { prune: [labels], max_delete_fraction: 1, max_deletes: 100 }
users:
  alice: { full_name: Alice }
  carol: { email: carol@example.com, full_name: Carol, password: "\${CAROL_PASSWORD}" }
orgs:
${ORGS.map((o) => `  ${o}:\n    labels:\n      kind/feature: { color: "0288d1" }`).join('\n')}
  newco: { owner: root, full_name: New Co }
repos:
${ORGS.map((o) => `  "${o}/*":\n    labels:\n      bug: { color: ee0701 }`).join('\n')}
  acme/a:
    issues:
      1: { labels: [bug, kind/feature] }
  zeta/c:
    issues:
      1: { labels: [kind/feature], state: closed }
`;

interface JsonPlan {
  changes: { id: string }[];
}

let w: World;
afterEach(async () => w?.sandbox.close());

describe('--shard K/N', () => {
  it('the N shard plans together hold exactly the changes of the whole plan, each once; shard 1 alone holds the server-wide ones', async () => {
    w = await world(seed);
    const file = w.config(config);
    const env = { CAROL_PASSWORD: 'correct-horse-battery' };
    const plan = async (...extra: string[]) => {
      const r = await w.cli(['plan', '-c', file, '--format', 'json', ...extra], env);
      expect(r.stderr).not.toContain('error');
      expect(r.code, r.stdout.slice(-300) + r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as JsonPlan).changes.map((c) => c.id);
    };
    const whole = await plan();
    expect(whole.length).toBeGreaterThan(40);
    for (const n of [2, 3, 5]) {
      const parts: string[][] = [];
      for (let k = 1; k <= n; k++) parts.push(await plan('--shard', `${k}/${n}`));
      expect([...parts.flat()].sort()).toEqual([...whole].sort());
      // users (server-wide) only in shard 1; an organisation and its repositories' changes in one shard
      for (const [k, part] of parts.entries()) {
        if (k > 0) expect(part.filter((id) => id.startsWith('user '))).toEqual([]);
        for (const org of ORGS) {
          const mine = part.filter((id) => id.includes(` org:${org} `) || id.includes(` repo:${org}/`));
          if (mine.length) expect(whole.filter((id) => id.includes(` org:${org} `) || id.includes(` repo:${org}/`)).sort()).toEqual([...mine].sort());
        }
      }
      // shards split the work: none reads every repository
      expect(parts.filter((p) => p.length > 0).length).toBeGreaterThan(1);
    }
    // the same cut every run
    expect(await plan('--shard', '2/3')).toEqual(await plan('--shard', '2/3'));
  });

  it('applying every shard leaves the server as applying the whole does: a plan afterwards is empty; shard 2 reads only its own repositories', async () => {
    w = await world(seed);
    const file = w.config(config);
    const env = { CAROL_PASSWORD: 'correct-horse-battery' };
    w.sandbox.clearRequests();
    const two = await w.cli(['apply', '-c', file, '--yes', '--shard', '2/2'], env);
    expect(two.code).toBe(0);
    const read = new Set(calls(w.sandbox).filter((c) => /^GET repos\/[^/]+\/[^/]+\/labels$/.test(c)));
    expect(read.size).toBeGreaterThan(0);
    expect(read.size).toBeLessThan(ORGS.length * 3);
    expect((await w.cli(['apply', '-c', file, '--yes', '--shard', '1/2'], env)).code).toBe(0);
    const after = await w.cli(['plan', '-c', file], env);
    expect(after.stdout).toContain('No changes.');
  });

  it('shards 2..N read no server-wide list (users, admin hooks, runners, organisations) and no owner of another shard; shard 1 reads the server-wide ones', async () => {
    w = await world({
      ...seed,
      hooks: [{ type: 'gitea', config: { url: 'https://ci.example.com/x', content_type: 'json', is_system_webhook: true }, events: ['push'], active: true }],
      actions: { runners: [{ name: 'build-1' }] },
    });
    const withServerWide = `${config}hooks:
  - { url: https://ci.example.com/x, events: [push], content_type: json, active: true }
actions:
  runners:
    build-1: {}
`;
    const file = w.config(withServerWide);
    const env = { CAROL_PASSWORD: 'correct-horse-battery' };
    const SERVER_WIDE = /^GET (admin\/(users|hooks|orgs|actions\/runners|emails)|user)$/;
    const reads: string[][] = [];
    for (const k of [1, 2, 3]) {
      w.sandbox.clearRequests();
      const r = await w.cli(['plan', '-c', file, '--shard', `${k}/3`], env);
      expect(r.stderr).not.toContain('error');
      expect(r.code, r.stderr).toBe(0);
      reads.push(calls(w.sandbox));
    }
    expect(reads[0]!.filter((c) => SERVER_WIDE.test(c))).toEqual(expect.arrayContaining(['GET admin/users', 'GET admin/hooks', 'GET admin/actions/runners']));
    for (const [i, sent] of reads.entries()) {
      if (i > 0) expect(sent.filter((c) => SERVER_WIDE.test(c) && c !== 'GET admin/orgs')).toEqual([]);
      // every owner's lists are read by one shard only, but for those shard 1 reads to tell the global runners from the
      // others (Gitea's runner answer has no scope: src/kinds/runner/scopes.ts), each owner's runners and repositories
      // and each repository's runners
      const runnerScope = (c: string) => /^GET (orgs\/[^/]+\/(actions\/runners|repos)|repos\/[^/]+\/[^/]+\/actions\/runners)$/.test(c);
      if (i > 0) expect(sent.filter((c) => runnerScope(c) && c.endsWith('/actions/runners'))).toEqual([]);
      for (const org of ORGS) {
        const readers = reads.filter((r) => r.some((c) => !runnerScope(c) && (c.startsWith(`GET orgs/${org}/`) || c.startsWith(`GET repos/${org}/`))));
        expect(readers.length, org).toBe(1);
      }
    }
    for (const org of ORGS) expect(reads[0]).toContain(`GET orgs/${org}/actions/runners`);
    // the organisation list only where an organisation with owner (newco) is planned, and in shard 1, whose runners need
    // every organisation's runner list
    expect(reads[0]).toContain('GET admin/orgs');
    expect(reads.slice(1).filter((r) => r.includes('GET admin/orgs'))).toHaveLength(1);
  });

  it('a malformed --shard is an error naming the option, before any request', async () => {
    w = await world(seed);
    const file = w.config(config);
    for (const bad of ['0/2', '3/2', 'x', '1/0', '1/2/3']) {
      const r = await w.cli(['plan', '-c', file, '--shard', bad], { CAROL_PASSWORD: 'correct-horse-battery' });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`--shard must be K/N with 1 ≤ K ≤ N (the K-th of N parts), got "${bad}"`);
    }
    expect(calls(w.sandbox)).toEqual([]);
  });
});
