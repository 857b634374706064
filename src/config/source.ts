import { LineCounter, isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Pair, type YAMLError, type YAMLMap } from 'yaml';
import type { ConfigProblem } from './errors.js';
import { excerpt, quoted } from './excerpt.js';
import { formatPath } from './path.js';
import type { ConfigPath, SourceLocation } from './types.js';

/** A parsed config file: its text, its YAML document (never modified) and the line index for positions. */
export interface YamlSource {
  file: string;
  text: string;
  doc: Document.Parsed;
  lineCounter: LineCounter;
}

/** The `key:` node and the value node at a path; `complete` is false when the walk stopped at an ancestor. */
interface Resolved {
  node: unknown;
  key: unknown;
  complete: boolean;
}

export function parseYaml(file: string, text: string): { source: YamlSource; problems: ConfigProblem[] } {
  const lineCounter = new LineCounter();
  // uniqueKeys is off: yaml compares each new key with every earlier key of its map (quadratic in the map's size, 17 s
  // for 25,000 repositories); duplicateKeys() below does the same check with one hash map per YAML map.
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: false });
  const source: YamlSource = { file, text, doc, lineCounter };
  const problems = [...doc.errors, ...doc.warnings].map((e) => yamlProblem(source, e));
  // A document with syntax errors is only partly read: its duplicates may be invented by the error recovery.
  if (problems.length === 0) problems.push(...duplicateKeys(source));
  return { source, problems };
}

function yamlProblem(source: YamlSource, e: YAMLError): ConfigProblem {
  const at = position(source, e.pos[0]);
  // With prettyErrors the message carries " at line L, column C:" and a code frame: keep the first line only.
  // Some of yaml's messages quote the file (a tag, a token): that part is an excerpt like any other.
  let message = excerpt((e.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, ''), 160, false);
  if (e.code === 'MULTIPLE_DOCS') message = 'a config file holds one YAML document: remove the "---" separator or split the file';
  // yaml turns its own stack overflow on deeply nested collections into an error.
  else if (/Maximum call stack size exceeded/.test(message)) message = 'YAML nested too deeply: a config needs a few levels only';
  else if (e.code === 'TAG_RESOLVE_FAILED' && /^Unresolved tag/.test(message))
    message = `${message.replace(/^Unresolved tag: /, 'unknown tag ')}: a config is plain YAML (use \${NAME} to read an environment variable)`;
  else message = `YAML syntax error: ${message}`;
  return { ...at, message };
}

/**
 * Every key written twice in one map, at the second one, naming the first. Keys are compared by the name they get in
 * the JS copy (so `1` and `"1"` clash: both would be the issue "1"). One pass, one hash map per YAML map.
 */
function duplicateKeys(source: YamlSource): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  // Aliases are not followed: the anchored node is checked where it is written.
  const visit = (node: unknown, path: ConfigPath) => {
    if (isMap(node)) {
      const seen = new Map<string, unknown>();
      for (const pair of node.items) {
        const name = keyName(pair.key);
        const first = seen.get(name);
        if (first === undefined) seen.set(name, pair.key);
        else {
          const f = position(source, rangeStart(first) ?? 0);
          problems.push({
            ...position(source, rangeStart(pair.key) ?? 0),
            message: `duplicate key ${quoted(name)} in ${formatPath(path)} (first at line ${f.line}, column ${f.col})`,
          });
        }
        path.push(name);
        visit(pair.value, path);
        path.pop();
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        path.push(i);
        visit(item, path);
        path.pop();
      });
    }
  };
  visit(source.doc.contents, []);
  return problems;
}

/** The name a map key has in the JS copy of the document. */
export function keyName(key: unknown): string {
  if (isScalar(key)) return String(key.value);
  return String(key);
}

function rangeStart(node: unknown): number | undefined {
  const r = (node as { range?: [number, number, number] } | null)?.range;
  return r?.[0];
}

export function position(source: YamlSource, offset: number): SourceLocation {
  const { line, col } = source.lineCounter.linePos(offset);
  return { file: source.file, line, col };
}

function deref(source: YamlSource, node: unknown): unknown {
  return isAlias(node) ? node.resolve(source.doc) : node;
}

/** Each YAML map's pairs by key name, built on first use: a lookup per path segment must not scan the map. */
const pairIndex = new WeakMap<YAMLMap, Map<string, Pair>>();

function pairOf(map: YAMLMap, name: string): Pair | undefined {
  let index = pairIndex.get(map);
  if (!index) {
    index = new Map();
    // The first of duplicate keys wins, as a linear search would find it.
    for (const pair of map.items) {
      const key = keyName(pair.key);
      if (!index.has(key)) index.set(key, pair);
    }
    pairIndex.set(map, index);
  }
  return index.get(name);
}

function resolve(source: YamlSource, path: ConfigPath): Resolved {
  let node: unknown = deref(source, source.doc.contents);
  let key: unknown = null;
  for (const seg of path) {
    if (isMap(node)) {
      const pair = pairOf(node, String(seg));
      if (!pair) return { node, key, complete: false };
      key = pair.key;
      node = deref(source, pair.value);
    } else if (isSeq(node) && typeof seg === 'number' && seg < node.items.length) {
      key = null;
      node = deref(source, node.items[seg]);
    } else return { node, key, complete: false };
  }
  return { node, key, complete: true };
}

/**
 * Where the value at `path` (or with `atKey`, its `key:`) is written. `nearest` falls back to the deepest ancestor
 * that exists (for errors); otherwise a path that is not in the file gives undefined.
 */
export function locateIn(source: YamlSource, path: ConfigPath, atKey = false, nearest = false): SourceLocation | undefined {
  const r = resolve(source, path);
  if (!r.complete && !nearest) return undefined;
  const target = atKey && r.complete && r.key ? r.key : r.node;
  const start = rangeStart(target);
  if (start === undefined) return nearest ? position(source, 0) : undefined;
  return position(source, start);
}

/** Calls `fn` for every string scalar that is a value (not a key), with its path; follows aliases. */
export function forEachStringValue(source: YamlSource, fn: (value: string, path: ConfigPath, offset: number) => void): void {
  const stack = new Set<unknown>();
  const visit = (raw: unknown, path: ConfigPath) => {
    const node = deref(source, raw);
    if (stack.has(node)) return; // an alias inside its own anchor
    if (isScalar(node)) {
      if (typeof node.value === 'string') fn(node.value, path, rangeStart(node) ?? 0);
      return;
    }
    stack.add(node);
    if (isMap(node)) for (const pair of node.items) visit(pair.value, [...path, keyName(pair.key)]);
    else if (isSeq(node)) node.items.forEach((item, i) => visit(item, [...path, i]));
    stack.delete(node);
  };
  visit(source.doc.contents, []);
}
