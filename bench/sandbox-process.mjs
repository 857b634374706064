// The sandbox in a process of its own (started by run.mjs with fork), so that its CPU time and memory
// are its own and not mixed with the runner's. It speaks to run.mjs over the IPC channel:
//   → {type: 'ready', url, startMs, startCpuMs}                 once the seed is loaded and it listens
//   ← {type: 'mark', step} → {type: 'marked'}                   forget the request log, start counting CPU
//   ← {type: 'read'}     → {type: 'usage', cpuMs, maxRssMB, log} CPU since the mark, peak RSS, the requests
//   ← {type: 'close'}                                          stop and exit
// argv: <dist/sandbox/index.js> <seed.json> <latency ms> <token> [profile dir]
// With a profile dir it writes one CPU profile for the seeding (sandbox-seed.cpuprofile) and one per
// step (sandbox-<step>.cpuprofile), so that serving is not drowned by seeding in one whole-process profile.
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [entry, seedPath, latency, token, profileDir] = process.argv.slice(2);
const { startSandbox } = await import(pathToFileURL(entry).href);

const session = profileDir ? new Session() : undefined;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
}
const startProfile = async () => session?.post('Profiler.start');
const stopProfile = async (name) => {
  if (!session) return;
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(join(profileDir, `sandbox-${name}.cpuprofile`), JSON.stringify(profile));
};

const cpuMs = (since = { user: 0, system: 0 }) => {
  const now = process.cpuUsage(since);
  return (now.user + now.system) / 1000;
};

await startProfile();
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', token, seed: JSON.parse(readFileSync(seedPath, 'utf8')), latencyMs: Number(latency) });
const started = { startMs: performance.now() - t0, startCpuMs: cpuMs(cpu0) };
await stopProfile('seed');
process.send({ type: 'ready', url: sandbox.url, ...started });

let mark = process.cpuUsage();
let step;
process.on('message', async (m) => {
  if (m.type === 'mark') {
    sandbox.clearRequests();
    step = m.step;
    await startProfile();
    mark = process.cpuUsage();
    process.send({ type: 'marked' });
  } else if (m.type === 'read') {
    const used = cpuMs(mark);
    if (step) await stopProfile(step);
    step = undefined;
    // Only what the runner counts: bodies of 30,000 labels would only slow the channel down.
    const log = sandbox.requests().map((e) => ({ method: e.method, path: e.path, query: e.query, status: e.status }));
    process.send({ type: 'usage', cpuMs: used, maxRssMB: process.resourceUsage().maxRSS / 1024, log });
  } else if (m.type === 'close') {
    await sandbox.close();
    process.disconnect();
  }
});
