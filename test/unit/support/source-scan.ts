import { readdirSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';

/** Every .ts file under a folder, as paths relative to the repository root. */
export function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(root, path));
    else if (entry.name.endsWith('.ts')) out.push(path.split(sep).join('/'));
  }
  return out.sort();
}

export interface Token {
  kind: 'identifier' | 'string';
  text: string;
  line: number;
}

/**
 * The identifiers and string literals of a TypeScript source, comments left out. A small scanner, not a
 * parser: enough for the architecture rules (template literals are read as strings, their ${} as code).
 */
export function tokens(source: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  const braces: number[] = [];
  const readString = (quote: string): void => {
    const start = line;
    let text = '';
    while (i < source.length && source[i] !== quote) {
      if (source[i] === '\\') {
        text += source[i + 1] ?? '';
        i += 2;
        continue;
      }
      if (quote === '`' && source[i] === '$' && source[i + 1] === '{') {
        i += 2;
        braces.push(0);
        out.push({ kind: 'string', text, line: start });
        return;
      }
      if (source[i] === '\n') line++;
      text += source[i++];
    }
    i++;
    out.push({ kind: 'string', text, line: start });
  };
  while (i < source.length) {
    const ch = source[i]!;
    const next = source[i + 1];
    if (ch === '\n') {
      line++;
      i++;
    } else if (ch === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (ch === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? source.length : end + 2;
      line += source.slice(i, stop).split('\n').length - 1;
      i = stop;
    } else if (ch === '"' || ch === "'" || ch === '`') {
      i++;
      readString(ch);
    } else if (ch === '{' && braces.length) {
      braces[braces.length - 1]!++;
      i++;
    } else if (ch === '}' && braces.length) {
      i++;
      if (braces[braces.length - 1] === 0) {
        braces.pop();
        readString('`');
      } else braces[braces.length - 1]!--;
    } else if (/[A-Za-z_$]/.test(ch)) {
      let j = i;
      while (j < source.length && /[\w$]/.test(source[j]!)) j++;
      out.push({ kind: 'identifier', text: source.slice(i, j), line });
      i = j;
    } else if (ch === '/' && isRegexStart(source, i)) {
      i++;
      while (i < source.length && source[i] !== '/' && source[i] !== '\n') i += source[i] === '\\' ? 2 : source[i] === '[' ? skipClass(source, i) : 1;
      i++;
    } else i++;
  }
  return out;
}

function skipClass(source: string, i: number): number {
  let j = i + 1;
  while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
  return j - i + 1;
}

/** A slash starts a regular expression after an operator or an opening bracket, not after a value. */
function isRegexStart(source: string, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && /\s/.test(source[j]!)) j--;
  return j < 0 || /[(,=:[!&|?{};+\-*%<>~^]/.test(source[j]!);
}

/** Module specifiers of a file's static imports and re-exports, and of its dynamic import() calls. */
export function importsOf(source: string): string[] {
  const specs: string[] = [];
  const re = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of source.matchAll(re)) specs.push((m[1] ?? m[2] ?? m[3])!);
  return specs;
}

/** The top-level unit of src a file belongs to: its first folder, or the file itself for src/secret.ts (or secret.js, as imports name it). */
export function unitOf(path: string): string {
  const parts = path.split('/');
  return parts.length > 2 ? parts[1]! : parts[1]!.replace(/\.[jt]s$/, '');
}

/**
 * The file-level import graph of the source files: each file to the source files it imports
 * (`./x.js` is `./x.ts`; imports of other files, such as JSON, are left out).
 */
export function importGraph(files: string[], read: (path: string) => string): Map<string, Set<string>> {
  const known = new Set(files);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const edges = new Set<string>();
    for (const spec of importsOf(read(file))) {
      if (!spec.startsWith('.')) continue;
      const target = posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, '.ts');
      if (known.has(target)) edges.add(target);
      else if (known.has(`${target}/index.ts`)) edges.add(`${target}/index.ts`);
    }
    graph.set(file, edges);
  }
  return graph;
}

