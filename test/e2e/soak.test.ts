/**
 * Soak: a realistic config changed over 30 apply cycles against a sandbox that answers 20% of
 * requests with a fault (fixed seed), then one config at 50% faults. After every cycle the server's
 * whole relevant state must be exactly the expected one (no duplicate, no unintended change), and the
 * final plan must be empty. The figures (faults, retries, applies, duplicates) are printed, never timed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { world, type CliResult, type World } from './helpers.js';

const REPOS = ['acme/app', 'acme/lib', 'acme/docs', 'acme/infra'];
const BASE_LABELS: Record<string, string> = { bug: 'ee0701', feature: '0288d1', docs: '0000aa', chore: 'cccccc', 'help wanted': '128a0c', 'good first issue': '7057ff' };

const seed: SeedFile = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'carol', email: 'carol@example.com', full_name: 'Carol (not managed)' },
  ],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [
    ...REPOS.map((name) => ({ name, labels: [{ name: 'bug', color: 'ee0701' }, { name: 'legacy', color: '999999' }], branch_protections: [{ rule_name: 'old/*' }] })),
    // not in the config: must stay exactly as it is
    { name: 'acme/untouched', labels: [{ name: 'mine', color: '123456', description: 'keep me' }], branch_protections: [{ rule_name: 'main', required_approvals: 2 }] },
  ],
};

interface Desired {
  labels: Record<string, Record<string, { color: string; description?: string }>>;
  protections: Record<string, Record<string, { required_approvals: number; enable_push: boolean }>>;
  users: Record<string, { email: string; full_name: string }>;
  hooks: { url: string; active: boolean }[];
}

/**
 * Cycle i's desired state. As in a real repository of config, each cycle changes a few things: one
 * repository's turn comes every fourth cycle (a label's colour, a label that comes and goes, its
 * protection rules), one user's full name, a new user in the first cycles, a webhook added or toggled.
 */
function desired(i: number): Desired {
  const d: Desired = { labels: {}, protections: {}, users: {}, hooks: [] };
  REPOS.forEach((repo, r) => {
    const k = Math.floor((i + r) / 4);
    const labels: Desired['labels'][string] = {};
    for (const [name, color] of Object.entries(BASE_LABELS)) labels[name] = { color };
    labels[`area/${r}`] = { color: ((k * 0x2f1b3 + r * 0x51) % 0xffffff).toString(16).padStart(6, '0'), description: `turn ${k}` };
    if (k % 2 === 0) labels[`temp/${r}`] = { color: 'abcdef' };
    d.labels[repo] = labels;
    d.protections[repo] = { main: { required_approvals: 1 + (k % 3), enable_push: k % 2 === 0 } };
    if (k % 3 === 2) d.protections[repo]['release/*'] = { required_approvals: 2, enable_push: false };
  });
  for (let u = 0; u <= Math.min(i, 7); u++) d.users[`dev${u}`] = { email: `dev${u}@example.com`, full_name: `Developer ${u} (v${Math.floor((i + u) / 8)})` };
  for (let h = 0; h <= Math.min(Math.floor(i / 10), 2); h++) d.hooks.push({ url: `https://ci${h}.example.com/hook`, active: Math.floor((i + h) / 5) % 2 === 0 });
  return d;
}

function configYaml(d: Desired): string {
  const lines = ['version: 1', 'policy: { prune: [labels, branch_protections] }', 'users:'];
  for (const [name, u] of Object.entries(d.users)) lines.push(`  ${name}: { email: ${u.email}, full_name: "${u.full_name}", password: "\${DEV_PASSWORD}" }`);
  lines.push('hooks:');
  for (const h of d.hooks) lines.push(`  - { url: "${h.url}", events: [push], active: ${h.active} }`);
  lines.push('repos:');
  for (const repo of REPOS) {
    lines.push(`  ${repo}:`, '    labels:');
    for (const [name, l] of Object.entries(d.labels[repo]!)) lines.push(`      "${name}": { color: "${l.color}"${l.description ? `, description: "${l.description}"` : ''} }`);
    lines.push('    branch_protections:');
    for (const [rule, p] of Object.entries(d.protections[repo]!)) lines.push(`      "${rule}": { required_approvals: ${p.required_approvals}, enable_push: ${p.enable_push} }`);
  }
  return `${lines.join('\n')}\n`;
}

