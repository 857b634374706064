// The sandbox in a process of its own (started by run.mjs with fork), so that its CPU time and memory
// are its own and not mixed with the runner's. It speaks to run.mjs over the IPC channel:
//   → {type: 'ready', url, startMs, startCpuMs}                 once the seed is loaded and it listens
//   ← {type: 'mark'}     → {type: 'marked'}                     forget the request log, start counting CPU
//   ← {type: 'read'}     → {type: 'usage', cpuMs, maxRssMB, log} CPU since the mark, peak RSS, the requests
//   ← {type: 'close'}                                          stop and exit
// argv: <dist/sandbox/index.js> <seed.json> <latency ms> <token>
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [entry, seedPath, latency, token] = process.argv.slice(2);
const { startSandbox } = await import(pathToFileURL(entry).href);

const cpuMs = (since = { user: 0, system: 0 }) => {
  const now = process.cpuUsage(since);
  return (now.user + now.system) / 1000;
};

const t0 = performance.now();
const cpu0 = process.cpuUsage();
const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', token, seed: JSON.parse(readFileSync(seedPath, 'utf8')), latencyMs: Number(latency) });
process.send({ type: 'ready', url: sandbox.url, startMs: performance.now() - t0, startCpuMs: cpuMs(cpu0) });

let mark = process.cpuUsage();
process.on('message', async (m) => {
  if (m.type === 'mark') {
    sandbox.clearRequests();
    mark = process.cpuUsage();
    process.send({ type: 'marked' });
  } else if (m.type === 'read') {
    const used = cpuMs(mark);
    // Only what the runner counts: bodies of 30,000 labels would only slow the channel down.
    const log = sandbox.requests().map((e) => ({ method: e.method, path: e.path, query: e.query, status: e.status }));
    process.send({ type: 'usage', cpuMs: used, maxRssMB: process.resourceUsage().maxRSS / 1024, log });
  } else if (m.type === 'close') {
    await sandbox.close();
    process.disconnect();
  }
});
