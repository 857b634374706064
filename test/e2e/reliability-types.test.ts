/**
 * Answers of the right form holding a value of the wrong type (an id answered as the string "2"):
 * refused, naming the request, never coerced, and nothing written on the basis of them (issue 18 §3).
 */
import { describe, expect, it } from 'vitest';
import { writes } from './helpers.js';
import { proxiedWorlds, type ProxiedWorld, type Rule } from './proxied-world.js';

const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets', labels: [{ name: 'docs', color: '0000ff' }], issues: [{ title: 'One', labels: ['docs'], author: 'root' }] }],
};

const start = proxiedWorlds();
let w: ProxiedWorld;

async function behind(config: string, rule: Rule) {
  w = await start(seed, rule);
  const file = w.config(config);
  return (args: string[]) => w.viaProxy([...args, '-c', file]);
}

/** Every id in a JSON value turned into its text: "2" instead of 2. */
function stringIds(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stringIds);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'id' && typeof x === 'number' ? String(x) : stringIds(x)]));
  return v;
}

describe('a value of the wrong type in an answer', () => {
  it("a create answering its id as a string: the create is reported failed naming the request, and the issue that would use the id is not written", async () => {
    const cli = await behind(
      'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      docs: { color: "0000ff" }\n      bug: { color: "ee0701" }\n    issues:\n      1: { labels: [docs, bug] }\n',
      (r) => (r.method === 'POST' && r.path === 'repos/acme/widgets/labels' ? { type: 'rewrite', edit: stringIds } : undefined),
    );
    const apply = await cli(['apply', '--yes']);
    expect(apply.code).toBe(1);
    expect(apply.stdout).toMatch(/✗ \+ label "bug" in repo:acme\/widgets: POST \/api\/v1\/repos\/acme\/widgets\/labels answered a value of the wrong type: "id" is the string "\d+" where a positive integer is due/);
    expect(apply.stdout).toContain('refused, and nothing is written on the basis of it');
    expect(apply.stdout).toMatch(/○ ~ issue "#1" in repo:acme\/widgets: skipped, depends on .*label.*bug.*, which failed/);
    // The label was made (the server did answer 201); the issue was never sent a label id as text.
    const issueWrites = writes(w.sandbox).filter((c) => c.includes('issues'));
    expect(issueWrites).toEqual([]);
    expect(JSON.stringify(w.sandbox.requests().map((r) => r.body))).not.toMatch(/"labels":\["/);
  });

  it('issue labels read with string ids: plan fails naming the request; --detailed-exitcode exits 1, neither 0 nor 2; apply writes nothing', async () => {
    const cli = await behind('version: 1\nrepos:\n  acme/widgets:\n    issues:\n      1: { title: Changed, labels: [docs] }\n', (r) =>
      r.method === 'GET' && r.path.startsWith('repos/acme/widgets/issues') ? { type: 'rewrite', edit: stringIds } : undefined,
    );
    const plan = await cli(['plan', '--detailed-exitcode']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/issue #1 of acme\/widgets: GET \/api\/v1\/repos\/acme\/widgets\/issues\/1 answered a value of the wrong type: "labels\[0\]\.id" is the string "\d+" where a positive integer is due/);
    expect(plan.stdout).not.toContain('No changes');
    const apply = await cli(['apply', '--yes']);
    expect(apply.code).toBe(1);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('a label list with a boolean answered as text is refused, not read as true', async () => {
    const cli = await behind('version: 1\nrepos:\n  acme/widgets:\n    labels:\n      docs: { color: "0000ff", exclusive: true }\n', (r) =>
      r.method === 'GET' && r.path === 'repos/acme/widgets/labels'
        ? { type: 'rewrite', edit: (b) => (b as Record<string, unknown>[]).map((l) => ({ ...l, exclusive: 'true' })) }
        : undefined,
    );
    const plan = await cli(['plan']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('labels of acme/widgets: GET /api/v1/repos/acme/widgets/labels answered a value of the wrong type: "[0].exclusive" is the string "true" where true or false is due');
  });
});
