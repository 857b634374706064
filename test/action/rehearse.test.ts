/**
 * The Action's `rehearse` input (issue 30): on by default for pull requests, the plan is rehearsed on a copy of what
 * it read and the comment says so; a failed rehearsal fails the step (exit-code 4) after the comment says why; the
 * managed server gets the plan's reads and nothing else.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildActionDir } from './runner.js';
import { actionWorld, CONFIG, PR, writesTo, type ActionWorld } from './world.js';

let actionDir: string;
let w: ActionWorld;
beforeAll(() => {
  actionDir = buildActionDir();
});
afterEach(async () => w?.close());

const comments = async (w: ActionWorld) => (await w.api<{ id: number; body: string }[]>(w.forge, 'GET', `repos/ci-bot/config/issues/${PR}/comments`)).body;
const reads = (w: ActionWorld) => w.managed.requests().filter((r) => r.method === 'GET').map((r) => `${r.method} ${r.path}`).sort();

describe('the action on a pull request: rehearse', () => {
  it('rehearses by default and says so in the comment and the summary; nothing but the plan\'s reads reaches the server', { timeout: 120_000 }, async () => {
    w = await actionWorld(actionDir);
    w.write('forgeform.yaml', CONFIG);
    const off = await w.run({ rehearse: 'false' });
    expect(off.code, off.stdout + off.stderr).toBe(0);
    expect(off.summary).not.toContain('Rehearsed');
    const planReads = reads(w);
    w.managed.clearRequests();
    const r = await w.run({ comment: 'true' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs['exit-code']).toBe('2');
    const line = '**Rehearsed on a copy of gitea 1.26.0: 3 changes applied, 0 failed; the plan after it is empty**';
    expect(r.summary).toContain(line);
    const [c] = await comments(w);
    expect(c!.body).toContain(line);
    expect(c!.body).toContain('What the rehearsal does not show');
    expect(reads(w)).toEqual(planReads);
    expect(writesTo(w.managed)).toEqual([]);
  });

  it('a failed rehearsal: the comment names the change and the answer, and the step fails with exit-code 4', { timeout: 120_000 }, async () => {
    w = await actionWorld(actionDir);
    // A branch filter Gitea cannot compile: refused at plan time by the release check, which this test turns off.
    w.write('forgeform.yaml', 'version: 1\nrepos:\n  acme/widgets:\n    webhooks:\n      - { url: "https://ci.example.com/glob", type: gitea, events: [push], branch_filter: "{main" }\n');
    const r = await w.run({ comment: 'true' }, { env: { FORGEFORM_INTERNAL_SKIP_RELEASE_CHECK: '1' } });
    expect(r.code).toBe(1);
    expect(r.outputs['exit-code']).toBe('4');
    expect(r.stdout).toMatch(/::error::The rehearsal failed: Rehearsed on a copy of gitea 1\.26\.0: 0 changes applied, 1 failed/);
    const [c] = await comments(w);
    expect(c!.body).toContain('0 changes applied, 1 failed');
    expect(c!.body).toMatch(/Failed: repo_webhook\/repo:acme\/widgets\/.*POST \/api\/v1\/repos\/acme\/widgets\/hooks → 422/);
    expect(writesTo(w.managed)).toEqual([]);
  });
});
