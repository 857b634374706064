import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { kinds } from '../../src/kinds/index.js';
import { cycles, importsOf, longFunctions, sourceFiles, tokens, unitOf } from './support/source-scan.js';

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
/** Functions still over the limit, by file and first line (none now: a new one must be split, not listed). */
const LONG_FUNCTIONS_LEFT: string[] = [];

function byFile(hits: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const h of hits) {
    const file = h.slice(0, h.indexOf(':'));
    out[file] = (out[file] ?? 0) + 1;
  }
  return out;
}

describe('architecture', () => {
  it('has no import cycle between the top-level folders of src', () => {
    const graph = new Map<string, Set<string>>();
    for (const file of files) {
      const from = unitOf(file);
      const edges = graph.get(from) ?? new Set<string>();
      graph.set(from, edges);
      for (const spec of importsOf(read(file))) {
        if (!spec.startsWith('.')) continue;
        const target = normalize(join(dirname(file), spec)).split('\\').join('/');
        if (!target.startsWith('src/')) continue;
        const to = unitOf(target);
        if (to !== from) edges.add(to);
      }
    }
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a cycle, a kind name and a long function when there is one (the scanners work)', () => {
    const graph = new Map([['kinds', new Set(['plan'])], ['plan', new Set(['model', 'kinds'])], ['model', new Set<string>()]]);
    expect(cycles(graph)).toEqual([['kinds', 'plan']]);
    const source = "// a user\nconst x = 'users'; /* org */ const y = `org/server:/${name}`;\n";
    expect(tokens(source).filter((t) => namesKind(t.text)).map((t) => t.text)).toEqual(['users', 'org/server:/']);
    const body = Array.from({ length: 61 }, (_, i) => `  f(${i});`).join('\n');
    expect(longFunctions(`export function big(a: number): void {\n${body}\n}\nif (x) {\n${body}\n}\n`, 60)).toHaveLength(1);
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

  it('keeps every function of the planner and the executor within 60 lines', () => {
    const long = files
      .filter((f) => ['plan', 'apply'].includes(unitOf(f)))
      .flatMap((f) => longFunctions(read(f), 60).map((l) => `${f}: ${l.head}`));
    expect(long.sort()).toEqual([...LONG_FUNCTIONS_LEFT].sort());
  });
});
