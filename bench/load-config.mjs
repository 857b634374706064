// node --expose-gc bench/load-config.mjs [small|large] [runs]: CPU time of loading the bench forge's config (the
// built loader, dist/config/load.js, in this process) and the heap that stays alive afterwards while the loaded
// config is held, as plan and apply hold it. Figures only. Add --cpu-prof to node's options for a profile.
import { Buffer } from 'node:buffer';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../dist/config/load.js';
import { generateForge, USER_PASSWORD_VAR } from './forge.mjs';

const size = process.argv[2] ?? 'large';
const runs = Number(process.argv[3] ?? 5);
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const dir = mkdtempSync(join(tmpdir(), 'forgeform-bench-load-'));
const file = join(dir, 'forgeform.yaml');
const { config } = generateForge(size);
writeFileSync(file, config);
const env = { ...process.env, [USER_PASSWORD_VAR]: 'Bench-Password-1' };

const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const heapMB = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed / (1024 * 1024);
};

/** One load, measured: its CPU time, and the heap alive while the result is held (as plan and apply hold it). */
async function once() {
  const before = heapMB();
  const t0 = cpuMs();
  const loaded = await loadConfig([file], env);
  const cpu = cpuMs() - t0;
  // Something the planner asks: positions must still answer after loading.
  if (!loaded.locate(['repos'])) throw new Error('repos not located');
  return { cpu, retained: heapMB() - before };
}

const cpu = [];
let retained = 0;
for (let i = 0; i < runs; i++) {
  const r = await once();
  cpu.push(r.cpu);
  retained = r.retained;
}
console.log(
  `${size} config (${(Buffer.byteLength(config) / 1024).toFixed(0)} KB): load CPU ms ${cpu.map((c) => c.toFixed(0)).join(' / ')} (first / then), ` +
    `retained heap after load ${retained.toFixed(1)} MB, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
);
rmSync(dir, { recursive: true, force: true });
