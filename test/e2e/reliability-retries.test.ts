/**
 * Retries that match what the server did: an answer that proves nothing was done is sent again,
 * whatever the method; an unknown outcome is sent again only when repeating it is harmless.
 */
import { describe, expect, it } from 'vitest';
import { firstTimes, type ProxiedRequest } from '../support/misbehaving-proxy.js';
import type { ApiLabel } from '../support/api-types.js';
import { calls } from './helpers.js';
import { proxiedWorlds, type ProxiedWorld, type Rule } from './proxied-world.js';

const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets', labels: [{ name: 'old', color: '999999' }], branch_protections: [{ rule_name: 'legacy' }] }],
};
const config = `version: 1
policy: { prune: [labels, branch_protections] }
repos:
  acme/widgets:
    labels:
      bug: { color: ee0701 }
      docs: { color: "0000ff" }
      triage: { color: "00ff00" }
    branch_protections: {}
`;

const start = proxiedWorlds();
let w: ProxiedWorld;

async function behind(rule: Rule) {
  w = await start(seed, rule);
  const file = w.config(config);
  return (args: string[], env: NodeJS.ProcessEnv = {}) => w.viaProxy([...args, '-c', file], env);
}

const labelNames = async () => (await w.api<ApiLabel[]>('GET', 'repos/acme/widgets/labels?limit=50')).body.map((l) => l.name).sort();
const isPost = (r: ProxiedRequest) => r.method === 'POST' && r.path === 'repos/acme/widgets/labels';

describe('writes', () => {
  it.each([
    ['503', { type: 'status', status: 503, body: 'Service Unavailable' }],
    ['429', { type: 'status', status: 429, headers: { 'retry-after': '0' }, body: 'Too Many Requests' }],
  ] as const)('a POST answered %s was not processed: it is sent again and the label is created once', async (_name, how) => {
    const cli = await behind(firstTimes(3, isPost, how));
    const apply = await cli(['apply', '--yes']);
    expect(apply.stderr).not.toMatch(/error|failed/i);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('Apply complete! 3 created, 0 updated, 2 deleted');
    expect(await labelNames()).toEqual(['bug', 'docs', 'triage']);
    // each create reached the server exactly once
    expect(calls(w.sandbox).filter((c) => c === 'POST repos/acme/widgets/labels')).toHaveLength(3);
  });

  it('a DELETE whose answer was lost after the server did it counts as done when its retry finds nothing', async () => {
    const cli = await behind(firstTimes(1, (r) => r.method === 'DELETE' && r.path.includes('branch_protections'), { type: 'drop-after' }));
    const apply = await cli(['apply', '--yes']);
    expect(apply.stdout).toContain('Apply complete! 3 created, 0 updated, 2 deleted');
    expect(apply.code).toBe(0);
    const deletes = w.sandbox.requests().filter((r) => r.method === 'DELETE' && r.path.includes('branch_protections'));
    expect(deletes.map((d) => d.status)).toEqual([204, 404]);
  });

  it('a POST whose answer was lost is not sent again blindly: the label is re-read and found', async () => {
    const cli = await behind(firstTimes(3, isPost, { type: 'drop-after' }));
    const apply = await cli(['apply', '--yes']);
    expect(apply.code).toBe(0);
    expect(await labelNames()).toEqual(['bug', 'docs', 'triage']);
    expect(calls(w.sandbox).filter((c) => c === 'POST repos/acme/widgets/labels')).toHaveLength(3);
  });

  it('a POST answered 500 is not repeated: apply reports it, and --retries 0 keeps even a 503 to one try', async () => {
    const cli = await behind(firstTimes(1, isPost, { type: 'status', status: 500, body: '{"message":"database is locked"}' }));
    const apply = await cli(['apply', '--yes']);
    expect(apply.code).toBe(1);
    expect(apply.stdout).toMatch(/✗ \+ label "\w+" in repo:acme\/widgets: POST \/api\/v1\/repos\/acme\/widgets\/labels → 500 Internal Server Error: database is locked/);

    w.misbehave(firstTimes(1, isPost, { type: 'status', status: 503, body: 'Service Unavailable' }));
    const again = await cli(['apply', '--yes', '--retries', '0']);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/POST \/api\/v1\/repos\/acme\/widgets\/labels → 503 Service Unavailable: Service Unavailable/);
  });
});

describe('reads', () => {
  it('are sent again more patiently than writes: 5 failures in a row with --retries 2 still plan', async () => {
    const cli = await behind(firstTimes(5, (r) => r.method === 'GET' && r.path === 'repos/acme/widgets/labels', { type: 'status', status: 502, body: 'Bad Gateway' }));
    const plan = await cli(['plan', '--retries', '2']);
    expect(plan.stderr).not.toMatch(/error/i);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('Plan: 3 to create, 0 to update, 2 to delete, 0 to rename.');
    expect(plan.stderr).toMatch(/\d+ requests \(5 retried\)\./);
    // The waits are not silent: a line says what is retried, why, which retry of how many, and when.
    expect(plan.stderr).toMatch(/^retrying GET \/api\/v1\/repos\/acme\/widgets\/labels: answered 502 Bad Gateway; retry 1 of 10, in \d+\.\d s$/m);
  });

  it('a read that still fails names its operation and how often it was tried', async () => {
    const cli = await behind((r) => (r.method === 'GET' && r.path === 'repos/acme/widgets/labels' ? { type: 'status', status: 502, body: 'Bad Gateway' } : undefined));
    const plan = await cli(['plan', '--retries', '1']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/labels of acme\/widgets: GET \/api\/v1\/repos\/acme\/widgets\/labels → 502 Bad Gateway: Bad Gateway .*\(tried 6 times\)/);
    expect(plan.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('a plan of 180 reads at a 50% fault rate', () => {
  it('finishes with the default retry budget, and says how many requests were retried', { timeout: 120_000 }, async () => {
    const repos = Array.from({ length: 90 }, (_, i) => ({ name: `acme/r${String(i).padStart(2, '0')}`, labels: [{ name: 'bug', color: 'ee0701' }] }));
    w = await start({ ...seed, repos }, undefined, { faultRate: 0.5, faultSeed: 7, faultRetryAfter: 0 });
    const file = w.config('version: 1\nrepos:\n  "acme/*":\n    labels:\n      bug: { color: ee0701 }\n    branch_protections:\n      main: { required_approvals: 1 }\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.stderr).not.toMatch(/error/i);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('Plan: 90 to create, 0 to update, 0 to delete, 0 to rename.');
    const reads = new Set(w.sandbox.requests().map((r) => `${r.path}?${new URLSearchParams(r.query).toString()}`));
    expect(reads.size).toBeGreaterThanOrEqual(180);
    const retried = Number(/\((\d+) retried\)/.exec(plan.stderr)?.[1]);
    console.log(`plan at 50% faults: ${reads.size} distinct reads, ${retried} retried`);
    expect(retried).toBeGreaterThan(50);
  });
});
