import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, world, type World } from './helpers.js';

const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: Array.from({ length: 30 }, (_, i) => ({ name: `acme/r${i}`, labels: [{ name: 'old', color: '000000' }] })),
};
const config = `version: 1
policy: { prune: [labels], max_deletes: 30 } # 30 deletions on purpose: above the default max_deletes (10)
repos:
  "acme/*":
    labels:
      bug: { color: ee0701 }
      docs: { color: "0000ff" }
    branch_protections:
      main: { enable_push: false, required_approvals: 1 }
`;

let w: World;
afterEach(async () => w?.sandbox.close());

describe('an unreliable server', () => {
  it('plan retries reads through 5xx, 429 and dropped connections', async () => {
    w = await world(seed, { faultRate: 0.2 });
    const plan = await w.cli(['plan', '-c', w.config(config)], { FORGEFORM_RETRY_LIMIT: '10' });
    expect(plan.stderr).not.toMatch(/error/i);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('Plan: 90 to create, 0 to update, 30 to delete, 0 to rename.');
    const statuses = w.sandbox.requests().map((r) => r.status);
    expect(statuses.some((s) => s >= 500 || s === 429 || s === 0)).toBe(true);
  });

  it('apply never repeats a create blindly; running it again finishes the job', async () => {
    // Retry-After 0: a 429 pauses the whole client, and with 1 s pauses this test would mostly wait.
    w = await world(seed, { faultRate: 0.25, faultRetryAfter: 0 });
    const file = w.config(config);
    const env = { FORGEFORM_RETRY_LIMIT: '10' };
    let last = await w.cli(['apply', '-c', file, '--yes'], env);
    expect(last.code).toBe(1); // with 120 writes, some POST or PATCH met a fault and was not retried
    for (let i = 0; i < 10 && last.code !== 0; i++) last = await w.cli(['apply', '-c', file, '--yes'], env);
    expect(last.code).toBe(0);
    w.sandbox.clearRequests();
    const labels = await Promise.all(seed.repos.map((r) => w.api<{ name: string }[]>('GET', `repos/${r.name}/labels`)));
    // no label was created twice, however many POSTs failed on the way
    for (const l of labels) expect(l.body.map((x) => x.name).sort()).toEqual(['bug', 'docs']);
  });
});

describe('forgeform sandbox', () => {
  it('prints its URL and token first, and serves the API with that token', async () => {
    const child = spawn(process.execPath, [CLI, 'sandbox', '--token', 'cli-sandbox-token'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
      const m = /^forgeform sandbox listening on (http:\/\/127\.0\.0\.1:\d+) \(token: cli-sandbox-token\)$/.exec(line);
      expect(m).not.toBeNull();
      const me = await fetch(`${m![1]}/api/v1/user`, { headers: { authorization: 'token cli-sandbox-token' } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { is_admin: boolean }).is_admin).toBe(true);
      const bad = await fetch(`${m![1]}/api/v1/version`, { headers: { authorization: 'token nope' } });
      expect(bad.status).toBe(401);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

