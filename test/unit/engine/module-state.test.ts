import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../support/source-scan.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * State a module keeps at its top level (a `let`, or a collection made once for every run): shared by
 * every plan and apply of the process, and by the tests that run them. What one run learns belongs to
 * its run object (src/plan/pipeline.ts), its context, or a kind's run state (defineKind's runState).
 * A constant table typed read-only (`ReadonlySet`, `ReadonlyMap`) is no state.
 */
const MODULE_STATE = /^(?:export\s+)?(?:(?:let|var)\s|const\s+\w+\s*(?::(?!\s*Readonly)[^=]+)?=\s*new\s+(?:Weak)?(?:Map|Set)\b)/;

function moduleState(source: string): string[] {
  return source.split('\n').flatMap((line, i) => (MODULE_STATE.test(line) ? [`${i + 1}: ${line.trim()}`] : []));
}

describe('the engine keeps no state between runs', () => {
  it('finds module-level state where there is some (the scan works)', () => {
    expect(moduleState('const cache = new WeakMap<object, string>();\nlet n = 0;\nexport const seen: Set<string> = new Set();\n  const local = new Map();\nconst LIMIT = 3;\nconst KNOWN: ReadonlySet<string> = new Set([\'a\']);')).toEqual([
      '1: const cache = new WeakMap<object, string>();',
      '2: let n = 0;',
      '3: export const seen: Set<string> = new Set();',
    ]);
  });

  it('has no module-level mutable state in src/kinds, src/plan and src/apply', () => {
    const found = ['src/kinds', 'src/plan', 'src/apply'].flatMap((dir) => sourceFiles(root, dir)).flatMap((f) => moduleState(readFileSync(join(root, f), 'utf8')).map((hit) => `${f}:${hit}`));
    expect(found).toEqual([]);
  });
});
