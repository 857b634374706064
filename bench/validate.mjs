// npm run bench:validate: wall time, CPU time and peak RSS of `forgeform validate` (a whole CLI process, as a user or
// CI sees it) on the examples and on generated configs up to 5 MB. Figures only, no assertions. Targets (issue 12):
// the examples in 300 ms or less, a 5 MB config of 25,000 labels in 2 s or less. CPU time is the figure to compare
// on a busy machine: wall time there measures the other processes too.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'forgeform-bench-validate-'));
// Preloaded into each measured process: writes its own CPU time and peak RSS when it exits.
const usageFile = join(dir, 'usage.json');
const preload = join(dir, 'usage.cjs');
writeFileSync(
  preload,
  `process.on('exit', () => { const c = process.cpuUsage(); require('node:fs').writeFileSync(${JSON.stringify(usageFile)}, JSON.stringify({ cpu: (c.user + c.system) / 1000, rss: process.resourceUsage().maxRSS / 1024 })); });`,
);

/** `repos` repositories with `labels` labels each, every label with colour, description and a flag (~200 bytes). */
function generated(name, repos, labels) {
  const lines = ['version: 1', 'repos:'];
  for (let r = 0; r < repos; r++) {
    lines.push(`  acme/repo-${String(r).padStart(5, '0')}:`, '    labels:');
    for (let l = 0; l < labels; l++) {
      const colour = ((r * 7919 + l * 104_729) % 0xffffff).toString(16).padStart(6, '0');
      lines.push(`      area/component-${String(l).padStart(4, '0')}: { color: "${colour}", description: "Component ${l} of repository ${r}: a description long enough to be realistic for a label, as triage guides write them", exclusive: ${l % 2 === 0} }`);
    }
  }
  const file = join(dir, name);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

function run(args, env = {}) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const argv = args === null ? ['--require', preload, '-e', '0'] : ['--require', preload, `${root}dist/cli/main.js`, ...args];
    const child = spawn(process.execPath, argv, { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr, ms: performance.now() - t0, ...JSON.parse(readFileSync(usageFile, 'utf8')) }));
  });
}

const cases = [
  ['node itself (node -e 0)', null],
  ['forgeform --version', ['--version']],
  ['examples/demo', ['validate', '-c', `${root}examples/demo/forgeform.yaml`]],
  ['examples/admin', ['validate', '-c', `${root}examples/admin/forgeform.yaml`], { CI_BOT_PASSWORD: 'x', CI_HOOK_SECRET: 'x' }],
  ['1 MB: 50 repos × 100 labels', ['validate', '-c', generated('1mb.yaml', 50, 100)]],
  ['5 MB: 250 repos × 100 labels', ['validate', '-c', generated('5mb.yaml', 250, 100)]],
  ['5 MB: 25,000 repos × 1 label', ['validate', '-c', generated('wide.yaml', 25_000, 1)]],
];

const rows = [];
for (const [name, args, env] of cases) {
  const results = [];
  for (let i = 0; i < RUNS; i++) results.push(await run(args, env));
  const best = (key) => Math.round(Math.min(...results.map((r) => r[key])));
  const result = results[0];
  const file = args?.[2];
  rows.push({
    case: name,
    size: file ? `${(statSync(file).size / 1024).toFixed(0)} KB` : '',
    exit: result.code,
    'wall ms (best)': best('ms'),
    'CPU ms (best)': best('cpu'),
    'peak RSS MB': best('rss'),
    ...(result.code === 0 ? {} : { error: result.stderr.slice(0, 120) }),
  });
}
console.log(`forgeform validate: ${RUNS} runs per case (wall time of the whole process)\n`);
console.table(rows);
rmSync(dir, { recursive: true, force: true });
