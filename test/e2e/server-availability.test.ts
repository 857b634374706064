import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { calls, runCli, world, type World } from './helpers.js';
import { rootAnd, rootAndAcme } from '../support/seeds.js';

/**
 * A config value the server's release lacks (the server would ignore it, so it would never converge;
 * or a kind it has no routes for) is a plan error at its place, found right after the preflight: the
 * sandbox, playing each release, must see nothing but the version requests.
 */

const seed: SeedFile = rootAndAcme({ users: rootAnd('alice'), repos: [{ name: 'acme/widgets' }] });

/** Only the preflight reached the server: GET /version (and Forgejo's own version route). */
const onlyPreflight = (w: World) => {
  expect(calls(w.sandbox)).toContain('GET version');
  expect(calls(w.sandbox).filter((c) => !c.endsWith('version'))).toEqual([]);
};

/** The line and column of the first occurrence of `text` in a config (1-based), as errors point at it. */
function placeIn(yaml: string, text: string): string {
  const before = yaml.slice(0, yaml.indexOf(text)).split('\n');
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

const protection = (fields: string) => `version: 1
repos:
  acme/widgets:
    branch_protections:
      main:
        enable_push: true
${fields}`;

describe('fields a release lacks: a plan error at their place, before any state is read', () => {
  const worlds: Record<string, World> = {};
  beforeAll(async () => {
    const flavours = ['forgejo@11', 'gitea@1.25', 'gitea@1.21'];
    const made = await Promise.all(flavours.map((flavour) => world(seed, { flavour })));
    flavours.forEach((f, i) => (worlds[f] = made[i]!));
  });
  afterAll(async () => Promise.all(Object.values(worlds).map((w) => w.sandbox.close())));

  it('priority against Forgejo 11 names the field, the releases that have it and the server, at file:line:col', async () => {
    const w = worlds['forgejo@11']!;
    const yaml = protection('        priority: 1\n        required_approvals: 1\n');
    const file = w.config(yaml, 'priority.yaml');
    w.sandbox.clearRequests();
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:${placeIn(yaml, 'priority')}: priority needs Gitea ≥ 1.23 (server: Forgejo 11.0.15): the server would ignore it`);
    expect(r.stderr).toContain('Planning failed: nothing was changed.');
    expect(r.stdout).toBe('');
    onlyPreflight(w);
    // apply plans the same way, and sends nothing either
    const a = await w.cli(['apply', '-c', file, '--yes']);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain('priority needs Gitea ≥ 1.23 (server: Forgejo 11.0.15)');
    onlyPreflight(w);
  });

  it('every Gitea-only field of a rule is named, each at its own place, in the order written', async () => {
    const w = worlds['forgejo@11']!;
    const yaml = protection('        enable_force_push: true\n        block_admin_merge_override: true\n        priority: 2\n');
    const file = w.config(yaml, 'gitea-only.yaml');
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith(file));
    expect(lines.map((l) => l.slice(file.length + 1, l.indexOf(' needs')))).toEqual([
      `${placeIn(yaml, 'enable_force_push')}: enable_force_push`,
      `${placeIn(yaml, 'block_admin_merge_override')}: block_admin_merge_override`,
      `${placeIn(yaml, 'priority')}: priority`,
    ]);
  });

  it('apply_to_admins (Forgejo’s own) against Gitea 1.25 is an error, and nothing is sent', async () => {
    const w = worlds['gitea@1.25']!;
    const yaml = protection('        apply_to_admins: true\n');
    const file = w.config(yaml, 'admins.yaml');
    w.sandbox.clearRequests();
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:${placeIn(yaml, 'apply_to_admins')}: apply_to_admins needs Forgejo (server: Gitea 1.25.4)`);
    onlyPreflight(w);
  });

  it('apply_to_admins is managed on Forgejo 11: plan, apply, and the next plan is empty', async () => {
    const w = worlds['forgejo@11']!;
    const file = w.config(protection('        apply_to_admins: true\n        ignore_stale_approvals: true\n'), 'forgejo-rule.yaml');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/\+ branch protection "main"/);
    expect(plan.stdout).toContain('apply_to_admins');
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code, apply.stderr).toBe(0);
    const rule = (await w.api<Record<string, unknown>>('GET', 'repos/acme/widgets/branch_protections/main')).body;
    expect(rule).toMatchObject({ apply_to_admins: true, ignore_stale_approvals: true, enable_push: true });
    expect(rule).not.toHaveProperty('priority');
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('No changes');
  });

  it('ignore_stale_approvals against Gitea 1.21 needs Gitea 1.22 or Forgejo', async () => {
    const w = worlds['gitea@1.21']!;
    const yaml = protection('        ignore_stale_approvals: true\n');
    const file = w.config(yaml, 'stale.yaml');
    w.sandbox.clearRequests();
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`${file}:${placeIn(yaml, 'ignore_stale_approvals')}: ignore_stale_approvals needs Gitea ≥ 1\\.22 or Forgejo \\(server: Gitea 1\\.21\\.\\d+\\)`));
    onlyPreflight(w);
  });

  it('a field in a repository glob is found where the glob declares it, without expanding the glob', async () => {
    const w = worlds['gitea@1.21']!;
    const yaml = 'version: 1\nrepos:\n  "acme/*":\n    branch_protections:\n      main: { enable_push: true, enable_force_push: true }\n';
    const file = w.config(yaml, 'glob.yaml');
    w.sandbox.clearRequests();
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:${placeIn(yaml, 'enable_force_push')}: enable_force_push needs Gitea ≥ 1.23`);
    onlyPreflight(w);
  });

  it('badges against Forgejo 11 (Gitea-only, 1.22 on) is an error; export of users never asks Forgejo for badges', async () => {
    const w = worlds['forgejo@11']!;
    const yaml = 'version: 1\nusers:\n  alice:\n    email: alice@example.com\n    badges: [early]\n';
    const file = w.config(yaml, 'badges.yaml');
    w.sandbox.clearRequests();
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:${placeIn(yaml, 'badges')}: badges needs Gitea ≥ 1.22 (server: Forgejo 11.0.15)`);
    onlyPreflight(w);
    w.sandbox.clearRequests();
    const exported = await w.cli(['export', '--include', 'users']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('alice:');
    expect(exported.stdout).not.toContain('badges');
    expect(calls(w.sandbox).filter((c) => c.includes('badges'))).toEqual([]);
    expect(calls(w.sandbox).some((c) => c.endsWith('/keys'))).toBe(true);
  });
});

