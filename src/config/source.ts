import { Composer, isAlias, isCollection, isMap, isPair, isSeq, Lexer, LineCounter, Parser, YAMLParseError, type Document, type YAMLError } from 'yaml';
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
  const source: YamlSource = { file, lines: lineCounter.lineStarts, root: 0 };
  const parsed = parseBounded(text, lineCounter);
  if ('tooDeepAt' in parsed) return { source, problems: [{ ...position(source, parsed.tooDeepAt), message: TOO_DEEP }] };
  const { doc } = parsed;
  // The positions are taken once the document is known to be readable (a too deeply nested one is not).
  const hashInFlow = doc.errors.length > 0 ? unquotedHashInFlowMap(text) : undefined;
  const problems = hashInFlow !== undefined ? [hashProblem(source, text, hashInFlow)] : [...doc.errors, ...doc.warnings].map((e) => yamlProblem(source, e));
  // A document with syntax errors is only partly read: its duplicates may be invented by the error recovery.
  if (problems.length === 0) problems.push(...duplicateKeys(source, doc.contents));
  // Without a "*" in the text there is no alias: a large file is not walked once more for none.
  const aliases = problems.length === 0 && text.includes('*') ? aliasTargets(doc) : new Map<unknown, unknown>();
  if (problems.length === 0) problems.push(...aliasProblems(source, doc, aliases));
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
    // yaml refuses to expand an anchor into more than maxAliasCount copies ("Excessive alias count…", an
    // alias bomb): name the first alias, the place to look, instead of the file's start.
    const at = aliases.size ? (rangeStart([...aliases.keys()][0]) ?? 0) : 0;
    const message = /alias count/i.test((e as Error).message) ? 'aliases expand into too many copies (an anchor used over 100 times once expanded): a config needs few; write the values out' : excerpt((e as Error).message, 160, false);
    return { source, problems: [{ ...position(source, at), message }] };
  }
  source.root = positionsOf(doc, (alias) => aliases.get(alias));
  return { source, data: data as Record<string, unknown>, problems };
}

/**
 * How deeply a config's values may nest, aliases followed. A config needs about eight levels (repos, a repository,
 * labels, a label, its fields, a list); yaml's parser, composer and toJS, the positions, ajv and the merge all
 * recurse once per level, so a bound far below what the stack holds keeps every one of them safe.
 */
export const MAX_NESTING = 64;

/** Aliases in one file: yaml resolves each by a scan of the document's anchors (quadratic in their number). */
export const MAX_ALIASES = 10_000;

const TOO_DEEP = `YAML nested too deeply: more than ${MAX_NESTING} levels (a config needs a few)`;

/**
 * yaml's parseDocument, lexeme by lexeme, stopping where the parser's stack of open collections grows beyond
 * MAX_NESTING: the parser closes them by recursion (1,000 levels closed by one dedent overflow the stack), so
 * nothing deeper may reach it. The composer frees the syntax tree of a big collection while it builds its nodes.
 */
function parseBounded(text: string, lineCounter: LineCounter): { doc: Document.Parsed } | { tooDeepAt: number } {
  const parser = new Parser(lineCounter.addNewLine);
  // uniqueKeys is off: yaml compares each new key with every earlier key of its map (quadratic in the map's size, 17 s
  // for 25,000 repositories); duplicateKeys() below does the same check with one hash map per YAML map.
  // resolveKnownTags off: !!binary, !!set, !!omap, !!pairs and !!timestamp would give a Buffer, a Set, a Map or a
  // Date, which no config field is; they are unknown tags, as in plain YAML 1.2.
  const composer = new Composer({ uniqueKeys: false, resolveKnownTags: false });
  const docs: Document.Parsed[] = [];
  lineCounter.addNewLine(0);
  for (const lexeme of new Lexer().lex(text)) {
    const at = parser.offset;
    for (const token of parser.next(lexeme)) docs.push(...composer.next(releasingItems(token)));
    // The stack holds the document and the scalar being read besides the open collections.
    if (parser.stack.length > MAX_NESTING + 2) return { tooDeepAt: at };
  }
  for (const token of parser.end()) docs.push(...composer.next(releasingItems(token)));
  docs.push(...composer.end(true, text.length));
  const doc = docs[0]!;
  if (docs.length > 1) doc.errors.push(new YAMLParseError([docs[1]!.range[0], docs[1]!.range[1]], 'MULTIPLE_DOCS', 'more than one document'));
  return { doc };
}

/**
 * The syntax tree of a 9 MB file takes about 270 MB, its document 190 MB more: holding both at once was most of a
 * large plan's peak memory. yaml's composer reads the items of a block collection once, in order (for…of): each
 * item's tokens are let go as soon as it is read, so the tree shrinks while the document grows. `token` is returned.
 */
function releasingItems<T>(token: T): T {
  const stack: unknown[] = [token];
  while (stack.length > 0) {
    const t = stack.pop() as { type?: string; value?: unknown; items?: { key?: unknown; value?: unknown }[] } | null | undefined;
    if (!t || typeof t !== 'object') continue;
    if (t.type === 'document') stack.push(t.value);
    else if ((t.type === 'block-map' || t.type === 'block-seq') && t.items) {
      const items = t.items;
      for (const item of items) stack.push(item.key, item.value);
      if (items.length < 64) continue;
      Object.defineProperty(items, Symbol.iterator, {
        value: function* () {
          for (let i = 0; i < items.length; i++) {
            const item = items[i]!;
            items[i] = undefined as never;
            yield item;
          }
        },
      });
    }
  }
  return token;
}

