// The loader's own reader of plain YAML and the position index kept after loading: where the reader answers, its
// values and positions are yaml's exactly (checked against parseDocument + toJS); where it is unsure, it gives up and
// yaml reads the file, so that errors keep their text and file:line:col.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineCounter, parseDocument } from 'yaml';
import { parsePlainYaml } from '../../src/config/plain-yaml.js';
import { linePos, lineStarts, positionsOf, resolvePosition, startOf } from '../../src/config/positions.js';
import { locateIn, parseYaml } from '../../src/config/source.js';

function yamlReads(text: string) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false });
  return { data: doc.toJS() as unknown, root: positionsOf(doc), lines: lineCounter.lineStarts };
}

/** The plain reader's answer, which must be yaml's in values, positions and line starts. */
function expectSameAsYaml(text: string) {
  const plain = parsePlainYaml(text);
  expect(plain, text).toBeDefined();
  const yaml = yamlReads(text);
  expect(plain!.data).toStrictEqual(yaml.data);
  expect(JSON.parse(JSON.stringify(plain!.root))).toStrictEqual(JSON.parse(JSON.stringify(yaml.root)));
  expect(lineStarts(text)).toStrictEqual(yaml.lines);
}

const examples = ['examples/demo', 'examples/admin', 'examples/gitops/config'].flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => join(dir, f)),
);

describe('the plain YAML reader', () => {
  it.each(examples)('reads %s as yaml does', (file) => expectSameAsYaml(readFileSync(file, 'utf8')));

  it.each([
    ['block maps, lists, flow collections and comments', 'version: 1 # c\n# top\nusers:\n  alice: { email: a@x.test, admin: true }\n  bob:\n    full_name: "Bob \\"B\\" \\u00e9"\n    quota: 12\n\nhooks:\n- url: https://x.test/h\n  events: [push, "issues", \'it\'\'s\']\n- { url: "https://y.test", active: FALSE }\n'],
    ['a list under its key', 'version: 1\npolicy:\n  prune:\n    - labels\n    - hooks\n  max_deletes: 7\n'],
    ['scalars of the core schema', 'a: null\nb: Null\nc: True\nd: 0042\ne: 0e8a16\nf: d73a4a\ng: x#y\nh: a:b\ni: \'\'\nj: ""\nk: {}\nl: []\nm: { n: x~ }\n'],
    ['numeric keys', 'issues:\n  1: { state: open }\n  0042: { state: closed }\n'],
    ['unicode', 'repos:\n  "acme/wïdgets":\n    labels:\n      "🐛 bug": { color: "ff0000" }\n'],
  ])('reads %s as yaml does', (_name, text) => expectSameAsYaml(text));

  it.each([
    ['an anchor and an alias', 'a: &x { b: 1 }\nc: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a block scalar', 'a: |\n  text\n'],
    ['a multi-line flow map', 'a: { b: 1,\n  c: 2 }\n'],
    ['a multi-line plain scalar', 'a: b\n  c\n'],
    ['an empty value', 'a:\nb: 1\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a duplicate key in a flow map', 'a: { b: 1, b: 2 }\n'],
    ['a tab', 'a:\n\tb: 1\n'],
    ['CRLF line ends', 'a: 1\r\nb: 2\r\n'],
    ['a float', 'a: 1.5\n'],
    ['a hexadecimal number', 'a: 0x1F\n'],
    ['a negative number', 'a: -1\n'],
    ['a long number', 'a: 1234567890123456\n'],
    ['a nested mapping on one line', 'a: b: c\n'],
    ['a trailing comma', 'a: [1, 2, ]\n'],
    ['flow collections nested beyond a config', `a: ${'['.repeat(100)}${']'.repeat(100)}\n`],
    ['a second document', 'a: 1\n---\nb: 2\n'],
    ['a boolean key', 'true: 1\n'],
    ['a __proto__ key', '__proto__: { a: 1 }\n'],
    ['a merge key', 'a: { <<: { b: 1 } }\n'],
    ['an escape JSON does not have', 'a: "\\x41"\n'],
    ['a bad indentation', 'a:\n    b: 1\n  c: 2\n'],
    ['a list', '- a\n- b\n'],
    ['a single value', 'just text\n'],
    ['an empty file', ''],
  ])('gives %s to yaml', (_name, text) => {
    expect(parsePlainYaml(text)).toBeUndefined();
  });
});

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

  it('gives the same positions whichever reader read the file', () => {
    const viaYaml = 'version: 1\nrepos: &r\n  acme/widgets:\n    labels:\n      bug: { color: "ff0000" }\nhooks:\n  - { url: "https://x.test" }\n';
    const a = parseYaml('f.yaml', text).source;
    const b = parseYaml('f.yaml', viaYaml).source;
    expect(parsePlainYaml(viaYaml)).toBeUndefined();
    for (const path of [['repos', 'acme/widgets', 'labels', 'bug', 'color'], ['hooks', 0, 'url'], ['repos']]) {
      expect(locateIn(b, path)).toEqual(locateIn(a, path));
      expect(locateIn(b, path, true)).toEqual(locateIn(a, path, true));
    }
  });

  it('answers a lookup in a map of thousands of keys by name, the first of equal names first', () => {
    const { root } = parsePlainYaml(`users:\n${Array.from({ length: 5000 }, (_, i) => `  user-${i}: { full_name: "U ${i}" }`).join('\n')}\n`)!;
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
