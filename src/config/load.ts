import { createHash } from 'node:crypto';
import { readFile, readdir, realpath, stat } from 'node:fs/promises';
import { basename, join, normalize } from 'node:path';
import { SecretTemplates } from '../secret.js';
import { ConfigError, type ConfigProblem } from './errors.js';
import { interpolate } from './interpolate.js';
import { formatPath } from './path.js';
import { locateIn, parseYaml, position, type YamlSource } from './source.js';
import type { Config, ConfigPath, LoadedConfig, SourceLocation } from './types.js';
import { validateConfig } from './validate.js';

/** Top-level keys that may be written in one file only. Other map-valued sections are merged by key. */
const SINGLE_FILE_SECTIONS = new Set(['server', 'policy']);

interface LoadedFile {
  name: string;
  content: Buffer;
  source?: YamlSource;
  data?: Record<string, unknown>;
}

/** Where a merged entry came from. */
interface Origin {
  file: LoadedFile;
  /** For list sections: the index of the item in its own file. */
  index?: number;
}

/**
 * Reads, interpolates, validates and merges the config files at `paths` (files, or directories whose `*.yaml` and
 * `*.yml` files are read in sorted order). Throws a ConfigError listing every problem found, with file:line:col.
 */
export async function loadConfig(paths: string[], env: NodeJS.ProcessEnv = process.env): Promise<LoadedConfig> {
  const problems: ConfigProblem[] = [];
  const fileLevel = (file: string, message: string) => problems.push({ file, line: 0, col: 0, message });

  if (paths.length === 0) throw new ConfigError([{ file: '(config)', line: 0, col: 0, message: 'no config file or directory given' }]);
  // Every file and faulty path in the order given: problems are sorted by it.
  const order: string[] = [];
  const names = await listFiles(paths, order, fileLevel);

  const files: LoadedFile[] = [];
  for (const name of names) {
    try {
      files.push({ name, content: await readFile(name) });
    } catch (e) {
      fileLevel(name, `cannot read: ${(e as Error).message}`);
    }
  }

  const secrets = new Map<string, string>();
  const secretTemplates = new SecretTemplates();
  for (const f of files) problems.push(...loadFile(f, env, secrets, secretTemplates));
  const { config, origins } = merge(files, problems);

  if (problems.length > 0) throw new ConfigError(problems, order);

  const digest = createHash('sha256');
  for (const f of files) {
    const name = basename(f.name);
    digest.update(`${Buffer.byteLength(name)}:${name}:${f.content.length}:`);
    digest.update(f.content);
  }

  return {
    config,
    locate: (path: ConfigPath, atKey = false) => locate(files, origins, path, atKey),
    files: files.map((f) => f.name),
    secrets,
    secretTemplates,
    digest: digest.digest('hex'),
  };
}

async function listFiles(paths: string[], order: string[], report: (file: string, message: string) => void): Promise<string[]> {
  const out: string[] = [];
  const fileLevel = (file: string, message: string) => {
    order.push(file);
    report(file, message);
  };
  const seen = new Set<string>();
  const add = async (name: string) => {
    const real = await realpath(name).catch(() => name);
    if (seen.has(real)) return;
    seen.add(real);
    out.push(name);
    order.push(name);
  };
  for (const given of paths) {
    const p = normalize(given);
    let st;
    try {
      st = await stat(p);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      fileLevel(p, code === 'ENOENT' ? 'no such file or directory' : `cannot read: ${(e as Error).message}`);
      continue;
    }
    if (st.isFile()) {
      await add(p);
    } else if (st.isDirectory()) {
      let entries;
      try {
        entries = await readdir(p, { withFileTypes: true });
      } catch (e) {
        fileLevel(p, `cannot read: ${(e as Error).message}`);
        continue;
      }
      const yamls: string[] = [];
      for (const entry of entries) {
        // Hidden files are skipped: editors' lock and backup files are often named .#x.yaml or .x.yaml.swp.
        if (entry.name.startsWith('.') || !/\.ya?ml$/.test(entry.name)) continue;
        const full = join(p, entry.name);
        const isFile = entry.isFile() || (entry.isSymbolicLink() && (await stat(full).then((s) => s.isFile(), () => false)));
        if (isFile) yamls.push(entry.name);
      }
      if (yamls.length === 0) fileLevel(p, 'no *.yaml or *.yml files in this directory');
      for (const name of yamls.sort()) await add(join(p, name));
    } else {
      fileLevel(p, 'not a file or directory');
    }
  }
  return out;
}