/**
 * Aliases that would make the JS copy too deep or endless (an alias inside its own anchor, or a chain of anchors each
 * holding an alias of the one before), or too many to resolve: problems at the alias. Iterative, with one height per
 * node, aliases resolved in one pass in document order (as yaml does: the last anchor of that name before the alias).
 */
function aliasProblems(source: YamlSource, doc: Document.Parsed, target: Map<unknown, unknown>): ConfigProblem[] {
  if (target.size > MAX_ALIASES) return [{ ...position(source, rangeStart([...target.keys()][MAX_ALIASES]) ?? 0), message: `more than ${MAX_ALIASES} aliases in one file` }];
  if (target.size === 0) return [];
  const resolved = (n: unknown) => (isAlias(n) ? target.get(n) : n);
  // Heights (a collection of scalars is 1), post-order, iteratively; a collection met again while open is a cycle.
  const height = new Map<unknown, number>();
  const open = new Set<unknown>();
  const work: { node: unknown; via: unknown; done: boolean }[] = [{ node: doc.contents, via: doc.contents, done: false }];
  while (work.length > 0) {
    const w = work[work.length - 1]!;
    if (w.done) {
      work.pop();
      open.delete(w.node);
      let h = 0;
      for (const c of childrenOf(w.node)) h = Math.max(h, height.get(resolved(c)) ?? 0);
      height.set(w.node, h + 1);
      continue;
    }
    w.done = true;
    if (!isCollection(w.node) || height.has(w.node)) {
      work.pop();
      continue;
    }
    if (open.has(w.node))
      return [{ ...position(source, rangeStart(w.via) ?? 0), message: `the alias ${String(w.via)} is inside its own anchor: its value would nest without end` }];
    open.add(w.node);
    for (const c of childrenOf(w.node)) work.push({ node: resolved(c), via: c, done: false });
  }
  if ((height.get(doc.contents) ?? 0) <= MAX_NESTING) return [];
  // Down the deepest path: the first alias on it is what made it too deep.
  let node: unknown = doc.contents;
  for (;;) {
    let deepest: unknown;
    for (const c of childrenOf(node)) if (deepest === undefined || (height.get(resolved(c)) ?? 0) > (height.get(resolved(deepest)) ?? 0)) deepest = c;
    if (deepest === undefined || isAlias(deepest)) return [{ ...position(source, rangeStart(deepest ?? node) ?? 0), message: `${TOO_DEEP}, with aliases followed` }];
    node = deepest;
  }
}

/**
 * The node each alias stands for, found in one pass in document order, as yaml resolves it: the last node with that
 * anchor before the alias (yaml's own Alias.resolve scans the whole document for each alias). Iterative.
 */
function aliasTargets(doc: Document.Parsed): Map<unknown, unknown> {
  const anchors = new Map<string, unknown>();
  const target = new Map<unknown, unknown>();
  // A node's anchor is set before its children are visited: an alias inside it finds it, as in yaml.
  const order: unknown[] = [doc.contents];
  while (order.length > 0) {
    const node = order.pop();
    if (isAlias(node)) {
      target.set(node, anchors.get(node.source));
      continue;
    }
    const anchor = (node as { anchor?: string } | null)?.anchor;
    if (anchor) anchors.set(anchor, node);
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) order.push(children[i]);
  }
  return target;
}

/** The nodes a collection holds (a map's keys and values), else none. */
function childrenOf(node: unknown): unknown[] {
  if (isMap(node)) return node.items.flatMap((p) => (isPair(p) ? [p.key, p.value] : [p]));
  if (isSeq(node)) return [...node.items];
  return [];
}

/**
 * Where an unquoted `#` follows a `{` on its line (`bug: { color: #ee0701 }`, as label colours are often written): YAML
 * reads the `#` as the start of a comment, the map is never closed, and yaml reports it lines later ("Flow map in
 * block collection must be sufficiently indented"). Quoted text is skipped; only the first such place counts.
 */
export function unquotedHashInFlowMap(text: string): number | undefined {
  const found = /^[^\n#"']*\{(?:[^\n#"'{}]|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')*?\s(#)/m.exec(text);
  return found ? found.index + found[0].length - 1 : undefined;
}

function hashProblem(source: YamlSource, text: string, offset: number): ConfigProblem {
  const value = /^#[^\s,}]*/.exec(text.slice(offset))?.[0] ?? '#';
  return {
    ...position(source, offset),
    message: `YAML syntax error: an unquoted "#" inside { } starts a comment, so the rest of the line is lost: quote the value (${quoted(value)})`,
  };
}

function yamlProblem(source: YamlSource, e: YAMLError): ConfigProblem {
  const at = position(source, e.pos[0]);
  // With prettyErrors the message carries " at line L, column C:" and a code frame: keep the first line only.
  // Some of yaml's messages quote the file (a tag, a token): that part is an excerpt like any other.
  // A file with syntax errors may be no config at all (a .git/config, a .env): its text is never quoted, the
  // position says where to look (issue 28: "Unexpected scalar token in YAML stream: "basic <token>"").
  let message = excerpt((e.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, ''), 160, false);
  if (e.code !== 'TAG_RESOLVE_FAILED') message = message.replace(/: ".*$/, '').replace(/(extra characters): .*$/, '$1');
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
        // A list or map as a key (`? [a, b]`) would be stringified into a name ("[ a, b ]"): never a config key.
        if (isCollection(pair.key)) {
          problems.push({ ...position(source, rangeStart(pair.key) ?? 0), message: `a key must be a name, not a ${isSeq(pair.key) ? 'list' : 'map'}${path.length ? ` (in ${formatPath(path)})` : ''}` });
          continue;
        }
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
