/** The CLI at --concurrency 64 against the sandbox's fault injection: the same plan and apply, nothing done twice. */
import { afterEach, describe, expect, it } from 'vitest';
import { calls, world, type World } from './helpers.js';

const REPOS = 40;
const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: Array.from({ length: REPOS }, (_, i) => ({ name: `acme/r${i}`, labels: [{ name: 'old', color: '000000' }] })),
};
const config = `version: 1
repos:
  "acme/*":
    labels:
      bug: { color: ee0701 }
      docs: { color: 0075ca }
`;

let w: World;
afterEach(async () => w?.sandbox.close());

describe('--concurrency 64', () => {
  it('plans and applies under 429s (Retry-After), 5xx and dropped connections: every label created once, and the plan afterwards is empty', async () => {
    w = await world(seed, { faultRate: 0.15, faultSeed: 640, faultRetryAfter: 1 });
    const file = w.config(config);
    const args = ['-c', file, '--concurrency', '64', '--retries', '6'];
    let applied = false;
    // A POST whose answer was lost is not sent again blindly: a later run finishes the job.
    for (let run = 0; run < 6 && !applied; run++) applied = (await w.cli(['apply', '--yes', ...args])).code === 0;
    expect(applied).toBe(true);
    const faults = w.sandbox.requests().filter((r) => r.status === 429 || r.status >= 500 || r.status === 0);
    expect(faults.some((r) => r.status === 429)).toBe(true);
    const plan = await w.cli(['plan', '--detailed-exitcode', ...args]);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    // Each label exists exactly once in every repository.
    for (let i = 0; i < REPOS; i++) {
      const labels = (await w.api<{ name: string }[]>('GET', `repos/acme/r${i}/labels?limit=50`)).body.map((l) => l.name).sort();
      expect(labels).toEqual(['bug', 'docs', 'old']);
    }
    expect(calls(w.sandbox).filter((c) => c.startsWith('POST ')).length).toBeGreaterThanOrEqual(2 * REPOS);
  });
});
