// Failing fast and bounded stalls (issues 17 §6 and 18 §5), measured with the built CLI:
//   1. time to fail on a closed loopback port (default retry delays);
//   2. a server that answers /version and then nothing, 60 repositories, at --timeout 5;
//   3. peak RSS of the CLI at --concurrency 64 when every label list answers an endless body.
// Run: npm run build && node bench/stalls.mjs   (prints one line per figure)
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { clearInterval, setInterval } from 'node:timers';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(root, 'dist/cli/main.js');
const { startSandbox } = await import(pathToFileURL(join(root, 'dist/sandbox/index.js')).href);
const TOKEN = 'bench-token';
const REPOS = Array.from({ length: 64 }, (_, i) => `acme/r${String(i).padStart(2, '0')}`);
const sandbox = await startSandbox({
  port: 0,
  token: TOKEN,
  seed: {
    users: [{ username: 'root', admin: true, email: 'root@example.com' }],
    orgs: [{ name: 'acme', owners: ['root'] }],
    repos: REPOS.map((name) => ({ name })),
  },
});
const dir = mkdtempSync(join(tmpdir(), 'forgeform-stalls-'));
const config = join(dir, 'forgeform.yaml');
const configFor = (repos) => `version: 1\nrepos:\n${repos.map((r) => `  ${r}:\n    labels:\n      bug: { color: ee0701 }\n`).join('')}`;

/** A proxy in front of the sandbox: `how(path)` is 'stall', 'huge' or undefined (forwarded). */
async function proxy(how) {
  const target = new URL(sandbox.url);
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const what = how(path);
    if (what === 'stall') return;
    if (what === 'huge') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, ' ');
      res.write('[');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      return pump();
    }
    const fwd = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    req.pipe(fwd);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => (server.closeAllConnections(), server.close()) };
}

/** Runs the CLI, timing it and sampling its peak RSS (VmHWM) until it exits. */
function run(args, url) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, NO_COLOR: '1', FORGEFORM_TOKEN: TOKEN, FORGEFORM_URL: url }, cwd: dir });
    let stderr = '';
    let peakKB = 0;
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.resume();
    const sample = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakKB = Math.max(peakKB, Number(m[1]));
      } catch {
        // exited
      }
    }, 20);
    child.on('close', (code) => {
      clearInterval(sample);
      resolve({ code, seconds: (performance.now() - started) / 1000, peakMB: peakKB / 1024, stderr: stderr.trim() });
    });
  });
}

writeFileSync(config, configFor(REPOS.slice(0, 60)));
const closed = await proxy(() => undefined);
const closedUrl = closed.url;
closed.close();
const refused = await run(['plan', '-c', config], closedUrl);
console.log(`closed port: exit ${refused.code} in ${refused.seconds.toFixed(2)} s — ${refused.stderr.split('\n')[0]}`);

const dead = await proxy((path) => (path === '/api/v1/version' || path === '/api/forgejo/v1/version' ? undefined : 'stall'));
const stalled = await run(['plan', '-c', config, '--timeout', '5'], dead.url);
dead.close();
console.log(`dead server, 60 repositories, --timeout 5: exit ${stalled.code} in ${stalled.seconds.toFixed(2)} s (limit 2 × --timeout = 10 s) — ${stalled.stderr.split('\n').length} lines`);

writeFileSync(config, configFor(REPOS));
const huge = await proxy((path) => (/\/labels$/.test(path) ? 'huge' : undefined));
const big = await run(['plan', '-c', config, '--concurrency', '64', '--timeout', '60'], huge.url);
huge.close();
console.log(`64 endless label lists at --concurrency 64: exit ${big.code} in ${big.seconds.toFixed(1)} s, peak RSS ${big.peakMB.toFixed(0)} MB — ${big.stderr.split("\n").find((l) => l.includes("labels of")) ?? big.stderr.split("\n")[0]}`);

await sandbox.close();
process.exit(0);
