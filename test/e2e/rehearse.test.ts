/**
 * plan --rehearse (issue 30, part 1), with the built CLI against the sandbox: the plan applied to a copy of what it
 * read (same fork and release), then planned again there; reported in every format, exit 4 when it fails, and not
 * one request to the server beyond the plan's own reads.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTRACT_SEED } from '../support/contract.js';
import { calls, world, writes, type World } from './helpers.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/contract/', import.meta.url));
/** The plan-time release check off: for this test only (src/cli/commands/plan.ts, docs/cli.md). */
const NO_RELEASE_CHECK = { FORGEFORM_INTERNAL_SKIP_RELEASE_CHECK: '1', FUZZ_SECRET: 'a-long-fuzzed-secret-value' };

const worlds: World[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.sandbox.close();
});
async function on(flavour: string): Promise<World> {
  const w = await world(CONTRACT_SEED, { flavour });
  worlds.push(w);
  return w;
}

const CHANGES = `version: 1
orgs:
  acme:
    labels:
      org-bug: { color: "00ff00" }
      new-org: { color: "123456" }
repos:
  acme/widgets:
    labels:
      bug: { color: "ee0701", description: "broken" }
      feature: { color: "00aabb" }
    branch_protections:
      main: { required_approvals: 1 }
    webhooks:
      - url: https://ci.example.com/widgets
        type: gitea
        content_type: json
        events: [push]
`;

describe('plan --rehearse', () => {
  it('a clean rehearsal: every change applied to the copy, the plan after it empty; the server gets the plan\'s reads and nothing else', { timeout: 60_000 }, async () => {
    const w = await on('gitea@1.25');
    const file = w.config(CHANGES);
    const plain = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plain.code, plain.stderr).toBe(2);
    const reads = calls(w.sandbox);
    w.sandbox.clearRequests();
    const r = await w.cli(['plan', '-c', file, '--rehearse', '--detailed-exitcode']);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stdout).toContain('Rehearsed on a copy of gitea 1.25.4: 6 changes applied, 0 failed; the plan after it is empty');
    // Its limits, from the flavour's own data.
    expect(r.stdout).toContain('Limit: not played by the sandbox: git content');
    expect(r.stdout).toContain('Limit: not played by the sandbox: blocked users');
    // The same requests as the plan without it: no second pass over the server, nothing written.
    expect(calls(w.sandbox).sort()).toEqual([...reads].sort());
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('says it in markdown (the PR comment) and in JSON', { timeout: 60_000 }, async () => {
    const w = await on('gitea@1.25');
    const file = w.config(CHANGES);
    const md = await w.cli(['plan', '-c', file, '--rehearse', '--format', 'markdown']);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('**Rehearsed on a copy of gitea 1.25.4: 6 changes applied, 0 failed; the plan after it is empty**');
    expect(md.stdout).toContain('<details><summary>What the rehearsal does not show</summary>');
    const json = await w.cli(['plan', '-c', file, '--rehearse', '--format', 'json']);
    const plan = JSON.parse(json.stdout) as { rehearsal: { release: string; rehearsed: boolean; applied: number; problems: unknown[]; limits: string[] } };
    expect(plan.rehearsal).toMatchObject({ release: 'gitea 1.25.4', rehearsed: true, applied: 6, problems: [] });
    expect(plan.rehearsal.limits.length).toBeGreaterThan(0);
  });

  it('a plan with nothing to change rehearses to an empty plan, and a saved plan file holds no rehearsal', { timeout: 60_000 }, async () => {
    const w = await on('gitea@1.25');
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: "ee0701" }\n');
    const out = join(w.dir, 'plan.json');
    const r = await w.cli(['plan', '-c', file, '--rehearse', '--detailed-exitcode', '--out', out]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Rehearsed on a copy of gitea 1.25.4: 0 changes applied, 0 failed; the plan after it is empty');
    expect(readFileSync(out, 'utf8')).not.toContain('rehearsal');
  });

  it('a release the sandbox does not play is not rehearsed, and says so: the plan stands (exit 2, not 4)', { timeout: 60_000 }, async () => {
    const w = await on('forgejo@11');
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    labels:\n      feature: { color: "00aabb" }\n');
    const r = await w.cli(['plan', '-c', file, '--rehearse', '--detailed-exitcode', '--server-version', 'forgejo@9']);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stdout).toContain('Not rehearsed: the sandbox does not play Forgejo 9.0.0 (the sandbox plays gitea@1.21,');
  });

  it('a failing rehearsal: the change the copy refuses, with its request and the answer; exit 4', { timeout: 60_000 }, async () => {
    const w = await on('gitea@1.21');
    // Gitea 1.21 binds FullName with MaxSize(100): the plan-time check refuses it; turned off, the rehearsal must say it.
    const file = w.config(`version: 1\norgs:\n  acme:\n    full_name: "${'x'.repeat(120)}"\n`);
    const r = await w.cli(['plan', '-c', file, '--rehearse', '--detailed-exitcode'], NO_RELEASE_CHECK);
    expect(r.code, r.stdout + r.stderr).toBe(4);
    expect(r.stdout).toContain('Rehearsed on a copy of gitea 1.21.11: 0 changes applied, 1 failed');
    expect(r.stdout).toMatch(/Failed: org\/server:\/acme: PATCH \/api\/v1\/orgs\/acme → 422 .*MaxSize/);
    expect(r.stdout).toContain('    PATCH /api/v1/orgs/acme');
    expect(r.stderr).toContain('The rehearsal failed');
    expect(writes(w.sandbox)).toEqual([]);
  });
});

/**
 * The convergence defects of issue 27 that the plan-time release check now refuses (test/fixtures/contract/): with
 * that check off, the plan goes through, and the rehearsal reports each one (apply would have failed, or the
 * plan after it would not be empty), before anything touched the server.
 */
describe.each([
  ['issue27-org-lengths.yaml', /Failed: org\/server:\/acme: PATCH \/api\/v1\/orgs\/acme → 422/],
  ['issue27-hook-branch-filter-glob.yaml', /Failed: repo_webhook\/repo:acme\/widgets\/.*POST \/api\/v1\/repos\/acme\/widgets\/hooks → 422/],
  ['issue27-gated-merge-settings.yaml', /Would not converge: repo_settings\/repo:acme\/widgets\/acme\/widgets: the plan after it still has this change/],
])('the case kept in %s, its plan-time check off', (name, reported) => {
  it('is reported by the rehearsal, with exit 4, and nothing is written', { timeout: 60_000 }, async () => {
    const text = readFileSync(join(FIXTURES, name), 'utf8');
    const flavour = (/^# flavours?: (\S+)/m.exec(text)?.[1] ?? 'gitea@1.26');
    const w = await on(flavour);
    const file = w.config(text);
    // With the check, the plan refuses it at its place (the defect is known at plan time).
    const checked = await w.cli(['plan', '-c', file, '--detailed-exitcode'], { FUZZ_SECRET: NO_RELEASE_CHECK.FUZZ_SECRET });
    expect(checked.code, checked.stdout + checked.stderr).toBe(1);
    const r = await w.cli(['plan', '-c', file, '--rehearse', '--detailed-exitcode'], NO_RELEASE_CHECK);
    expect(r.code, r.stdout + r.stderr).toBe(4);
    expect(r.stdout).toMatch(reported);
    expect(writes(w.sandbox)).toEqual([]);
  });
});
