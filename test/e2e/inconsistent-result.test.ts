// An inconsistent result is an error (issue 27): a write the server answers 2xx while keeping other
// values than sent fails apply, naming the object, the field and the release (Terraform's "Provider
// produced inconsistent result after apply"), so that a plan that can only be wrong does not stay green.
import { describe, expect, it } from 'vitest';
import { writes } from './helpers.js';
import { proxiedWorlds } from './proxied-world.js';

const start = proxiedWorlds();

const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets', labels: [{ name: 'a', color: '111111', description: 'old' }] }],
};
const config = `version: 1
repos:
  acme/widgets:
    labels:
      a: { color: "222222", description: "new" }
      b: { color: "333333", description: "made" }
      c: { color: "444444" }
`;

describe('a write the server does not take', () => {
  it('fails apply naming the object, the field and the release; the rest is applied, and the next plan shows the change again', async () => {
    // A server that ignores label descriptions (answering 200/201 with what it kept).
    const w = await start(seed, (r) => (r.method !== 'GET' && r.path.startsWith('repos/acme/widgets/labels') ? { type: 'drop-fields', fields: ['description'] } : undefined), { flavour: 'gitea@1.24' });
    const file = w.config(config);
    const apply = await w.viaProxy(['apply', '-c', file, '--yes'], { NO_COLOR: '1' });
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain('✗ ~ label "a" in repo:acme/widgets: inconsistent result after apply: Gitea 1.24.7 did not take description: sent "new", server kept "old"');
    expect(apply.stdout).toContain('✗ + label "b" in repo:acme/widgets: inconsistent result after apply: Gitea 1.24.7 did not take description: sent "made", server kept ""');
    expect(apply.stdout).toContain('✓ + label "c" in repo:acme/widgets');
    expect(apply.stdout).toContain('Apply incomplete! 2 created, 1 updated, 0 deleted, 0 renamed, 2 inconsistent.');
    expect(apply.stderr).toContain('error: inconsistent result after apply: the server kept other values than sent for 2 changes (✗ above), so the next plan shows them again.');
    // What was sent was sent: the colours are there, the descriptions are not.
    const labels = (await w.api<{ name: string; color: string; description: string }[]>('GET', 'repos/acme/widgets/labels')).body;
    expect(labels.map((l) => [l.name, l.color.replace('#', ''), l.description])).toEqual([
      ['a', '222222', 'old'],
      ['b', '333333', ''],
      ['c', '444444', ''],
    ]);
    w.sandbox.clearRequests();
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(again.code).toBe(2);
    expect(again.stdout).toContain('description: "old" → "new"');
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('a write answered as sent is no error', async () => {
    const w = await start(seed, undefined, { flavour: 'gitea@1.24' });
    const apply = await w.viaProxy(['apply', '-c', w.config(config), '--yes'], { NO_COLOR: '1' });
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout).not.toContain('inconsistent');
    expect(apply.stdout).toContain('Apply complete! 2 created, 1 updated, 0 deleted, 0 renamed.');
  });
});