interface Snapshot {
  labels: Record<string, string[]>;
  protections: Record<string, string[]>;
  users: string[];
  hooks: string[];
}

/** The server's relevant state, read as the admin (reads retried through the faults). */
async function snapshot(w: World): Promise<Snapshot> {
  const s: Snapshot = { labels: {}, protections: {}, users: [], hooks: [] };
  for (const repo of [...REPOS, 'acme/untouched']) {
    const labels = (await w.api<{ name: string; color: string; description: string }[]>('GET', `repos/${repo}/labels?limit=50`)).body;
    s.labels[repo] = labels.map((l) => `${l.name} #${l.color}${l.description ? ` ${l.description}` : ''}`).sort();
    const rules = (await w.api<{ rule_name: string; required_approvals: number; enable_push: boolean }[]>('GET', `repos/${repo}/branch_protections`)).body;
    s.protections[repo] = rules.map((p) => `${p.rule_name} approvals=${p.required_approvals} push=${p.enable_push}`).sort();
  }
  const users = (await w.api<{ login: string; email: string; full_name: string }[]>('GET', 'admin/users?limit=50')).body;
  s.users = users.map((u) => `${u.login} <${u.email}> ${u.full_name}`).sort();
  const hooks = (await w.api<{ config: { url: string }; active: boolean }[]>('GET', 'admin/hooks?type=system&limit=50')).body;
  s.hooks = hooks.map((h) => `${h.config.url} active=${h.active}`).sort();
  return s;
}

/** What the server must hold for `d`, unmanaged objects as the seed left them. */
function expected(d: Desired): Snapshot {
  const s: Snapshot = { labels: {}, protections: {}, users: [], hooks: [] };
  for (const repo of REPOS) {
    s.labels[repo] = Object.entries(d.labels[repo]!).map(([n, l]) => `${n} #${l.color}${l.description ? ` ${l.description}` : ''}`).sort();
    s.protections[repo] = Object.entries(d.protections[repo]!).map(([r, p]) => `${r} approvals=${p.required_approvals} push=${p.enable_push}`).sort();
  }
  s.labels['acme/untouched'] = ['mine #123456 keep me'];
  s.protections['acme/untouched'] = ['main approvals=2 push=false'];
  s.users = ['root <root@example.com> ', 'carol <carol@example.com> Carol (not managed)', ...Object.entries(d.users).map(([n, u]) => `${n} <${u.email}> ${u.full_name}`)].sort();
  s.hooks = d.hooks.map((h) => `${h.url} active=${h.active}`).sort();
  return s;
}

/** Names present more than once in one list of the snapshot. */
function duplicates(s: Snapshot): string[] {
  const out: string[] = [];
  const check = (where: string, keys: string[]) => {
    const seen = new Set<string>();
    for (const k of keys) {
      if (seen.has(k)) out.push(`${where}: ${k}`);
      seen.add(k);
    }
  };
  for (const [repo, labels] of Object.entries(s.labels)) check(repo, labels.map((l) => l.slice(0, l.indexOf(' #'))));
  for (const [repo, rules] of Object.entries(s.protections)) check(repo, rules.map((r) => r.slice(0, r.indexOf(' '))));
  check('hooks', s.hooks.map((h) => h.slice(0, h.indexOf(' '))));
  return out;
}

const FAULT_STATUSES = new Set([0, 429, 500, 502, 503]);
const retriedIn = (r: CliResult) => Number(/(\d+) retried\)/.exec(r.stderr)?.[1] ?? 0);

