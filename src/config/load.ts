import { createHash } from 'node:crypto';
import { lstat, readFile, readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, normalize, relative, isAbsolute, sep } from 'node:path';
import { SecretTemplates } from '../secret.js';
import { ConfigError, type ConfigProblem } from './errors.js';
import { interpolate } from './interpolate.js';
import { configSchema } from './schema.js';
import { MAX_CONFIG_BYTES, megabytes } from './limits.js';
import { mergeFiles } from './merge.js';
import { locateIn, parseYaml, position, type YamlSource } from './source.js';
import type { LoadedConfig } from './types.js';
import { validateConfig } from './validate.js';

export { MAX_CONFIG_BYTES } from './limits.js';

interface LoadedFile {
  name: string;
  content: Buffer;
  source?: YamlSource;
  data?: Record<string, unknown>;
}

/**
 * Reads, interpolates, validates and merges the config files at `paths` (files, or directories whose `*.yaml` and
 * `*.yml` files are read in sorted order). Throws a ConfigError listing every problem found, with file:line:col.
 */
export async function loadConfig(
  paths: string[],
  env: NodeJS.ProcessEnv = process.env,
  offline?: { unset: Set<string> },
  onRead?: (bytes: number) => void,
): Promise<LoadedConfig> {
  const problems: ConfigProblem[] = [];
  const fileLevel = (file: string, message: string) => problems.push({ file, line: 0, col: 0, message });

  if (paths.length === 0) throw new ConfigError([{ file: '(config)', line: 0, col: 0, message: 'no config file or directory given' }]);
  // Every file and faulty path in the order given: problems are sorted by it.
  const order: string[] = [];
  const names = await listFiles(paths, order, fileLevel);

  const files: LoadedFile[] = [];
  let total = 0;
  for (const name of names) {
    try {
      // The size is checked before reading, so that a wrong -c (a disk image, a log) is not read into memory.
      const size = (await stat(name)).size;
      if (total + size > MAX_CONFIG_BYTES) {
        fileLevel(name, tooBig(size, total));
        continue;
      }
      const content = await readFile(name);
      if (total + content.length > MAX_CONFIG_BYTES) {
        fileLevel(name, tooBig(content.length, total));
        continue;
      }
      total += content.length;
      files.push({ name, content });
    } catch (e) {
      fileLevel(name, `cannot read: ${(e as Error).message}`);
    }
  }

  // Reading a large config takes seconds: the caller may say so before it starts.
  onRead?.(total);
  return readConfigFiles(files, env, problems, order, offline);
}

/**
 * The files' contents (as read, in order) parsed, interpolated, validated and merged: loadConfig without the file
 * system. Throws a ConfigError listing `problems` (those found reading the files) and every one found here.
 */
export function readConfigFiles(
  files: { name: string; content: Buffer }[],
  env: NodeJS.ProcessEnv = process.env,
  problems: ConfigProblem[] = [],
  order: string[] = files.map((f) => f.name),
  offline?: { unset: Set<string> },
): LoadedConfig {
  const loadedFiles: LoadedFile[] = files.map((f) => ({ name: f.name, content: f.content }));
  const secrets = new Map<string, string>();
  const secretTemplates = new SecretTemplates();
  // What the substituted variables may add: the config's size limit holds with them read (issue 28).
  const budget = { left: MAX_CONFIG_BYTES - files.reduce((n, f) => n + f.content.length, 0) };
  for (const f of loadedFiles) problems.push(...loadFile(f, env, secrets, secretTemplates, offline, budget));
  const { config, locate } = mergeFiles(loadedFiles, problems);

  if (problems.length > 0) throw new ConfigError(problems, order);

  const digest = createHash('sha256');
  for (const f of files) {
    const name = basename(f.name);
    digest.update(`${Buffer.byteLength(name)}:${name}:${f.content.length}:`);
    digest.update(f.content);
  }

  return {
    config,
    locate,
    files: files.map((f) => f.name),
    secrets,
    secretTemplates,
    digest: digest.digest('hex'),
    bytes: files.reduce((n, f) => n + f.content.length, 0),
  };
}

function tooBig(size: number, before: number): string {
  const limit = `a config may hold at most ${megabytes(MAX_CONFIG_BYTES)} in all`;
  return before === 0 || size > MAX_CONFIG_BYTES
    ? `the file is ${megabytes(size)}: ${limit} (is this the right file?)`
    : `this file brings the config to ${megabytes(before + size)}: ${limit}`;
}

/**
 * The text of a file, or why it cannot be a config: NUL bytes or bytes that are not UTF-8 mean a binary file, and a
 * message that quoted it would be noise (and could be megabytes).
 */
function decodeText(content: Buffer): { text: string } | { problem: string } {
  if (content.includes(0)) return { problem: 'not a text file (it holds binary data): a config is a YAML text file' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(content) };
  } catch {
    return { problem: 'not a text file (it is not UTF-8): a config is a YAML text file in UTF-8' };
  }
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
    if (await leavesRoot(p, dirname(p))) {
      fileLevel(p, LEAVES_ROOT('its directory'));
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
        if (entry.isSymbolicLink() && (await leavesRoot(full, p))) {
          fileLevel(full, LEAVES_ROOT(`the config directory ${p}`));
          continue;
        }
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

/**
 * A config's files stay inside the config (issue 28): a pull request that adds `config/zz.yaml -> ../.git/config`
 * must not get that file read, and its lines (the job token actions/checkout leaves there) quoted into an error
 * message. A symbolic link is followed only when where it leads, all links resolved, is inside `root` (resolved too).
 */
async function leavesRoot(path: string, root: string): Promise<boolean> {
  const link = await lstat(path).catch(() => undefined);
  if (!link?.isSymbolicLink()) return false;
  const [target, base] = await Promise.all([realpath(path).catch(() => undefined), realpath(root).catch(() => undefined)]);
  if (target === undefined || base === undefined) return true;
  const rel = relative(base, target);
  return rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

const LEAVES_ROOT = (root: string) => `a symbolic link that leads outside ${root}: refused, and not read (a config's files stay inside the config; copy the file in instead)`;

/** Parses, interpolates and validates one file; sets f.source and (when it is a map) f.data. */
function loadFile(f: LoadedFile, env: NodeJS.ProcessEnv, secrets: Map<string, string>, templates: SecretTemplates, offline: { unset: Set<string> } | undefined, budget: { left: number }): ConfigProblem[] {
  const decoded = decodeText(f.content);
  if ('problem' in decoded) return [{ file: f.name, line: 0, col: 0, message: decoded.problem }];
  const { source, data: raw, problems } = parseYaml(f.name, decoded.text);
  f.source = source;
  if (problems.length > 0 || raw === undefined) return problems;
  // A map with neither "version" nor any section of a config (/etc/shadow reads as one) is not a config:
  // say so without quoting its lines as unknown keys (issue 17).
  const sections = Object.keys(configSchema().properties ?? {});
  if (!Object.keys(raw).some((k) => sections.includes(k)))
    return [{ file: f.name, line: 0, col: 0, message: `not a forgeform config: a YAML map with none of its keys (${sections.join(', ')}); is this the right file?` }];
  const result = interpolate(source, raw, env, secrets, templates, offline, budget);
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

/** The names of the variables the config read from the environment, sorted (a saved plan lists them: Plan.reads). */
export function variablesRead(loaded: LoadedConfig): string[] {
  return [...loaded.secrets.keys()].sort();
}

/** The value of every variable the config read from the environment: each is masked in every output (issue 28). */
export function valuesReadFromEnvironment(loaded: LoadedConfig): Iterable<string> {
  return loaded.secrets.values();
}
