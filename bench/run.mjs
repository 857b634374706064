// npm run bench: request counts and wall times of plan and apply against the sandbox with injected
// latency. Figures only, no assertions: speed targets are read here, never in unit tests.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { startSandbox } = await import(`${root}dist/sandbox/index.js`);

const REPOS = Number(process.env.BENCH_REPOS ?? 200);
const LABELS = Number(process.env.BENCH_LABELS ?? 60);
const LATENCY = Number(process.env.BENCH_LATENCY_MS ?? 20);
const CONCURRENCY = process.env.BENCH_CONCURRENCY ?? '8';
const TOKEN = 'bench-token';

const labels = Array.from({ length: LABELS }, (_, i) => ({ name: `area/${String(i).padStart(3, '0')}`, color: 'aaaaaa', description: `Area ${i}` }));
const seed = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com' },
  ],
  orgs: [{ name: 'bench', owners: ['root'], members: ['alice'], teams: [{ name: 'devs', permission: 'write', members: ['alice'] }] }],
  repos: Array.from({ length: REPOS }, (_, i) => ({
    name: `bench/repo-${String(i).padStart(4, '0')}`,
    labels,
    branch_protections: [{ rule_name: 'main', enable_push: true, required_approvals: 1 }, { rule_name: 'old' }],
  })),
};

// Desired: every repo gets 10 changed labels, 2 new ones, loses 'old' and gets a release/* rule.
const desiredLabels = labels.map((l, i) => `      ${l.name}: { color: ${i < 10 ? 'bbbbbb' : 'aaaaaa'}, description: "${l.description}" }`);
desiredLabels.push('      new/one: { color: "123456" }', '      new/two: { color: "654321" }');
const config = `version: 1
policy: { prune: [labels, branch_protections] }
repos:
  "bench/*":
    labels:
${desiredLabels.join('\n')}
    branch_protections:
      main: { enable_push: true, required_approvals: 2 }
      "release/*": { enable_push: false, required_approvals: 2 }
`;

const dir = mkdtempSync(join(tmpdir(), 'forgeform-bench-'));
const file = join(dir, 'forgeform.yaml');
writeFileSync(file, config);

function cli(args, env) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [`${root}dist/cli/main.js`, ...args], { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - t0 }));
  });
}

const sandbox = await startSandbox({ port: 0, token: TOKEN, seed, latencyMs: LATENCY });
const env = { FORGEFORM_URL: sandbox.url, FORGEFORM_TOKEN: TOKEN };
console.log(`forgeform bench: ${REPOS} repositories × ${LABELS} labels + 2 rules, ${LATENCY} ms latency per response, --concurrency ${CONCURRENCY}\n`);
const rows = [];
for (const [step, args] of [
  ['plan', ['plan', '-c', file, '--concurrency', CONCURRENCY]],
  ['apply', ['apply', '-c', file, '--yes', '--concurrency', CONCURRENCY]],
  ['plan again', ['plan', '-c', file, '--concurrency', CONCURRENCY]],
]) {
  sandbox.clearRequests();
  const r = await cli(args, env);
  const log = sandbox.requests();
  const byMethod = {};
  for (const e of log) byMethod[e.method] = (byMethod[e.method] ?? 0) + 1;
  const summary = (/Apply \w+!.*/.exec(r.stdout) ?? /Plan: .*|No changes\./.exec(r.stdout))?.[0] ?? `exit ${r.code}: ${r.stderr.slice(0, 200)}`;
  rows.push({ step, exit: r.code, seconds: (r.ms / 1000).toFixed(2), requests: log.length, ...byMethod, result: summary });
}
console.table(rows);
await sandbox.close();