describe('runners: a kind only some releases have, read in each release’s answer shape', () => {
  const runnerSeed: SeedFile = {
    ...seed,
    actions: { runners: [{ name: 'runner-1' }, { name: 'runner-busy', status: 'active' }, { name: 'runner-old', status: 'offline' }, { name: 'acme-runner', owner: 'acme' }] },
  };
  const declared = 'version: 1\npolicy: { prune: [runners] }\nactions:\n  runners:\n    runner-1: {}\n    runner-busy: {}\n';
  let w: World | undefined;
  afterEach(async () => w?.sandbox.close());

  it('against Gitea 1.23 (no runner routes) the section is an error naming both sides, and nothing is read', async () => {
    w = await world(runnerSeed, { flavour: 'gitea@1.23' });
    const file = w.config(declared);
    w.sandbox.clearRequests();
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`${file}:${placeIn(declared, 'runners:\n')}: runners need Gitea ≥ 1\\.24 or Forgejo ≥ 15 \\(server: Gitea 1\\.23\\.\\d+\\): the server has no routes for them`));
    onlyPreflight(w);
    // export leaves them out, and says why
    const exported = await w.cli(['export', '--include', 'runners']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toMatch(/runners: not exported, runners need Gitea ≥ 1\.24 or Forgejo ≥ 15 \(server: Gitea 1\.23\.\d+\)/);
    expect(calls(w.sandbox).filter((c) => c.includes('runners'))).toEqual([]);
  });

  for (const flavour of ['gitea@1.24', 'forgejo@15']) {
    it(`against ${flavour}: lists every runner, deletes the undeclared global ones with prune, and the next plan is empty`, async () => {
      w = await world(runnerSeed, { flavour });
      const file = w.config(declared);
      const plan = await w.cli(['plan', '-c', file]);
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toMatch(/- runner "runner-old"\n\s+# the runner is offline/);
      // The organisation's runner is not the server's: never pruned (runners-scope.test.ts).
      expect(plan.stdout).not.toContain('acme-runner');
      expect(plan.stdout).not.toMatch(/runner "runner-(1|busy)"/);
      // a busy runner is online (Forgejo says "active"), not a warning
      expect(plan.stdout).not.toContain('Warning');
      w.sandbox.clearRequests();
      const apply = await w.cli(['apply', '-c', file, '--yes']);
      expect(apply.code, apply.stderr).toBe(0);
      const writes = calls(w.sandbox).filter((c) => !c.startsWith('GET '));
      expect(writes).toEqual([expect.stringMatching(/^DELETE admin\/actions\/runners\/\d+$/)]);
      const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
      expect(again.code, again.stdout).toBe(0);
      const lists = w.sandbox.requests().filter((r) => r.method === 'GET' && r.path === '/api/v1/admin/actions/runners');
      expect(lists.length).toBeGreaterThan(0);
      // Forgejo lists only the instance's own runners unless visible=true
      for (const l of lists) expect(new URLSearchParams(l.query ?? '').get('visible')).toBe(flavour.startsWith('forgejo') ? 'true' : null);
    });

    it(`against ${flavour}: disabled (Gitea 1.26 only) is an error`, async () => {
      w = await world(runnerSeed, { flavour });
      const yaml = 'version: 1\nactions:\n  runners:\n    runner-1: { disabled: true }\n';
      const file = w.config(yaml);
      w.sandbox.clearRequests();
      const r = await w.cli(['plan', '-c', file]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${file}:${placeIn(yaml, 'disabled')}: disabled needs Gitea ≥ 1.26 (server: `);
      onlyPreflight(w);
    });
  }
});

describe('validate --server-version: the same check, offline', () => {
  const yaml = `version: 1
repos:
  acme/widgets:
    branch_protections:
      main: { enable_push: true, priority: 1, apply_to_admins: true }
actions:
  runners:
    runner-1: {}
`;
  let dir: World | undefined;
  beforeAll(async () => {
    // only for its directory: the sandbox is closed before validate runs, so nothing could answer
    dir = await world(seed);
    await dir.sandbox.close();
  });

  it('names every value the release lacks at its place, exits 1, and needs no server', async () => {
    const file = dir!.config(yaml, 'offline.yaml');
    const env = { FORGEFORM_URL: 'http://127.0.0.1:9' };
    const r = await runCli(['validate', '--server-version', 'forgejo@11', '-c', file], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:${placeIn(yaml, 'priority')}: priority needs Gitea ≥ 1.23 (server: Forgejo 11.0.0)`);
    expect(r.stderr).toContain(`${file}:${placeIn(yaml, 'runners:\n')}: runners need Gitea ≥ 1.24 or Forgejo ≥ 15 (server: Forgejo 11.0.0)`);
    expect(r.stderr).not.toContain('apply_to_admins');
    expect(r.stderr).toContain(`The configuration is not valid for Forgejo 11.0.0 (${file}).`);

    const gitea = await runCli(['validate', '--server-version', 'gitea@1.25', '-c', file], { env });
    expect(gitea.code).toBe(1);
    expect(gitea.stderr).toContain(`${file}:${placeIn(yaml, 'apply_to_admins')}: apply_to_admins needs Forgejo (server: Gitea 1.25.0)`);
    expect(gitea.stderr).not.toContain('priority needs');

    const plain = await runCli(['validate', '-c', file], { env });
    expect(plain.code).toBe(0);
    expect(plain.stdout.trim()).toBe(`The configuration is valid (${file}).`);
  });

  it('a config the release has everything of is valid for it; a malformed release is an error', async () => {
    const file = dir!.config('version: 1\nrepos:\n  acme/widgets:\n    branch_protections:\n      main: { enable_push: true, priority: 1 }\n', 'fine.yaml');
    const ok = await runCli(['validate', '--server-version', 'gitea@1.23.8', '-c', file]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout.trim()).toBe(`The configuration is valid for Gitea 1.23.8 (${file}).`);
    const bad = await runCli(['validate', '--server-version', 'gitea-1.25', '-c', file]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--server-version: "gitea-1.25" is not FLAVOUR@VERSION');
  });
});
