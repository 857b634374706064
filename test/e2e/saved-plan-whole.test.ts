// A saved plan runs whole or not at all (issue 27): every change is checked against the server before
// the first write, and one stale change refuses the plan, naming every stale change.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, calls, runCli, world, writes, type World } from './helpers.js';

let w: World;
afterEach(async () => w?.sandbox.close());

const names = Array.from({ length: 10 }, (_, i) => `l${String(i).padStart(2, '0')}`);
const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets', labels: names.map((name) => ({ name, color: '111111' })) }],
};
// 15 changes: 10 label updates and 5 label creates.
const config = `version: 1
repos:
  acme/widgets:
    labels:
${[...names, 'n1', 'n2', 'n3', 'n4', 'n5'].map((n) => `      ${n}: { color: "222222" }`).join('\n')}
`;

async function savedPlan(): Promise<string> {
  const file = `${w.dir}/plan.json`;
  const plan = await w.cli(['plan', '-c', w.config(config), '--out', file]);
  expect(plan.code, plan.stderr).toBe(0);
  expect(JSON.parse(readFileSync(file, 'utf8')).changes).toHaveLength(15);
  return file;
}

const apply = (file: string) => runCli(['apply', file], { env: { FORGEFORM_URL: w.sandbox.url, FORGEFORM_TOKEN: ADMIN_TOKEN, NO_COLOR: '1' } });

describe('apply PLANFILE', () => {
  it('refuses the whole plan when 2 of its 15 changes are stale: no write, exit 1, both named', async () => {
    w = await world(seed);
    const file = await savedPlan();
    const labels = (await w.api<{ id: number; name: string }[]>('GET', 'repos/acme/widgets/labels')).body;
    // Between plan and apply: one label edited by hand, and one of the planned creates made by hand.
    await w.api('PATCH', `repos/acme/widgets/labels/${labels.find((l) => l.name === 'l03')?.id}`, { description: 'edited by hand' });
    await w.api('POST', 'repos/acme/widgets/labels', { name: 'n4', color: '333333' });
    w.sandbox.clearRequests();
    const r = await apply(file);
    expect(r.code).toBe(1);
    expect(writes(w.sandbox)).toEqual([]);
    expect(calls(w.sandbox).every((c) => c.startsWith('GET '))).toBe(true);
    expect(r.stdout).toContain('✗ ~ label "l03" in repo:acme/widgets: changed on the server since the plan was made (stale plan): plan again');
    expect(r.stdout).toContain('✗ + label "n4" in repo:acme/widgets: exists on the server since the plan was made (stale plan): plan again');
    expect(r.stdout).not.toContain('✓');
    expect(r.stderr).toContain('Refusing the plan file: 2 of 15 changes no longer hold on the server as it is now (✗ above), so nothing was changed. Plan again (forgeform plan --out) and apply the new plan.');
    const after = (await w.api<{ name: string; color: string }[]>('GET', 'repos/acme/widgets/labels')).body;
    expect(after.filter((l) => l.color.replace('#', '') === '222222')).toEqual([]);
  });

  it('applies the same plan whole when nothing moved on', async () => {
    w = await world(seed);
    const file = await savedPlan();
    const r = await apply(file);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(writes(w.sandbox).filter((c) => c.includes('labels'))).toHaveLength(15);
  });
});