/** Parses, interpolates and validates one file; sets f.source and (when it is a map) f.data. */
function loadFile(f: LoadedFile, env: NodeJS.ProcessEnv, secrets: Map<string, string>, templates: SecretTemplates): ConfigProblem[] {
  const { source, problems } = parseYaml(f.name, f.content.toString('utf8'));
  f.source = source;
  // A document with syntax errors is only partly read: checking its content would report invented problems.
  if (problems.length > 0) return problems;
  if (source.doc.contents === null) return [{ ...position(source, 0), message: 'the file is empty (expected at least "version: 1")' }];

  let raw: unknown;
  try {
    raw = source.doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return [{ ...position(source, 0), message: (e as Error).message }];
  }
  const result = interpolate(source, raw, env, secrets, templates);
  problems.push(...result.problems);
  const data = result.data;

  for (const p of validateConfig(data, (path) => result.sensitive.has(JSON.stringify(path)))) {
    // A value whose reference could not be substituted has been reported already.
    if (result.failed.has(JSON.stringify(p.path))) continue;
    const at = locateIn(source, p.path, p.atKey, true) ?? position(source, 0);
    problems.push({ ...at, message: p.message });
  }
  if (isPlainMap(data)) f.data = data;
  return problems;
}

function isPlainMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, so that a key named __proto__ stays an ordinary entry.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function where(file: LoadedFile, path: ConfigPath): SourceLocation | undefined {
  return file.source ? locateIn(file.source, path, true, true) : undefined;
}

function at(loc: SourceLocation | undefined): string {
  return loc ? `${loc.file}:${loc.line}:${loc.col}` : '?';
}

/**
 * Merges the files' top-level sections: maps by key (a key in two files is an error naming both places), lists by
 * concatenation; server and policy may be written in one file only.
 */
function merge(files: LoadedFile[], problems: ConfigProblem[]): { config: Config; origins: Map<string, Origin> } {
  const config: Record<string, unknown> = { version: 1 };
  const origins = new Map<string, Origin>();
  const twice = (first: LoadedFile, second: LoadedFile, path: ConfigPath, note = '') => {
    const a = where(first, path);
    const b = where(second, path);
    if (b) problems.push({ ...b, message: `${formatPath(path)} is declared twice: ${at(a)} and ${at(b)}${note}` });
  };

  for (const file of files) {
    if (!file.data) continue;
    for (const [section, value] of Object.entries(file.data)) {
      if (section === 'version') continue;
      if (SINGLE_FILE_SECTIONS.has(section)) {
        const first = origins.get(JSON.stringify([section]));
        if (first) twice(first.file, file, [section], ' (it may be written in one file only)');
        else {
          origins.set(JSON.stringify([section]), { file });
          setOwn(config, section, value);
        }
      } else if (Array.isArray(value)) {
        if (!Object.hasOwn(config, section)) setOwn(config, section, []);
        const list = config[section];
        if (!Array.isArray(list)) continue;
        value.forEach((item, index) => {
          origins.set(JSON.stringify([section, list.length]), { file, index });
          list.push(item);
        });
        if (!origins.has(JSON.stringify([section]))) origins.set(JSON.stringify([section]), { file });
      } else if (isPlainMap(value)) {
        if (!Object.hasOwn(config, section)) setOwn(config, section, {});
        const target = config[section] as Record<string, unknown>;
        if (!isPlainMap(target)) continue;
        if (!origins.has(JSON.stringify([section]))) origins.set(JSON.stringify([section]), { file });
        for (const [key, entry] of Object.entries(value)) {
          const first = origins.get(JSON.stringify([section, key]));
          if (first) twice(first.file, file, [section, key]);
          else {
            origins.set(JSON.stringify([section, key]), { file });
            setOwn(target, key, entry);
          }
        }
      }
    }
  }
  return { config: config as unknown as Config, origins };
}

function locate(files: LoadedFile[], origins: Map<string, Origin>, path: ConfigPath, atKey: boolean): SourceLocation | undefined {
  const [section, entry, ...rest] = path;
  const first = files[0];
  if (section === undefined || section === 'version') {
    return first?.source ? locateIn(first.source, path, atKey) : undefined;
  }
  const origin =
    (entry !== undefined && (origins.get(JSON.stringify([section, entry])) ?? origins.get(JSON.stringify([section, String(entry)])))) ||
    origins.get(JSON.stringify([section]));
  if (!origin?.file.source) return undefined;
  // A list item is found at its index in its own file.
  const local: ConfigPath = origin.index !== undefined && entry !== undefined ? [section, origin.index, ...rest] : path;
  return locateIn(origin.file.source, local, atKey);
}
