import { ListPositions, MapPositions, type PositionNode } from './positions.js';

/**
 * A reader for the plain YAML that configs are written in: block maps and lists, one-line flow maps and lists, plain
 * and quoted one-line scalars, comments. It gives the same values and positions as yaml's parseDocument + toJS (core
 * schema) for that subset, in a fraction of the time and without building a document (the parse was a fifth of a
 * plan's CPU on a 1,000-repository forge). Anything else — anchors, tags, block scalars, multi-line scalars or flow
 * collections, empty values, duplicate keys, numbers other than plain decimals, anything yaml would warn about or
 * reject — makes it give up (undefined), and the file is read by yaml, which reports the errors as before.
 */
export function parsePlainYaml(text: string): { data: Record<string, unknown>; root: MapPositions } | undefined {
  // Characters that only yaml knows how to judge (tabs, CR, controls, BOM, Unicode line separators).
  if (UNSUPPORTED_CHARS.test(text)) return undefined;
  try {
    const reader = new Reader(text);
    const first = reader.nextContent();
    if (!first || first.indent !== 0) return undefined;
    const { data, positions } = reader.blockMap(0, first.content, 0);
    if (reader.nextContent()) return undefined;
    return { data, root: positions };
  } catch (e) {
    if (e === GIVE_UP) return undefined;
    throw e;
  }
}

// eslint-disable-next-line no-control-regex
const UNSUPPORTED_CHARS = /[\t\r\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufeff\u2028\u2029]/;
/** Characters that may not start a plain scalar here (YAML indicators; "-", "+" and "." may start numbers). */
const NOT_PLAIN_START = new Set([...'-?:,[]{}#&*!|>\'"%@`.+~ ']);
const FLOW_END = new Set([',', ']', '}', '[', '{']);
const MAX_DEPTH = 64;
/** Thrown (and caught in parsePlainYaml) where the reader is unsure: yaml reads the file instead. */
const GIVE_UP = new Error('not plain YAML');

function giveUp(): never {
  throw GIVE_UP;
}

interface Line {
  /** Offset of the first non-space character. */
  content: number;
  indent: number;
}

class Reader {
  /** Offset of the start of the next line not yet read. */
  private next = 0;

  constructor(private readonly text: string) {}

  /** The next line with content (blank and comment-only lines skipped), consumed. */
  nextContent(): Line | undefined {
    const t = this.text;
    while (this.next < t.length) {
      const start = this.next;
      let end = t.indexOf('\n', start);
      if (end < 0) end = t.length;
      let i = start;
      while (t.charCodeAt(i) === 32) i++;
      if (i < end && t[i] !== '#') {
        if (start === i && (t.startsWith('---', i) || t.startsWith('...', i))) giveUp();
        return { content: i, indent: i - start };
      }
      this.next = end + 1;
    }
    return undefined;
  }

  /** Marks the line holding `offset` as read. */
  private consumeLine(offset: number): void {
    const end = this.text.indexOf('\n', offset);
    this.next = end < 0 ? this.text.length : end + 1;
  }

  /** After a value: spaces, then the end of the line or a comment. */
  private lineEnd(i: number): void {
    const t = this.text;
    const start = i;
    while (t.charCodeAt(i) === 32) i++;
    if (i < t.length && t[i] !== '\n' && !(t[i] === '#' && i > start)) giveUp();
    this.consumeLine(i);
  }

  /** A block map whose first key starts at `keyAt`, its keys indented by `indent`. */
  blockMap(indent: number, keyAt: number, depth: number): { data: Record<string, unknown>; positions: MapPositions } {
    if (depth > MAX_DEPTH) giveUp();
    const t = this.text;
    const data: Record<string, unknown> = {};
    const positions = new MapPositions(keyAt);
    for (;;) {
      const { name, end } = this.blockKey(keyAt);
      if (Object.hasOwn(data, name)) giveUp();
      let i = end + 1;
      while (t.charCodeAt(i) === 32) i++;
      let value: unknown;
      let at: PositionNode;
      if (i >= t.length || t[i] === '\n' || (t[i] === '#' && i > end + 1)) {
        // The value is the block below.
        this.consumeLine(i);
        const child = this.nextContent();
        if (!child) giveUp();
        if (t[child.content] === '-' && t[child.content + 1] === ' ') {
          if (child.indent < indent) giveUp();
          ({ data: value, positions: at } = this.blockList(child.indent, child.content, depth + 1));
        } else {
          if (child.indent <= indent) giveUp();
          ({ data: value, positions: at } = this.blockMap(child.indent, child.content, depth + 1));
        }
      } else {
        ({ value, at, end: i } = this.inlineValue(i, depth + 1));
        this.lineEnd(i);
      }
      data[name] = value;
      positions.add(name, keyAt, at);
      const line = this.peek();
      if (!line || line.indent < indent) return { data, positions };
      if (line.indent > indent || t[line.content] === '-') giveUp();
      this.nextContent();
      keyAt = line.content;
    }
  }

