// npm run bench:cap [-- --shape line|block|both] [--runs N] [--bytes N] [--cli PATH] [--keep]
//
// A config at the size cap (MAX_CONFIG_BYTES, src/config/limits.ts), all of it labels of one repository that
// the server does not have yet, planned with --out against the sandbox: the largest plan a config can ask
// for (issue 17, "scale to the cap"). For each run it prints what a user sees: wall time, CPU and peak RSS
// as /usr/bin/time -v measures the CLI's process (process.resourceUsage() where there is no /usr/bin/time),
// the stderr progress lines, and the plan file's size in all and per change. Figures only, no
// assertions: speed and memory targets are read here, never in tests. Loopback only. --cli runs another
// build's dist/cli/main.js (an older commit's, for before/after figures) against the same configs.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const MEASURE = join(root, 'bench/measure-cli.mjs');
const TOKEN = 'bench-cap-token';

const { values: opts } = parseArgs({
  options: {
    shape: { type: 'string', default: 'both' },
    runs: { type: 'string', default: '2' },
    bytes: { type: 'string' },
    cli: { type: 'string', default: join(root, 'dist/cli/main.js') },
    keep: { type: 'boolean', default: false },
  },
});
const CLI = opts.cli;
const MAX_CONFIG_BYTES = opts.bytes === undefined ? (await import(join(root, 'dist/config/limits.js'))).MAX_CONFIG_BYTES : undefined;
const shapes = opts.shape === 'both' ? ['line', 'block'] : [opts.shape];
if (!shapes.every((s) => s === 'line' || s === 'block')) {
  console.error(`bench: --shape must be line, block or both, got "${opts.shape}"`);
  process.exit(1);
}
const runs = Number(opts.runs);
const limit = Number(opts.bytes ?? MAX_CONFIG_BYTES);
const log = (s) => process.stderr.write(`bench: ${s}\n`);
const dir = mkdtempSync(join(tmpdir(), 'forgeform-bench-cap-'));

/** A label's lines: one flow map a line, or a block map of four lines. */
const LABEL = {
  line: (i) => [`      area/component-${String(i).padStart(6, '0')}: { color: "${colour(i)}", description: "Label ${i} of a config at the cap" }`],
  block: (i) => [`      area/component-${String(i).padStart(6, '0')}:`, `        color: "${colour(i)}"`, `        description: "Label ${i} of a config at the cap"`, `        exclusive: ${i % 2 === 0}`],
};
function colour(i) {
  return ((i * 2654435761) >>> 8).toString(16).padStart(6, '0').slice(-6);
}

/** As many labels as fit in `limit` bytes, in the given shape. */
function configAtCap(shape) {
  const lines = ['version: 1', 'repos:', '  acme/widgets:', '    labels:'];
  let size = lines.join('\n').length + 1;
  let n = 0;
  for (;;) {
    const more = LABEL[shape](n);
    const add = more.reduce((s, l) => s + l.length + 1, 0);
    if (size + add > limit) break;
    lines.push(...more);
    size += add;
    n++;
  }
  return { text: `${lines.join('\n')}\n`, labels: n };
}

function startSandbox(seedFile) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'sandbox', '--seed', seedFile, '--token', TOKEN], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ url, stop: () => child.kill('SIGTERM') });
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited with ${code} before listening`)));
  });
}

const hasTime = existsSync('/usr/bin/time');

/** One plan through /usr/bin/time -v (or measure-cli.mjs): exit code, stderr, wall s, CPU s, peak RSS MB. */
function plan(configFile, planFile, url) {
  const report = join(dir, 'usage.json');
  const args = ['plan', '-c', configFile, '--out', planFile];
  const [cmd, argv] = hasTime ? ['/usr/bin/time', ['-v', process.execPath, CLI, ...args]] : [process.execPath, [MEASURE, report, CLI, ...args]];
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(cmd, argv, { env: { ...process.env, NO_COLOR: '1', FORGEFORM_URL: url, FORGEFORM_TOKEN: TOKEN }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      const wall = (performance.now() - t0) / 1000;
      if (hasTime) {
        const num = (re) => Number(re.exec(stderr)?.[1] ?? NaN);
        const cpu = num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/);
        const rss = num(/Maximum resident set size \(kbytes\): (\d+)/) / 1024;
        resolve({ code, wall, cpu, rss, stderr: stderr.split('\n\tCommand being timed')[0] });
      } else {
        const u = JSON.parse(readFileSync(report, 'utf8'));
        resolve({ code, wall, cpu: (u.userMs + u.systemMs) / 1000, rss: u.maxRssMB, stderr });
      }
    });
  });
}

const seedFile = join(dir, 'seed.yaml');
writeFileSync(seedFile, 'users:\n  - { username: root, admin: true, email: root@example.com }\norgs:\n  - { name: acme, owners: [root] }\nrepos:\n  - name: acme/widgets\n');
const sandbox = await startSandbox(seedFile);
const machine = `${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)} at the start`;
const rows = [];
try {
  for (const shape of shapes) {
    const { text, labels } = configAtCap(shape);
    const configFile = join(dir, `cap-${shape}.yaml`);
    writeFileSync(configFile, text);
    log(`${shape}: ${labels.toLocaleString('en')} labels, ${(text.length / 1024 / 1024).toFixed(2)} MB (cap ${(limit / 1024 / 1024).toFixed(2)} MB)`);
    for (let run = 1; run <= runs; run++) {
      const planFile = join(dir, `plan-${shape}.json`);
      rmSync(planFile, { force: true });
      const r = await plan(configFile, planFile, sandbox.url);
      const bytes = existsSync(planFile) ? statSync(planFile).size : 0;
      const changes = bytes ? JSON.parse(readFileSync(planFile, 'utf8')).changes.length : 0;
      const row = { shape, run, labels, configBytes: text.length, exit: r.code, wall: r.wall, cpu: r.cpu, rss: r.rss, planBytes: bytes, changes, load: loadavg()[0] };
      rows.push(row);
      log(`${shape} run ${run}: exit ${r.code}, ${r.wall.toFixed(1)} s wall, ${r.cpu.toFixed(1)} s CPU, ${r.rss.toFixed(0)} MB peak RSS, plan file ${(bytes / 1024 / 1024).toFixed(1)} MB`);
      if (run === 1) for (const line of r.stderr.trim().split('\n')) log(`  stderr: ${line}`);
    }
  }
} finally {
  sandbox.stop();
  if (!opts.keep) rmSync(dir, { recursive: true, force: true });
  else log(`kept ${dir}`);
}

console.log(`\nforgeform bench:cap — ${CLI}: configs at ${(limit / 1024 / 1024).toFixed(2)} MB, planned with --out (${hasTime ? '/usr/bin/time -v' : 'process.resourceUsage()'}); ${machine}\n`);
console.log('| shape | run | labels | config MB | exit | wall s | CPU s | peak RSS MB | plan file MB | bytes / change | load avg |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.shape} | ${r.run} | ${r.labels.toLocaleString('en')} | ${(r.configBytes / 1024 / 1024).toFixed(2)} | ${r.exit} | ${r.wall.toFixed(1)} | ${r.cpu.toFixed(1)} | ${r.rss.toFixed(0)} | ${(r.planBytes / 1024 / 1024).toFixed(1)} | ${r.changes ? Math.round(r.planBytes / r.changes) : '–'} | ${r.load.toFixed(1)} |`,
  );
console.log('\ntargets of issue 17 (a config at the cap): plan ≤ 20 s, peak RSS ≤ 500 MB; wall times on a busy machine include waiting for a CPU (compare CPU s).');
