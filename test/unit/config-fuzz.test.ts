/**
 * The loader and validator, in process, on 10,000 generated inputs of every YAML shape that has broken a loader:
 * deep nesting (block mappings and sequences in turn closed by one dedent, compact "- - -", flow brackets, a mix),
 * anchors and aliases (chains, cycles, bombs, merge keys, undefined), long scalars and keys, tags, several
 * documents, random bytes and random YAML punctuation. Every input must give a config or a ConfigError whose lines
 * name a place: never another exception (issue 18: "RangeError: Maximum call stack size exceeded" on 349 of 10,500).
 *
 * Fixed seed (FORGEFORM_FUZZ_SEED overrides it); no timing assertion (the time is printed). The e2e fuzz
 * (test/e2e/fuzz.test.ts) sends fewer inputs through the CLI, alternating nesting among them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { loadConfig, readConfigFiles } from '../../src/config/load.js';
import { MAX_NESTING } from '../../src/config/source.js';
import { seededRandom } from '../../src/random.js';

const SEED = Number(process.env.FORGEFORM_FUZZ_SEED ?? 20261125);
const INPUTS = 10_000;

type Rng = () => number;
const below = (r: Rng, n: number) => Math.floor(r() * n);
const pick = <T>(r: Rng, items: readonly T[]): T => items[below(r, items.length)]!;
const chance = (r: Rng, p: number) => r() < p;

/** Depths around the limit, and far beyond what a stack holds when a dedent closes them all at once. */
const depth = (r: Rng) => pick(r, [1, 5, MAX_NESTING - 4, MAX_NESTING - 1, MAX_NESTING, MAX_NESTING + 1, MAX_NESTING + 5, 200, 1000, chance(r, 0.3) ? 3000 : 1500]);
const HEAD = 'version: 1\nrepos:\n';
const TAIL = ['', 'orgs: {}\n', '  acme/tail: {}\n', 'x: 1\n', '# end\n'];

/** Block mappings and sequences in turn, each indented 1 to 3 columns deeper, closed by one dedent. */
function alternating(r: Rng): string {
  const n = depth(r);
  const lines: string[] = [];
  let indent = 2;
  for (let i = 0; i < n; i++) {
    const seq = chance(r, 0.5) ? i % 2 === 1 : chance(r, 0.5);
    lines.push(`${' '.repeat(indent)}${seq ? '-' : `k${i}:`}`);
    indent += 1 + below(r, 3);
  }
  return `${HEAD}${lines.join('\n')} ${pick(r, ['1', 'v', '{}', '[]', '"s"', ''])}\n${pick(r, TAIL)}`;
}

