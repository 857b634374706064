import { LineCounter, isMap, isSeq, parseDocument, type YAMLError } from 'yaml';
import type { ConfigProblem } from './errors.js';
import { excerpt, quoted } from './excerpt.js';
import { formatPath } from './path.js';
import { keyName, linePos, ListPositions, MapPositions, positionsOf, resolvePosition, startOf, type PositionNode } from './positions.js';
import type { ConfigPath, SourceLocation } from './types.js';

export { keyName } from './positions.js';

/**
 * A parsed config file, as kept after loading: where its nodes are written and where its lines start, for
 * file:line:col. Neither its text nor its YAML document is kept.
 */
export interface YamlSource {
  file: string;
  lines: readonly number[];
  root: PositionNode;
}

/**
 * Parses a config file: its JS data (when it is a map without errors), the positions of its nodes, and its problems
 * (YAML syntax, duplicate keys, not a map), read by yaml, whose document is dropped once its positions are taken.
 */
export function parseYaml(file: string, text: string): { source: YamlSource; data?: Record<string, unknown>; problems: ConfigProblem[] } {
  const lineCounter = new LineCounter();
  // uniqueKeys is off: yaml compares each new key with every earlier key of its map (quadratic in the map's size, 17 s
  // for 25,000 repositories); duplicateKeys() below does the same check with one hash map per YAML map.
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: false });
  // The positions are taken once the document is known to be readable (a too deeply nested one is not).
  const source: YamlSource = { file, lines: lineCounter.lineStarts, root: 0 };
  const problems = [...doc.errors, ...doc.warnings].map((e) => yamlProblem(source, e));
  // A document with syntax errors is only partly read: its duplicates may be invented by the error recovery.
  if (problems.length === 0) problems.push(...duplicateKeys(source, doc.contents));
  // A document with syntax errors is only partly read: checking its content would report invented problems.
  if (problems.length > 0) return { source, problems };
  if (doc.contents === null) return { source, problems: [{ ...position(source, 0), message: 'the file is empty (expected at least "version: 1")' }] };
  // A file that is not a map is not a config at all (a .env file reads as one long string): say so without quoting it.
  if (!isMap(doc.contents)) {
    const got = isSeq(doc.contents) ? 'a list' : 'a single value';
    return { source, problems: [{ ...position(source, doc.contents.range[0]), message: `not a forgeform config: expected a YAML map that starts with "version: 1", got ${got}` }] };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return { source, problems: [{ ...position(source, 0), message: excerpt((e as Error).message, 160, false) }] };
  }
  source.root = positionsOf(doc);
  return { source, data: data as Record<string, unknown>, problems };
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
function duplicateKeys(source: YamlSource, contents: unknown): ConfigProblem[] {
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
  visit(contents, []);
  return problems;
}

function rangeStart(node: unknown): number | undefined {
  const r = (node as { range?: [number, number, number] } | null)?.range;
  return r?.[0];
}

export function position(source: YamlSource, offset: number): SourceLocation {
  const { line, col } = linePos(source.lines, offset);
  return { file: source.file, line, col };
}

/**
 * Where the value at `path` (or with `atKey`, its `key:`) is written. `nearest` falls back to the deepest ancestor
 * that exists (for errors); otherwise a path that is not in the file gives undefined.
 */
export function locateIn(source: YamlSource, path: ConfigPath, atKey = false, nearest = false): SourceLocation | undefined {
  const r = resolvePosition(source.root, path);
  if (!r.complete && !nearest) return undefined;
  return position(source, atKey && r.complete && r.keyAt !== null ? r.keyAt : startOf(r.node));
}

/**
 * Calls `fn` for every string value (not a key) of `data`, the JS copy of `source`, with its path and where it is
 * written; follows aliases as the copy does.
 */
export function forEachStringValue(source: YamlSource, data: unknown, fn: (value: string, path: ConfigPath, offset: number) => void): void {
  const stack = new Set<unknown>();
  const path: ConfigPath = [];
  const visit = (value: unknown, at: PositionNode) => {
    if (typeof value === 'string') {
      fn(value, [...path], startOf(at));
      return;
    }
    if (value === null || typeof value !== 'object' || stack.has(at)) return; // an alias inside its own anchor
    stack.add(at);
    if (at instanceof MapPositions) {
      const e = at.entries;
      for (let i = 0; i < e.length; i += 3) {
        const name = e[i] as string;
        path.push(name);
        visit(Object.hasOwn(value, name) ? (value as Record<string, unknown>)[name] : undefined, e[i + 2] as PositionNode);
        path.pop();
      }
    } else if (at instanceof ListPositions && Array.isArray(value)) {
      at.items.forEach((item, i) => {
        path.push(i);
        visit(value[i], item);
        path.pop();
      });
    }
    stack.delete(at);
  };
  visit(data, source.root);
}
