import type { ConfigProblem } from './errors.js';
import { formatPath } from './path.js';
import { locateIn, type YamlSource } from './source.js';
import type { Config, ConfigPath, SourceLocation } from './types.js';

/** Top-level keys that may be written in one file only: the safety policy and the server are read in one place. */
const SINGLE_FILE_SECTIONS = new Set(['server', 'policy']);

/** One parsed file: its YAML (for positions) and, when it is a map, its JS data. */
export interface MergedFile {
  source?: YamlSource;
  data?: Record<string, unknown>;
}

/**
 * Which file wrote a value. `children` exists only where two or more files wrote into the same map: below a value
 * without children, everything comes from `file`, so positions are looked up there.
 */
interface Origin {
  file: MergedFile;
  /** An item of a list section (hooks): its index in its own file. */
  index?: number;
  children?: Map<string, Origin>;
}

export interface Merged {
  config: Config;
  /** Where the value at `path` (with atKey, its key) was written, in the file that wrote it. */
  locate: (path: ConfigPath, atKey?: boolean) => SourceLocation | undefined;
}

/**
 * Merges the files' data: maps by key at every level, so that one repository's labels may live in one file and its
 * branch protections in another; the same field written in two files is an error naming both places. List sections
 * are concatenated; server and policy may be written in one file only.
 */
export function mergeFiles(files: readonly MergedFile[], problems: ConfigProblem[]): Merged {
  const config: Record<string, unknown> = { version: 1 };
  const root: Origin = { file: files[0] ?? {}, children: new Map() };
  const sections = root.children!;
  // Maps this merge made (copies), which it may write to: a file's own maps are never changed, an alias may share them.
  const owned = new WeakSet<object>();

  const twice = (first: MergedFile, second: MergedFile, path: ConfigPath, note = '') => {
    const b = where(second, path);
    if (b) problems.push({ ...b, message: `${formatPath(path)} is declared twice: ${at(where(first, path))} and ${at(b)}${note}` });
  };

  const mergeEntry = (target: Record<string, unknown>, origins: Map<string, Origin>, key: string, value: unknown, file: MergedFile, path: ConfigPath) => {
    const origin = origins.get(key);
    if (!origin) {
      setOwn(target, key, value);
      origins.set(key, { file });
      return;
    }
    const current = target[key];
    if (!isPlainMap(current) || !isPlainMap(value)) {
      twice(origin.file, file, path);
      return;
    }
    let merged = current;
    if (!owned.has(merged)) {
      merged = copy(current);
      owned.add(merged);
      setOwn(target, key, merged);
    }
    origin.children ??= new Map(Object.keys(merged).map((k) => [k, { file: origin.file }]));
    for (const [k, v] of Object.entries(value)) mergeEntry(merged, origin.children, k, v, file, [...path, k]);
  };

  for (const file of files) {
    if (!file.data) continue;
    for (const [section, value] of Object.entries(file.data)) {
      if (section === 'version') continue;
      if (SINGLE_FILE_SECTIONS.has(section)) {
        const first = sections.get(section);
        if (first) twice(first.file, file, [section], ' (it may be written in one file only)');
        else {
          sections.set(section, { file });
          setOwn(config, section, value);
        }
      } else if (Array.isArray(value)) {
        if (!Object.hasOwn(config, section)) setOwn(config, section, []);
        const list = config[section];
        if (!Array.isArray(list)) continue;
        let origin = sections.get(section);
        if (!origin) sections.set(section, (origin = { file, children: new Map() }));
        value.forEach((item, index) => {
          origin.children?.set(String(list.length), { file, index });
          list.push(item);
        });
      } else mergeEntry(config, sections, section, value, file, [section]);
    }
  }

  const locate = (path: ConfigPath, atKey = false): SourceLocation | undefined => {
    if (path.length === 0 || path[0] === 'version') return root.file.source ? locateIn(root.file.source, path, atKey) : undefined;
    let origin = root;
    const local: ConfigPath = [];
    for (let i = 0; i < path.length; i++) {
      if (!origin.children) {
        local.push(...path.slice(i));
        break;
      }
      const seg = path[i]!;
      const next = origin.children.get(String(seg));
      if (!next) return undefined;
      local.push(next.index ?? seg);
      origin = next;
    }
    return origin.file.source ? locateIn(origin.file.source, local, atKey) : undefined;
  };

  return { config: config as unknown as Config, locate };
}

function isPlainMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, so that a key named __proto__ stays an ordinary entry.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function copy(map: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(map)) setOwn(out, k, v);
  return out;
}

function where(file: MergedFile, path: ConfigPath): SourceLocation | undefined {
  return file.source ? locateIn(file.source, path, true, true) : undefined;
}

function at(loc: SourceLocation | undefined): string {
  return loc ? `${loc.file}:${loc.line}:${loc.col}` : '?';
}