interface Tally {
  faults: number;
  retries: number;
  applies: number;
  maxAttempts: number;
}

const env = { DEV_PASSWORD: 'a-long-dev-password-1' };

/** Applies `d` until apply exits 0, at most `bound` times. */
async function converge(w: World, d: Desired, bound: number, tally: Tally): Promise<number> {
  const file = w.config(configYaml(d));
  let attempts = 0;
  let last: CliResult | undefined;
  while (attempts < bound) {
    attempts++;
    last = await w.cli(['apply', '--yes', '-c', file], env);
    tally.retries += retriedIn(last);
    expect(last.stderr).not.toMatch(/unexpected error|\n\s+at /);
    expect(last.stdout).not.toContain('created concurrently');
    if (last.code === 0) break;
  }
  expect(last?.code, `apply did not converge in ${bound} attempts:\n${last?.stdout}\n${last?.stderr}`).toBe(0);
  tally.faults += w.sandbox.requests().filter((r) => FAULT_STATUSES.has(r.status)).length;
  w.sandbox.clearRequests();
  tally.applies += attempts;
  tally.maxAttempts = Math.max(tally.maxAttempts, attempts);
  return attempts;
}

/** The plan of the config last applied, through the faults: it must be empty. */
async function expectEmptyPlan(w: World, tally: Tally): Promise<void> {
  const plan = await w.cli(['plan', '--detailed-exitcode', '-c', `${w.dir}/forgeform.yaml`], env);
  tally.retries += retriedIn(plan);
  expect(plan.stdout, plan.stderr).toContain('No changes.');
  expect(plan.code).toBe(0);
}

/**
 * Each apply is a process of its own: at these fault rates an apply's lock release can fail, and the
 * next apply takes over the lock of a process that is gone (same machine, its pid dead): a run
 * inside this process would leave a lock whose pid is alive (this one's).
 */
const AS_PROCESS = { process: true };

let w: World;
afterEach(async () => w?.sandbox.close());

describe('soak', () => {
  it('30 apply cycles at 20% faults: no duplicate, no unintended change after any cycle, and an empty final plan', { timeout: 240_000 }, async () => {
    w = await world(seed, { faultRate: 0.2, faultSeed: 20, faultRetryAfter: 0 }, AS_PROCESS);
    const tally: Tally = { faults: 0, retries: 0, applies: 0, maxAttempts: 0 };
    let dupes = 0;
    for (let i = 0; i < 30; i++) {
      const d = desired(i);
      await converge(w, d, 8, tally);
      const state = await snapshot(w);
      w.sandbox.clearRequests();
      dupes += duplicates(state).length;
      expect(duplicates(state)).toEqual([]);
      expect(state, `cycle ${i}`).toEqual(expected(d));
    }
    await expectEmptyPlan(w, tally);
    console.log(`soak 20%: 30 cycles, ${tally.faults} faults injected, ${tally.retries} retries made, ${tally.applies} applies (at most ${tally.maxAttempts} in a cycle), ${dupes} duplicates`);
  });

  it('at 50% faults the final config still converges within a bounded number of applies', { timeout: 180_000 }, async () => {
    w = await world(seed, { faultRate: 0.5, faultSeed: 50, faultRetryAfter: 0 }, AS_PROCESS);
    const tally: Tally = { faults: 0, retries: 0, applies: 0, maxAttempts: 0 };
    const d = desired(29);
    const attempts = await converge(w, d, 15, tally);
    await expectEmptyPlan(w, tally);
    const state = await snapshot(w);
    expect(duplicates(state)).toEqual([]);
    expect(state).toEqual(expected(d));
    console.log(`soak 50%: ${tally.faults} faults injected, ${tally.retries} retries made, ${attempts} applies needed, ${duplicates(state).length} duplicates`);
  });
});
