// The position index kept after loading instead of yaml's documents: the places yaml found, in a compact form, so
// that errors keep their file:line:col while the documents are dropped.
import { describe, expect, it } from 'vitest';
import { LineCounter, parseDocument } from 'yaml';
import { linePos, lineStarts, positionsOf, resolvePosition, startOf } from '../../src/config/positions.js';
import { locateIn, parseYaml } from '../../src/config/source.js';

function yamlReads(text: string) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false });
  return { data: doc.toJS() as unknown, root: positionsOf(doc), lines: lineCounter.lineStarts };
}

describe('the position index', () => {
  const text = 'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: "ff0000" }\nhooks:\n  - { url: "https://x.test" }\n';

  it('finds values, keys and list items where they are written, and the nearest ancestor of a missing path', () => {
    const { source } = parseYaml('f.yaml', text);
    expect(locateIn(source, ['repos', 'acme/widgets', 'labels', 'bug', 'color'])).toEqual({ file: 'f.yaml', line: 5, col: 21 });
    expect(locateIn(source, ['repos', 'acme/widgets', 'labels', 'bug'], true)).toEqual({ file: 'f.yaml', line: 5, col: 7 });
    expect(locateIn(source, ['hooks', 0, 'url'])).toEqual({ file: "f.yaml", line: 7, col: 12 });
    expect(locateIn(source, ['hooks', 0], true)).toEqual({ file: 'f.yaml', line: 7, col: 5 });
    expect(locateIn(source, ['repos', 'acme/gadgets'])).toBeUndefined();
    expect(locateIn(source, ['repos', 'acme/gadgets', 'labels'], true, true)).toEqual({ file: 'f.yaml', line: 3, col: 3 });
  });

  it('answers a lookup in a map of thousands of keys by name, the first of equal names first', () => {
    const { root } = yamlReads(`users:\n${Array.from({ length: 5000 }, (_, i) => `  user-${i}: { full_name: "U ${i}" }`).join('\n')}\n`);
    const r = resolvePosition(root, ['users', 'user-4321', 'full_name']);
    expect(r.complete).toBe(true);
    expect(linePos(lineStarts('x'), 0)).toEqual({ line: 1, col: 1 });
    const lines = lineStarts(`users:\n${Array.from({ length: 5000 }, (_, i) => `  user-${i}: { full_name: "U ${i}" }`).join('\n')}\n`);
    expect(linePos(lines, startOf(r.node))).toEqual({ line: 4323, col: 27 });
  });

  it('computes lines and columns as yaml LineCounter does', () => {
    const counter = new LineCounter();
    parseDocument(text, { lineCounter: counter });
    for (let offset = 0; offset <= text.length; offset++) expect(linePos(lineStarts(text), offset)).toEqual(counter.linePos(offset));
  });
});
