// Reads a V8 .cpuprofile (node --cpu-prof, or the inspector's Profiler) and says where the CPU went:
// the functions with the most self time, and the same time summed by module (a file of forgeform, a
// package, Node's internals) — enough to say what limits a missed target without opening DevTools.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A module's name for the summary: the package for node_modules, the file for our own code. */
function moduleOf(file) {
  if (!file) return '(native, GC)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (pkg) return pkg[1];
  if (file.startsWith('node:')) return 'node internals';
  return file;
}

/**
 * @returns {busyMs, functions: [{fn, where, ms, share}], modules: [{module, ms, share}]}: the `top`
 *   functions and modules by self time; shares are of the busy time (idle left out).
 */
export function summariseProfile(path, root, top = 8) {
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const functions = new Map();
  const modules = new Map();
  let busy = 0;
  for (const [id, us] of self) {
    const { callFrame: f } = nodes.get(id);
    if (f.functionName === '(idle)') continue;
    const ms = us / 1000;
    busy += ms;
    const file = f.url.startsWith('file://') ? relative(root, fileURLToPath(f.url)) : f.url;
    const where = file ? `${file}:${f.lineNumber + 1}` : '';
    const key = `${f.functionName} ${where}`;
    const entry = functions.get(key) ?? { fn: f.functionName || '(anonymous)', where, ms: 0 };
    entry.ms += ms;
    functions.set(key, entry);
    const mod = moduleOf(file);
    modules.set(mod, (modules.get(mod) ?? 0) + ms);
  }
  const rank = (list) =>
    list
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top)
      .map((e) => ({ ...e, ms: Math.round(e.ms), share: busy ? e.ms / busy : 0 }));
  return {
    busyMs: Math.round(busy),
    functions: rank([...functions.values()]),
    modules: rank([...modules.entries()].map(([module, ms]) => ({ module, ms }))),
  };
}
