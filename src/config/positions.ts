import { isAlias, isMap, isScalar, isSeq, type Alias, type Document } from 'yaml';
import type { ConfigPath } from './types.js';

/**
 * Where the nodes of a config file are written, kept after loading instead of the parsed YAML document: errors found
 * later (by the planner, by a kind) still name file:line:col, but a loaded config no longer holds the document's
 * nodes, tokens and ranges (most of its live heap on a large forge). A scalar is its offset alone; a map keeps its
 * keys' names and offsets and its values' positions in one flat array; a list its items' positions.
 */
export type PositionNode = number | MapPositions | ListPositions;

export class MapPositions {
  /** By key name: the index of its triple in `entries`. Built on the first lookup, for maps beyond a few keys. */
  private byName?: Map<string, number>;
  /** [name, key offset, value position] per key, in the file's order; the first of duplicate keys is the one found. */
  readonly entries: (string | number | PositionNode)[] = [];

  constructor(readonly at: number) {}

  add(name: string, keyAt: number, value: PositionNode): void {
    this.entries.push(name, keyAt, value);
  }

  /** The key offset and value position of `name`, if the map has it. */
  find(name: string): { keyAt: number; value: PositionNode } | undefined {
    const e = this.entries;
    let i = -1;
    if (e.length <= 24) {
      for (let j = 0; j < e.length; j += 3)
        if (e[j] === name) {
          i = j;
          break;
        }
    } else {
      if (!this.byName) {
        this.byName = new Map();
        for (let j = e.length - 3; j >= 0; j -= 3) this.byName.set(e[j] as string, j);
      }
      i = this.byName.get(name) ?? -1;
    }
    return i < 0 ? undefined : { keyAt: e[i + 1] as number, value: e[i + 2] as PositionNode };
  }
}

export class ListPositions {
  readonly items: PositionNode[] = [];
  constructor(readonly at: number) {}
}

/** Offset of the node's first character. */
export function startOf(node: PositionNode): number {
  return typeof node === 'number' ? node : node.at;
}

/** The positions at `path`: the deepest node reached, the offset of its key (null for a list item), whether all of it was. */
export function resolvePosition(root: PositionNode, path: ConfigPath): { node: PositionNode; keyAt: number | null; complete: boolean } {
  let node = root;
  let keyAt: number | null = null;
  for (const seg of path) {
    if (node instanceof MapPositions) {
      const hit = node.find(String(seg));
      if (!hit) return { node, keyAt, complete: false };
      keyAt = hit.keyAt;
      node = hit.value;
    } else if (node instanceof ListPositions && typeof seg === 'number' && seg < node.items.length) {
      keyAt = null;
      node = node.items[seg]!;
    } else return { node, keyAt, complete: false };
  }
  return { node, keyAt, complete: true };
}

/** The name a map key has in the JS copy of the document. */
export function keyName(key: unknown): string {
  if (isScalar(key)) return String(key.value);
  return String(key);
}

function rangeStart(node: unknown): number {
  return (node as { range?: [number, number, number] } | null)?.range?.[0] ?? 0;
}

/**
 * The positions of a parsed document's nodes. Aliases are followed (their positions are the anchor's, as the values
 * are); an alias inside its own anchor is where the walk stops.
 */
export function positionsOf(doc: Document.Parsed, resolve: (alias: unknown) => unknown = (alias) => (alias as Alias).resolve(doc)): PositionNode {
  const done = new Map<unknown, PositionNode>();
  // Recursive: the loader has bounded the nesting (aliases followed) before it asks (src/config/source.ts).
  const visit = (raw: unknown): PositionNode => {
    const node = isAlias(raw) ? resolve(raw) : raw;
    const known = done.get(node);
    if (known !== undefined) return known;
    if (isMap(node)) {
      const out = new MapPositions(rangeStart(node));
      done.set(node, out);
      for (const pair of node.items) out.add(keyName(pair.key), rangeStart(pair.key), visit(pair.value));
      return out;
    }
    if (isSeq(node)) {
      const out = new ListPositions(rangeStart(node));
      done.set(node, out);
      for (const item of node.items) out.items.push(visit(item));
      return out;
    }
    return rangeStart(node);
  };
  return visit(doc.contents);
}

/** Offsets where each line starts, for a text whose lines end in "\n" (yaml's LineCounter gives the same for any text). */
export function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
}

/** Line and column (1-based) of `offset`, as yaml's LineCounter computes them from the same line starts. */
export function linePos(starts: readonly number[], offset: number): { line: number; col: number } {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (starts[mid]! < offset) low = mid + 1;
    else high = mid;
  }
  if (starts[low] === offset) return { line: low + 1, col: 1 };
  if (low === 0) return { line: 0, col: offset };
  return { line: low, col: offset - starts[low - 1]! + 1 };
}
