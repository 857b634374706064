// Reads a V8 .cpuprofile (node --cpu-prof) and names the functions that took the most CPU themselves:
// enough to say what limits a missed target without opening DevTools.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

/**
 * @returns [{fn, where, ms, share}] the `top` functions by self time; idle and GC bookkeeping included
 *   under their V8 names ("(idle)", "(garbage collector)") so that the shares add up.
 */
export function topFunctions(file, root, top = 8) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byFunction = new Map();
  let all = 0;
  for (const [id, us] of self) {
    const { callFrame: f } = nodes.get(id);
    const where = f.url ? `${relative(root, f.url.replace(/^file:\/\//, ''))}:${f.lineNumber + 1}` : '';
    const key = `${f.functionName || '(anonymous)'} ${where}`;
    const entry = byFunction.get(key) ?? { fn: f.functionName || '(anonymous)', where, ms: 0 };
    entry.ms += us / 1000;
    byFunction.set(key, entry);
    all += us / 1000;
  }
  return [...byFunction.values()]
    .filter((e) => e.fn !== '(idle)' && e.fn !== '(program)')
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top)
    .map((e) => ({ ...e, ms: Math.round(e.ms), share: all ? e.ms / all : 0 }));
}