  /** A block list whose first "-" is at `dashAt`, indented by `indent`. */
  private blockList(indent: number, dashAt: number, depth: number): { data: unknown[]; positions: ListPositions } {
    if (depth > MAX_DEPTH) giveUp();
    const t = this.text;
    const data: unknown[] = [];
    const positions = new ListPositions(dashAt);
    for (;;) {
      let i = dashAt + 1;
      while (t.charCodeAt(i) === 32) i++;
      if (i >= t.length || t[i] === '\n' || t[i] === '#') giveUp();
      if (this.startsKey(i)) {
        // "- key: value": a map whose keys line up with the first one.
        const lineStart = t.lastIndexOf('\n', i) + 1;
        const { data: value, positions: at } = this.blockMap(i - lineStart, i, depth + 1);
        data.push(value);
        positions.items.push(at);
      } else {
        const { value, at, end } = this.inlineValue(i, depth + 1);
        this.lineEnd(end);
        data.push(value);
        positions.items.push(at);
      }
      const line = this.peek();
      if (!line || line.indent < indent) return { data, positions };
      if (line.indent > indent) giveUp();
      if (!(t[line.content] === '-' && t[line.content + 1] === ' ')) {
        // A list at its parent's indentation ends where the parent's next key starts.
        return { data, positions };
      }
      this.nextContent();
      dashAt = line.content;
    }
  }

  private peek(): Line | undefined {
    const saved = this.next;
    const line = this.nextContent();
    this.next = saved;
    return line;
  }

  /** Whether a block map key ("name:" followed by a space or the line's end) starts at `i`. */
  private startsKey(i: number): boolean {
    try {
      this.blockKey(i);
      return true;
    } catch (e) {
      if (e === GIVE_UP) return false;
      throw e;
    }
  }

  /** A key at `i`: its name and the offset of its ":". */
  private blockKey(i: number): { name: string; end: number } {
    const t = this.text;
    let name: string;
    let end: number;
    if (t[i] === '"' || t[i] === "'") {
      ({ value: name, end } = this.quoted(i));
    } else {
      if (NOT_PLAIN_START.has(t[i]!)) giveUp();
      end = i;
      for (;;) {
        const c = t[end];
        if (c === undefined || c === '\n') giveUp();
        if (c === ':' && (end + 1 >= t.length || t[end + 1] === ' ' || t[end + 1] === '\n')) break;
        if (c === '#' && t[end - 1] === ' ') giveUp();
        end++;
      }
      name = keyOf(t.slice(i, end));
    }
    if (t[end] !== ':' || (end + 1 < t.length && t[end + 1] !== ' ' && t[end + 1] !== '\n')) giveUp();
    if (name === '__proto__' || name === '<<' || end - i > 1000) giveUp();
    return { name, end };
  }

  /** A value on the rest of the line: a flow collection or a scalar. */
  private inlineValue(i: number, depth: number): { value: unknown; at: PositionNode; end: number } {
    const t = this.text;
    const c = t[i];
    if (c === '{' || c === '[') return this.flow(i, depth);
    if (c === '"' || c === "'") {
      const { value, end } = this.quoted(i);
      return { value, at: i, end };
    }
    if (NOT_PLAIN_START.has(c!)) giveUp();
    let end = i;
    for (;;) {
      const ch = t[end];
      if (ch === undefined || ch === '\n') break;
      if (ch === '#' && t[end - 1] === ' ') break;
      if (ch === ':' && (t[end + 1] === ' ' || t[end + 1] === '\n' || end + 1 >= t.length)) giveUp();
      end++;
    }
    let last = end;
    while (t[last - 1] === ' ') last--;
    return { value: plainValue(t.slice(i, last)), at: i, end: last };
  }

  /** A flow map or list that ends on its line. */
  private flow(open: number, depth: number): { value: unknown; at: PositionNode; end: number } {
    if (depth > MAX_DEPTH) giveUp();
    const t = this.text;
    const isMap = t[open] === '{';
    const close = isMap ? '}' : ']';
    const map: Record<string, unknown> = {};
    const list: unknown[] = [];
    const positions = isMap ? new MapPositions(open) : new ListPositions(open);
    let i = this.spaces(open + 1);
    if (t[i] === close) return { value: isMap ? map : list, at: positions, end: i + 1 };
    for (;;) {
      if (isMap) {
        const keyAt = i;
        let name: string;
        if (t[i] === '"' || t[i] === "'") ({ value: name, end: i } = this.quoted(i));
        else {
          const key = this.flowPlain(i, true);
          name = keyOf(t.slice(keyAt, key.end));
          i = key.end;
        }
        if (t[i] !== ':' || t[i + 1] !== ' ' || Object.hasOwn(map, name) || name === '__proto__' || name === '<<') giveUp();
        i = this.spaces(i + 1);
        const v = this.flowValue(i, depth);
        map[name] = v.value;
        (positions as MapPositions).add(name, keyAt, v.at);
        i = v.end;
      } else {
        const v = this.flowValue(i, depth);
        list.push(v.value);
        (positions as ListPositions).items.push(v.at);
        i = v.end;
      }
      i = this.spaces(i);
      if (t[i] === close) return { value: isMap ? map : list, at: positions, end: i + 1 };
      if (t[i] !== ',') giveUp();
      i = this.spaces(i + 1);
      // A trailing comma, or an empty entry.
      if (t[i] === close || t[i] === ',') giveUp();
    }
  }

