import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { kinds } from '../../src/kinds/index.js';
import { cycles, importGraph, longFunctions, sourceFiles, tokens, unitOf } from './support/source-scan.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const files = sourceFiles(root, 'src');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** Folders that must stay generic: they learn about kinds only through the Kind contract. */
const GENERIC = ['plan', 'apply', 'render', 'export', 'cli'];
/**
 * How code could name a kind: its machine name, config key, prune key and --target type (user, users,
 * branch_protection, …) as a whole identifier or string, or a change id's prefix ("org/server:/acme").
 * Prose in messages ("the token's own user") is not a kind name.
 */
const KIND_NAMES = new Set(kinds.flatMap((k) => [k.name, k.configKey, k.pruneKey, k.target?.type ?? ''].filter(Boolean)));
const namesKind = (text: string): boolean => KIND_NAMES.has(text) || kinds.some((k) => text.startsWith(`${k.name}/`));

/**
 * Files allowed to name kinds, with how many times: none now. Should one ever be needed while a move
 * is under way, list it here with its count, which may then only go down; no other file may start
 * naming kinds. Scope resolution (src/scopes) is its own stage: it knows the model's scope types and
 * the config sections that declare them.
 */
const KIND_NAMES_LEFT: Record<string, number> = {};
/**
 * Where each top-level unit of src sits (a folder, or a file such as secret.ts): a unit imports only
 * units of the layers below its own. Every unit is listed, so a new folder fails until it is placed.
 * The sandbox is the server the tests talk to, not a stage of the tool: it imports only the config's
 * limits, the seeded random source and Go's durations ({@link SANDBOX_USES}).
 */
const LAYERS: readonly (readonly string[])[] = [
  // Every message is made inert where it is formed (a diagnostic is one line, whatever its values hold).
  ['inert'],
  // releases: facts read from each release's source (field rules), shared by the sandbox and the plan.
  ['diagnostic', 'go-duration', 'random', 'redact', 'releases', 'version'],
  ['secret'],
  ['config', 'gitea'],
  ['model'],
  ['kinds', 'lock', 'scopes', 'sandbox'],
  ['plan'],
  ['apply'],
  // rehearse: plan --rehearse, the plan applied to a copy of what it read (the sandbox), then planned again there.
  ['rehearse'],
  ['export', 'render'],
  ['cli'],
  ['action'],
];
const SANDBOX_USES = ['config', 'go-duration', 'random', 'releases'];
/** The generic stages learn about kinds through the model's Kind contract: they never import src/kinds (cli and action choose the registry). */
const NO_KINDS_IMPORT = ['plan', 'apply', 'rehearse', 'render', 'export'];

/**
 * Inside src/sandbox: `core` is the generic machinery (the state and its access model, the domain
 * contract, the state file) and imports no domain; `http` and `flavours` are generic too; a domain may
 * import core, http, flavours and other domains. The files at the sandbox's top (app.ts, index.ts …)
 * assemble the server and may import every folder; no folder imports them. A new folder fails until placed.
 */
const SANDBOX_MAY_IMPORT: Record<string, readonly string[]> = {
  core: ['http', 'flavours'],
  http: ['core', 'flavours'],
  flavours: ['core', 'http'],
  domains: ['core', 'http', 'flavours'],
};
const SANDBOX_TOP_FILES = ['app', 'cli', 'copy', 'index', 'request-log', 'seed'];

/** Functions over the limit (80 own lines, 60 in src/plan and src/apply; 150 with their closures), as `file: first line`: none. A long function is split, not listed; a listed one that was split fails too. */
const LONG_FUNCTIONS_LEFT: string[] = [];
/** File-level import cycles still there (each as its sorted files): none. A cycle is a bug to break, not to list. */
const CYCLES_LEFT: string[][] = [];

const graph = importGraph(files, read);
const layerOf = new Map(LAYERS.flatMap((units, i) => units.map((u) => [u, i] as const)));
/** The part of the sandbox a file is in: its folder under src/sandbox, or its own name for a file at the top. */
const sandboxPart = (file: string): string => file.split('/')[2]!.replace(/\.ts$/, '');

function byFile(hits: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const h of hits) {
    const file = h.slice(0, h.indexOf(':'));
    out[file] = (out[file] ?? 0) + 1;
  }
  return out;
}