/** Nesting on one line: "- - - x", "- k: - k: x" (invalid, but the parser must say so), "k: [ {a: [ …". */
function compact(r: Rng): string {
  const n = depth(r);
  const unit = pick(r, ['- ', '- k: ', '? ', '- [', '{a: ', '[', '- {k: [']);
  const close = unit.includes('[') || unit.includes('{') ? (unit.match(/[[{]/g) ?? []).map((c) => (c === '[' ? ']' : '}')).reverse().join('') : '';
  const balanced = chance(r, 0.7);
  return `${HEAD}  acme/x:\n    labels: ${unit.repeat(n)}v${balanced ? close.repeat(n) : close.repeat(below(r, n))}\n${pick(r, TAIL)}`;
}

/** Flow brackets and braces in a random order, sometimes unbalanced, with block lines after them. */
function flow(r: Rng): string {
  const n = depth(r);
  const open: string[] = [];
  let text = '';
  for (let i = 0; i < n; i++) {
    const c = pick(r, ['[', '{k: ', '{', '[{a: ']);
    text += c;
    open.push(...(c.match(/[[{]/g) ?? []).map((x) => (x === '[' ? ']' : '}')));
  }
  text += pick(r, ['x', '1', '"q"', '', '*a', '&b z']);
  const closing = open.reverse().join('');
  text += chance(r, 0.8) ? closing : closing.slice(0, below(r, closing.length));
  return `${HEAD}  acme/x: ${text}\n${pick(r, TAIL)}`;
}

/** Block inside flow inside block: a flow collection at each level of a block nesting. */
function mixed(r: Rng): string {
  const n = Math.min(depth(r), 1000);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`${' '.repeat(i + 2)}k${i}: ${chance(r, 0.3) ? `[${'{a: ['.repeat(3)}1${']}'.repeat(3)}]` : ''}`);
  return `${HEAD}${lines.join('\n')}\n${pick(r, TAIL)}`;
}

/** Anchors and aliases: chains, cycles, bombs, merge keys, undefined anchors, aliases as keys. */
function aliases(r: Rng): string {
  const n = pick(r, [2, 10, MAX_NESTING, MAX_NESTING + 2, 200]);
  switch (below(r, 8)) {
    case 0: // each anchor holds an alias of the one before: shallow text, deep value
      return `version: 1\nanchors:\n  a0: &a0 [x]\n${Array.from({ length: n }, (_, i) => `  a${i + 1}: &a${i + 1} ${pick(r, [`[*a${i}]`, `{k: *a${i}}`, `\n    - *a${i}`])}`).join('\n')}\n`;
    case 1: // an alias inside its own anchor
      return pick(r, [
        'version: 1\nrepos:\n  acme/x:\n    labels: &l\n      bug: *l\n',
        'version: 1\nusers: &u [*u]\n',
        'version: 1\nrepos: &r\n  acme/x: { labels: { bug: { description: *r } } }\n',
        'version: 1\nx: &a { b: &b [ *a, *b ] }\n',
      ]);
    case 2: // a billion laughs, at a random width
      return `version: 1\na: &a [${Array(9).fill('"lol"').join(',')}]\n${['b', 'c', 'd', 'e', 'f'].map((k, i) => `${k}: &${k} [${Array(pick(r, [2, 9, 50])).fill(`*${'abcde'[i]}`).join(',')}]`).join('\n')}\nusers: *f\n`;
    case 3: // merge keys
      return `version: 1\nbase: &b { color: ee0701 }\nrepos:\n  acme/x:\n    labels:\n${Array.from({ length: Math.min(n, 200) }, (_, i) => `      l${i}: { <<: ${pick(r, ['*b', '[*b, *b]', '*nope', '{}'])}, description: d }`).join('\n')}\n`;
    case 4: // aliases to anchors not defined, or defined later
      return `version: 1\nrepos:\n  acme/x:\n    labels:\n      a: *later\n      b: &later { color: ee0701 }\n      c: *${pick(r, ['later', 'never', ''])}\n`;
    case 5: // aliases as keys, anchors on keys
      return `version: 1\nrepos:\n  &k acme/x: { labels: {} }\n  *k : { labels: {} }\n  ? [*k]\n  : 1\n`;
    case 6: // many aliases of many anchors
      return `version: 1\nx:\n${Array.from({ length: n * 4 }, (_, i) => `  - &a${i} v${i}\n  - *a${below(r, i + 1)}`).join('\n')}\n`;
    default: // an anchor on every level of a deep nesting, the deepest aliased at the top
      return `version: 1\nx: *d${n - 1}\ny:\n${Array.from({ length: n }, (_, i) => `${' '.repeat(i + 2)}- &d${i}`).join('\n')} leaf\n`;
  }
}

/** Long scalars, keys over 1024 characters, block scalars with odd indentation, escapes, tags, documents. */
function scalars(r: Rng): string {
  const long = 'x'.repeat(pick(r, [1025, 5000, 50_000]));
  return pick(r, [
    `${HEAD}  acme/x:\n    description: ${long}\n`,
    `${HEAD}  ${long}: {}\n`,
    `${HEAD}  acme/x:\n    description: "${'\\u00e9\\x41\\t'.repeat(2000)}\\"\n`,
    `${HEAD}  acme/x:\n    description: |${pick(r, ['', '2', '-', '+', '9', '1-'])}\n${Array.from({ length: 300 }, (_, i) => `${' '.repeat(4 + (i % 70))}line ${i}`).join('\n')}\n`,
    `${HEAD}  acme/x:\n    description: >\n${'      folded\n\n'.repeat(500)}`,
    `version: 1\nusers: !!${pick(r, ['set', 'omap', 'pairs', 'binary', 'timestamp', 'float', 'map', 'seq', 'str', 'nope'])} ${pick(r, ['[a, b]', '{a: 1}', 'R0lGODlh', '2026-13-45', '- a\n- b'])}\n`,
    `%YAML 1.1\n%TAG ! tag:example.com,2000:\n---\nversion: 1\nrepos: !x { }\n`,
    `${'version: 1\n---\n'.repeat(below(r, 50) + 1)}`,
    `version: 1\nrepos:\n  acme/x:\n    labels:\n      "${'\\'.repeat(below(r, 3))}${'"'.repeat(below(r, 3))}": {}\n`,
    `version: 1\n${Array.from({ length: 500 }, (_, i) => `k${i % 50}: ${i}`).join('\n')}\n`,
  ]);
}

const PUNCTUATION = ['-', ':', ' ', '  ', '\n', '[', ']', '{', '}', ',', '&a', '*a', '!', '!!str', '|', '>', "'", '"', '%', '@', '`', '#', '?', '\t', '---', '...', 'k', 'v', '1', '\r\n', '<<'];

/** Random YAML punctuation and words, or random bytes. */
function noise(r: Rng): string | Buffer {
  if (chance(r, 0.3)) return Buffer.from(Array.from({ length: below(r, 2000) }, () => below(r, 256)));
  return Array.from({ length: below(r, 3000) }, () => pick(r, PUNCTUATION)).join('');
}

/** A valid config with one structural edit: a level opened or closed anywhere. */
function edited(r: Rng): string {
  const lines = ['version: 1', 'repos:', '  acme/widgets:', '    labels:', '      bug: { color: ee0701, description: "It is broken" }', '      feature:', '        color: 0288d1', '    branch_protections:', '      main: { required_approvals: 1 }', 'orgs:', '  acme: { visibility: private }'];
  for (let n = 1 + below(r, 4); n > 0; n--) {
    const i = below(r, lines.length);
    const indent = ' '.repeat(below(r, 12));
    lines.splice(i, 0, pick(r, [`${indent}-`, `${indent}k:`, `${indent}- k:`, `${indent}[`, `${indent}{`, `${indent}? k`, `${indent}: v`, `${indent}&a`, `${indent}*a`, `${indent}|`]));
  }
  return lines.join('\n') + '\n';
}

const GENERATORS: [string, (r: Rng) => string | Buffer][] = [
  ['alternating', alternating],
  ['compact', compact],
  ['flow', flow],
  ['mixed', mixed],
  ['aliases', aliases],
  ['scalars', scalars],
  ['noise', noise],
  ['edited', edited],
];

const dir = mkdtempSync(join(tmpdir(), 'forgeform-config-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the loader on generated inputs', () => {
  it(`answers ${INPUTS.toLocaleString('en')} inputs of every YAML shape with a config or a ConfigError naming a place, never another exception`, { timeout: 300_000 }, async () => {
    const r = seededRandom(SEED);
    const file = join(dir, 'forgeform.yaml');
    const failures: string[] = [];
    const by: Record<string, { valid: number; refused: number; ms: number }> = {};
    let deep = 0;
    const started = performance.now();
    for (let i = 0; i < INPUTS; i++) {
      const [name, make] = GENERATORS[i % GENERATORS.length]!;
      const input = make(r);
      const tally = (by[name] ??= { valid: 0, refused: 0, ms: 0 });
      const t0 = performance.now();
      try {
        // In process, as loadConfig does once it has read the file: no file system in the loop.
        readConfigFiles([{ name: file, content: Buffer.from(input) }], { FUZZ_SET: 'v' });
        tally.valid++;
      } catch (e) {
        const excerpt = `${name} #${i}: ${JSON.stringify(String(input).slice(0, 160))}`;
        if (!(e instanceof ConfigError)) {
          failures.push(`${excerpt}: ${(e as Error)?.constructor?.name} ${String((e as Error)?.message).slice(0, 200)}`);
          continue;
        }
        tally.refused++;
        if (/nested too deeply/.test(e.message)) deep++;
        // Every line names a place in the file, and none is an internal error in disguise.
        const lines = e.message.split('\n');
        const bad = lines.find((l) => !(l.startsWith(`${file}:`) || /^… and \d+ more problems? \(fix the ones above first\)$/.test(l)) || /Maximum call stack|RangeError|internal error|undefined|\[object /.test(l));
        if (bad !== undefined) failures.push(`${excerpt}: ${bad.slice(0, 200)}`);
      } finally {
        tally.ms += performance.now() - t0;
      }
    }
    console.log(
      `config fuzz (seed ${SEED}): ${INPUTS} inputs in ${Math.round(performance.now() - started)} ms; ${deep} refused as nested too deeply; ` +
        Object.entries(by)
          .map(([name, t]) => `${name} ${t.valid} valid / ${t.refused} refused (${Math.round(t.ms)} ms)`)
          .join(', '),
    );
    expect(failures.slice(0, 20)).toEqual([]);
    // The generators reach the bound (from both sides) and past it, in several shapes.
    expect(deep).toBeGreaterThan(INPUTS / 20);
  });

  it('reads a config nested as deeply as the bound allows (anchors followed), and refuses one level more at its line', async () => {
    // MAX_NESTING levels in all: the top-level map, `x`'s list, and lists down to the leaf.
    const at = (levels: number) => `version: 1\nx:\n${Array.from({ length: levels - 1 }, (_, i) => `${' '.repeat(i + 1)}-`).join('\n')} leaf\n`;
    const ok = join(dir, 'ok.yaml');
    writeFileSync(ok, at(MAX_NESTING - 1));
    // Within the bound, the only problem is the unknown key: the nesting itself is read.
    await expect(loadConfig([ok], {})).rejects.toThrow(/unknown key "x" at the top level/);
    const deeper = join(dir, 'deeper.yaml');
    writeFileSync(deeper, at(MAX_NESTING + 2));
    await expect(loadConfig([deeper], {})).rejects.toThrow(new RegExp(`^${deeper}:\\d+:\\d+: YAML nested too deeply: more than ${MAX_NESTING} levels`));
  });

  it('refuses an alias inside its own anchor, and a chain of anchors deeper than the bound, at the alias', async () => {
    const cycle = join(dir, 'cycle.yaml');
    writeFileSync(cycle, 'version: 1\nrepos:\n  acme/x:\n    labels: &l\n      bug: *l\n');
    await expect(loadConfig([cycle], {})).rejects.toThrow(`${cycle}:5:12: the alias *l is inside its own anchor: its value would nest without end`);
    const chain = join(dir, 'chain.yaml');
    writeFileSync(chain, `version: 1\nx:\n  a0: &a0 [leaf]\n${Array.from({ length: MAX_NESTING + 5 }, (_, i) => `  a${i + 1}: &a${i + 1} [*a${i}]`).join('\n')}\n`);
    await expect(loadConfig([chain], {})).rejects.toThrow(/chain\.yaml:\d+:\d+: YAML nested too deeply: more than 64 levels \(a config needs a few\), with aliases followed/);
  });
});