  private flowValue(i: number, depth: number): { value: unknown; at: PositionNode; end: number } {
    const t = this.text;
    const c = t[i];
    if (c === '{' || c === '[') return this.flow(i, depth + 1);
    if (c === '"' || c === "'") {
      const { value, end } = this.quoted(i);
      if (t[end] === ':') giveUp();
      return { value, at: i, end };
    }
    const { value, end } = this.flowPlain(i, false);
    return { value, at: i, end };
  }

  /** A plain scalar inside a flow collection; a key ends at its ": ". */
  private flowPlain(i: number, key: boolean): { value: unknown; end: number } {
    const t = this.text;
    if (NOT_PLAIN_START.has(t[i]!) || t[i] === undefined) giveUp();
    let end = i;
    for (;;) {
      const c = t[end];
      if (c === undefined || c === '\n') giveUp();
      if (FLOW_END.has(c)) break;
      if (c === '#' && t[end - 1] === ' ') giveUp();
      if (c === ':' && (t[end + 1] === ' ' || FLOW_END.has(t[end + 1]!))) {
        if (!key) giveUp();
        break;
      }
      end++;
    }
    if (key && t[end] !== ':') giveUp();
    let last = end;
    while (t[last - 1] === ' ') last--;
    if (key && last !== end) giveUp();
    return { value: plainValue(t.slice(i, last)), end: last };
  }

  private spaces(i: number): number {
    while (this.text.charCodeAt(i) === 32) i++;
    return i;
  }

  /** A quoted scalar on one line: its value and the offset after the closing quote. */
  private quoted(i: number): { value: string; end: number } {
    const t = this.text;
    if (t[i] === "'") {
      let j = i + 1;
      for (;;) {
        const k = t.indexOf("'", j);
        const nl = t.indexOf('\n', j);
        if (k < 0 || (nl >= 0 && nl < k)) giveUp();
        if (t[k + 1] === "'") j = k + 2;
        else return { value: t.slice(i + 1, k).replaceAll("''", "'"), end: k + 1 };
      }
    }
    let j = i + 1;
    let escaped = false;
    for (;;) {
      const c = t[j];
      if (c === undefined || c === '\n') giveUp();
      if (c === '"') break;
      if (c === '\\') {
        escaped = true;
        const e = t[j + 1]!;
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(t.slice(j + 2, j + 6))) giveUp();
          j += 6;
          continue;
        }
        // The escapes JSON and YAML read alike.
        if (!'"\\/bfnrt'.includes(e)) giveUp();
        j += 2;
        continue;
      }
      j++;
    }
    const raw = t.slice(i + 1, j);
    return { value: escaped ? (JSON.parse(`"${raw}"`) as string) : raw, end: j + 1 };
  }
}

/**
 * The name a plain key has in the JS copy: a number's is its decimal form (an issue's key 0042 is "42"), as yaml's
 * toJS gives; a key that reads as null or a boolean gives up.
 */
function keyOf(s: string): string {
  if (s.endsWith(' ')) giveUp();
  const v = plainValue(s);
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  giveUp();
}

const NULLS = new Set(['null', 'Null', 'NULL']);
const BOOLEANS = new Map([
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
]);

/**
 * A plain scalar's value under the YAML 1.2 core schema (yaml's own tests, dist/schema/core). A decimal integer of up
 * to 15 digits is the only number read here: any other number gives up; what starts with a digit and is no number
 * (a colour such as 0e8a16) is a string, as in yaml.
 */
function plainValue(s: string): unknown {
  if (NULLS.has(s)) return null;
  const b = BOOLEANS.get(s);
  if (b !== undefined) return b;
  const c = s.charCodeAt(0);
  if (c >= 48 && c <= 57) {
    if (s.length <= 15 && /^[0-9]+$/.test(s)) return Number(s);
    if (CORE_NUMBERS.some((re) => re.test(s))) giveUp();
  }
  return s;
}

const CORE_NUMBERS = [
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
  /^0o[0-7]+$/,
  /^[-+]?[0-9]+$/,
  /^0x[0-9a-fA-F]+$/,
];