describe('architecture', () => {
  it('places every top-level unit of src in a layer, and each imports only layers below its own', () => {
    const units = [...new Set(files.map(unitOf))].sort();
    expect(units.filter((u) => !layerOf.has(u)), 'units missing from LAYERS').toEqual([]);
    expect([...layerOf.keys()].filter((u) => !units.includes(u)).sort(), 'LAYERS lists units that are gone').toEqual([]);
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      const from = unitOf(file);
      for (const target of targets) {
        const to = unitOf(target);
        if (to === from) continue;
        if (layerOf.get(to)! >= layerOf.get(from)!) wrong.push(`${file} imports ${target}: ${to} is not below ${from}`);
        if (from === 'sandbox' && !SANDBOX_USES.includes(to)) wrong.push(`${file} imports ${target}: the sandbox uses only ${SANDBOX_USES.join(', ')}`);
        if (NO_KINDS_IMPORT.includes(from) && to === 'kinds') wrong.push(`${file} imports ${target}: ${from} is generic`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("keeps the sandbox's core free of domains, and its folders free of the files that assemble it", () => {
    const parts = [...new Set(files.filter((f) => unitOf(f) === 'sandbox').map(sandboxPart))].sort();
    expect(parts.filter((p) => !(p in SANDBOX_MAY_IMPORT) && !SANDBOX_TOP_FILES.includes(p)), 'sandbox parts not placed').toEqual([]);
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      if (unitOf(file) !== 'sandbox' || SANDBOX_TOP_FILES.includes(sandboxPart(file))) continue;
      const from = sandboxPart(file);
      for (const target of targets) {
        if (unitOf(target) !== 'sandbox') continue;
        const to = sandboxPart(target);
        if (to !== from && !SANDBOX_MAY_IMPORT[from]!.includes(to)) wrong.push(`${file} imports ${target}: sandbox/${from} may import ${SANDBOX_MAY_IMPORT[from]!.join(', ')}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has no import cycle between the files of src', () => {
    expect(cycles(graph)).toEqual(CYCLES_LEFT);
  });

  it('finds a cycle, a kind name and a long function when there is one (the scanners work)', () => {
    const units = new Map([['kinds', new Set(['plan'])], ['plan', new Set(['model', 'kinds'])], ['model', new Set<string>()]]);
    expect(cycles(units)).toEqual([['kinds', 'plan']]);
    const sources: Record<string, string> = { 'src/a.ts': "import { b } from './b/index.js';", 'src/b/index.ts': "import type { A } from '../a.js';\nimport data from './data.json';" };
    expect(cycles(importGraph(Object.keys(sources), (f) => sources[f]!))).toEqual([['src/a.ts', 'src/b/index.ts']]);
    const source = "// a user\nconst x = 'users'; /* org */ const y = `org/server:/${name}`;\n";
    expect(tokens(source).filter((t) => namesKind(t.text)).map((t) => t.text)).toEqual(['users', 'org/server:/']);
    const body = Array.from({ length: 61 }, (_, i) => `  f(${i});`).join('\n');
    expect(longFunctions(`export function big(a: number): void {\n${body}\n}\nif (x) {\n${body}\n}\n`, 60)).toHaveLength(1);
    // A return type with braces of its own, over a long parameter list, is still a function's head.
    const params = Array.from({ length: 40 }, (_, i) => `  p${i}: (x: { a: number }) => void = () => {},`).join('\n');
    expect(longFunctions(`export async function big(\n${params}\n): Promise<{ a: string[]; b: number }> {\n${body}\n}\n`, 60).map((f) => [f.line, f.own])).toEqual([[42, 63]]);
    // Closures count for their parent only up to 150 lines in all: three closures of 63 lines, 2 lines of its own, 191 in all.
    const closures = [1, 2, 3].map((n) => `  const c${n} = () => {\n${body}\n  };`).join('\n');
    const found = longFunctions(`function parent() {\n${closures}\n}\n`, 80);
    expect(found.map((f) => [f.head, f.own, f.length])).toEqual([['function parent() {', 2, 191]]);
  });

  it('names no kind in the generic stages (comments aside)', () => {
    const hits: string[] = [];
    for (const file of files.filter((f) => GENERIC.includes(unitOf(f)))) {
      for (const t of tokens(read(file))) {
        if (namesKind(t.text)) hits.push(`${file}:${t.line}: ${t.kind} ${JSON.stringify(t.text)}`);
      }
    }
    const counts = byFile(hits);
    expect(counts, hits.join('\n')).toEqual(KIND_NAMES_LEFT);
  });

  it('keeps every function within 80 lines of its own (60 in the planner and the executor) and 150 with its closures', () => {
    const long = files.flatMap((f) => longFunctions(read(f), ['plan', 'apply'].includes(unitOf(f)) ? 60 : 80).map((l) => `${f}: ${l.head}`));
    expect(long.sort()).toEqual([...LONG_FUNCTIONS_LEFT].sort());
  });
});
