// npm run demo: start a seeded sandbox, plan, apply, plan again — the whole loop on one machine.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = [`${root}dist/cli/main.js`];

const sandbox = spawn(process.execPath, [...cli, 'sandbox', '--seed', `${root}examples/demo/seed.yaml`], { stdio: ['ignore', 'pipe', 'inherit'] });
const firstLine = await new Promise((resolve, reject) => {
  const rl = createInterface({ input: sandbox.stdout });
  rl.once('line', resolve);
  sandbox.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
});
const match = /listening on (\S+) \(token: (\S+)\)/.exec(firstLine);
if (!match) throw new Error(`unexpected sandbox output: ${firstLine}`);
const [, url, token] = match;
console.log(`$ forgeform sandbox --seed examples/demo/seed.yaml\n${firstLine}\n`);

const env = { ...process.env, FORGEFORM_URL: url, FORGEFORM_TOKEN: token };
// The request log is served to the admin token only.
const asAdmin = { headers: { authorization: `token ${token}` } };
async function requests() {
  const res = await fetch(`${url}/_sandbox/requests`, asAdmin);
  const log = await res.json();
  await fetch(`${url}/_sandbox/requests`, { method: 'DELETE', ...asAdmin });
  const byMethod = {};
  for (const r of log) byMethod[r.method] = (byMethod[r.method] ?? 0) + 1;
  return `${log.length} requests to the server (${Object.entries(byMethod).map(([m, n]) => `${n} ${m}`).join(', ') || 'none'})`;
}
function step(title, args) {
  console.log(`\n$ forgeform ${args.join(' ')}`);
  const r = spawnSync(process.execPath, [...cli, ...args], { env, stdio: 'inherit' });
  return r.status;
}

let failed;
try {
  await fetch(`${url}/_sandbox/requests`, { method: 'DELETE', ...asAdmin });
  const first = step('plan', ['plan', '-c', 'examples/demo/forgeform.yaml', '--detailed-exitcode']);
  console.log(`[demo] plan exit code ${first} (2 = changes present); ${await requests()}`);
  const applied = step('apply', ['apply', '-c', 'examples/demo/forgeform.yaml', '--yes']);
  console.log(`[demo] apply exit code ${applied}; ${await requests()}`);
  const second = step('plan', ['plan', '-c', 'examples/demo/forgeform.yaml', '--detailed-exitcode']);
  console.log(`[demo] second plan exit code ${second} (0 = no changes); ${await requests()}`);
  failed = first !== 2 || applied !== 0 || second !== 0;
} finally {
  sandbox.kill('SIGTERM');
}
process.exitCode = failed ? 1 : 0;
