/** The action in a matrix of shards: each job plans its part, with its own comment and drift issue. */
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildActionDir } from './runner.js';
import { actionWorld, CONFIG, MANAGED_SEED, PR, writesTo, type ActionWorld } from './world.js';

let actionDir: string;
let w: ActionWorld;
beforeAll(() => {
  actionDir = buildActionDir();
});
afterEach(async () => w?.close());

/** gamma falls in part 1 of 2, acme in part 2 (stable FNV-1a of the owner). */
const seed = { ...MANAGED_SEED, orgs: [...MANAGED_SEED.orgs!, { name: 'gamma', owners: ['root'] }], repos: [...MANAGED_SEED.repos!, { name: 'gamma/gadgets' }] };
const config = `${CONFIG}  gamma/gadgets:
    labels:
      triage: { color: fbca04 }
`;

interface PlanFile {
  changes: { id: string }[];
}
const changesOf = (w: ActionWorld, file: string) => (JSON.parse(readFileSync(`${w.workspace}/${file}`, 'utf8')) as PlanFile).changes.map((c) => c.id).sort();

describe('input shard', () => {
  it('each part plans its owners (server-wide objects in part 1), the parts together hold the whole plan, and each keeps its own comment', async () => {
    w = await actionWorld(actionDir, { managed: seed });
    w.write('forgeform.yaml', config);
    const whole = await w.run({ 'plan-file': 'whole.json' });
    expect(whole.code, whole.stdout + whole.stderr).toBe(0);
    const parts: string[][] = [];
    for (const k of [1, 2]) {
      const r = await w.run({ shard: `${k}/2`, 'plan-file': `part-${k}.json`, comment: 'true' });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.outputs['exit-code']).toBe('2');
      parts.push(changesOf(w, `part-${k}.json`));
    }
    expect(parts[0]!.some((id) => id.startsWith('hook/'))).toBe(true);
    expect(parts[0]!.filter((id) => !id.startsWith('hook/'))).toEqual([expect.stringContaining('repo:gamma/gadgets')]);
    expect(parts[1]!.length).toBeGreaterThan(0);
    expect(parts[1]!.every((id) => id.includes('repo:acme/widgets'))).toBe(true);
    expect([...parts[0]!, ...parts[1]!].sort()).toEqual(changesOf(w, 'whole.json'));

    const comments = (await w.api<{ body: string }[]>(w.forge, 'GET', `repos/ci-bot/config/issues/${PR}/comments`)).body;
    expect(comments).toHaveLength(2);
    expect(comments.find((c) => c.body.includes('shard=1/2'))!.body).toContain('label "triage"');
    expect(comments.find((c) => c.body.includes('shard=2/2'))!.body).not.toContain('label "triage"');
    expect(writesTo(w.managed)).toEqual([]);
  });

  it('a shard that is not K/N fails the step before planning, naming the input', async () => {
    w = await actionWorld(actionDir, { managed: seed });
    w.write('forgeform.yaml', config);
    const r = await w.run({ shard: '3/2' });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('input shard must be K/N with 1 ≤ K ≤ N (e.g. 2/4, from a matrix), got "3/2"');
    expect(w.managed.requests()).toEqual([]);
  });
});
