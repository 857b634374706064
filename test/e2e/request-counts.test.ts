// "N requests in all" is every request the run sent (issue 27): the version check, the lock and its
// release, and the reads for duplicates after the writes, counted as the server's own log counts them.
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, runCli, world, type World } from './helpers.js';

let w: World;
afterEach(async () => w?.sandbox.close());

const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets', labels: [{ name: 'a', color: '111111' }] }],
};
const config = `version: 1
repos:
  acme/widgets:
    labels:
      a: { color: "222222" }
      b: { color: "333333" }
`;

/** The counts a command prints on stderr, and what the sandbox received meanwhile. */
async function counted(args: string[]): Promise<{ said: number[]; received: number; code: number }> {
  w.sandbox.clearRequests();
  const r = await runCli(args, { env: { FORGEFORM_URL: w.sandbox.url, FORGEFORM_TOKEN: ADMIN_TOKEN, NO_COLOR: '1' }, cwd: w.dir });
  const said = [...r.stderr.matchAll(/^(\d+) write requests \((\d+) in all\)\.$|^(\d+) requests\.$/gm)].map((m) => Number(m[2] ?? m[3]));
  return { said, received: w.sandbox.requests().length, code: r.code ?? -1 };
}

describe('request counts', () => {
  it('plan, apply -c and apply PLANFILE each say as many requests in all as the sandbox received', async () => {
    w = await world(seed);
    const file = w.config(config);
    const plan = await counted(['plan', '-c', file, '--out', `${w.dir}/plan.json`]);
    expect(plan).toEqual({ said: [plan.received], received: plan.received, code: 0 });
    const saved = await counted(['apply', `${w.dir}/plan.json`]);
    expect(saved).toEqual({ said: [saved.received], received: saved.received, code: 0 });
    w.config(config.replace('333333', '444444'));
    const apply = await counted(['apply', '-c', file, '--yes']);
    expect(apply).toEqual({ said: [apply.received], received: apply.received, code: 0 });
    // The lock's create, read and removal are among them.
    expect(w.sandbox.requests().filter((r) => r.path.includes('forgeform-lock') || r.path === '/api/v1/orgs').length).toBeGreaterThanOrEqual(3);
  });
});