/** The cycles of a directed graph, one per strongly connected component with more than one node. */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let n = 0;
  const visit = (v: string): void => {
    index.set(v, n);
    low.set(v, n++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/**
 * Functions longer than `max` lines: every `{` that opens a function body (after `=>` or a parameter
 * list's `)`, optionally with a return type) is measured to its matching `}`. Object literals, classes
 * and control blocks are not functions; their contents are still scanned.
 */
/**
 * Functions too long, by their own lines (a nested function's lines are its own, not its parent's) over `max`, or by
 * all their lines, closures included, over `maxWithClosures`: a function is not kept short by moving its body into
 * closures it defines.
 */
export function longFunctions(source: string, max: number, maxWithClosures = 150): { line: number; length: number; own: number; head: string }[] {
  const code = blankCommentsAndStrings(source);
  const lines = code.split('\n');
  const found: { line: number; length: number; own: number; head: string }[] = [];
  const opens: { line: number; fn: boolean; nested: number }[] = [];
  let line = 0;
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    if (ch === '\n') line++;
    else if (ch === '{') opens.push({ line, fn: opensFunction(code, i), nested: 0 });
    else if (ch === '}') {
      const open = opens.pop();
      if (!open?.fn) continue;
      const length = line - open.line + 1;
      const own = length - open.nested;
      if (own > max || length > maxWithClosures) found.push({ line: open.line + 1, length, own, head: lines[open.line]!.trim() });
      const parent = opens.findLast((o) => o.fn);
      if (parent) parent.nested += length;
    }
  }
  return found;
}

/**
 * The text before a function body's `{` without its return type (`): Promise<{ a: B }>` → `)`), when it has one: the
 * type may hold braces, brackets, parentheses and arrows of its own. Else the text as it is.
 */
function withoutReturnType(head: string): string {
  if (head.endsWith(')')) return head;
  let depth = 0;
  for (let j = head.length - 1; j >= 0; j--) {
    const c = head[j]!;
    if (c === '>' && head[j - 1] === '=') j--;
    else if (c === '}' || c === '>' || c === ']' || c === ')') depth++;
    else if (c === '{' || c === '<' || c === '[' || c === '(') {
      if (--depth < 0) return head;
    } else if (depth === 0 && (c === ';' || c === '=')) return head;
    else if (depth === 0 && c === ':') {
      const lead = head.slice(0, j).trimEnd();
      return lead.endsWith(')') ? lead : head;
    }
  }
  return head;
}

const CONTROL = /\b(if|for|while|switch|catch|with)\s*\([^]*\)\s*$/;

function opensFunction(code: string, brace: number): boolean {
  const before = code.slice(Math.max(0, brace - 4000), brace).replace(/\s+$/, '');
  if (before.endsWith('=>')) return true;
  // A return type annotation between ')' and '{' (": Promise<Plan>", ": Promise<{ a: B }>"): skip back over it.
  const head = withoutReturnType(before);
  if (!head.endsWith(')')) return false;
  // Find the '(' that opens this parameter list, then look at what precedes it.
  let depth = 0;
  let j = head.length - 1;
  for (; j >= 0; j--) {
    if (head[j] === ')') depth++;
    else if (head[j] === '(' && --depth === 0) break;
  }
  const lead = head.slice(0, j).replace(/<[^<>]*>$/, '');
  if (CONTROL.test(head.slice(Math.max(0, j - 10)))) return false;
  return /(\bfunction\s*\*?\s*[\w$]*|[\w$]+)\s*$/.test(lead) && !/\b(if|for|while|switch|catch|with)\s*$/.test(lead);
}

/** The source with comments and string contents replaced by spaces (newlines kept), so braces in them do not count. */
function blankCommentsAndStrings(source: string): string {
  let out = '';
  let i = 0;
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  while (i < source.length) {
    const ch = source[i]!;
    const next = source[i + 1];
    if (ch === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const stop = end < 0 ? source.length : end;
      out += blank(source.slice(i, stop));
      i = stop;
    } else if (ch === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? source.length : end + 2;
      out += blank(source.slice(i, stop));
      i = stop;
    } else if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < source.length && source[j] !== ch && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      out += ch + blank(source.slice(i + 1, j)) + ch;
      i = j + 1;
    } else if (ch === '`') {
      // Template literals: blank the text, keep ${...} code (nested templates are rare enough to ignore).
      let j = i + 1;
      let text = '`';
      while (j < source.length && source[j] !== '`') {
        if (source[j] === '\\') {
          text += '  ';
          j += 2;
        } else if (source[j] === '$' && source[j + 1] === '{') {
          let depth = 1;
          let k = j + 2;
          while (k < source.length && depth) {
            if (source[k] === '{') depth++;
            else if (source[k] === '}') depth--;
            k++;
          }
          text += '  ' + blank(source.slice(j + 2, k - 1)).replace(/ /g, ' ') + ' ';
          j = k;
        } else {
          text += source[j] === '\n' ? '\n' : ' ';
          j++;
        }
      }
      out += text + '`';
      i = j + 1;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

export function relativeTo(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}
