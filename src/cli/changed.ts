/**
 * --changed-only REF: plan only what the configuration changed since a git ref (issue 12), as
 * safe-settings does for pull requests, so that a large forge's pull request plans in seconds while a
 * full plan on a schedule catches drift everywhere else.
 *
 * What changed is worked out per entry, not per line: the config files that differ between REF and
 * the working tree (git diff, plus untracked files) are parsed in both versions, merged, and each
 * entry of `orgs` and `repos` (globs included) and each server-wide section (users, hooks, actions)
 * is compared. An entry moved from one file to another is unchanged; an entry removed since REF is
 * changed (the repositories it covered are planned, so that what it declared is pruned where the
 * remaining configuration says so). A change of policy, server or version plans everything.
 */
import { execFile } from 'node:child_process';
import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import type { Config } from '../config/types.js';
import type { Scope } from '../model/index.js';
import { compareConfigs, selectChanged, type ConfigNarrowing } from '../scopes/sections.js';
import { UserError } from './output.js';

const run = promisify(execFile);

export interface ChangedOnly {
  /** What to plan; undefined: everything (a setting changed, or the old configuration cannot be read). */
  narrowing?: ConfigNarrowing;
  /** Whether a repository or organisation scope is planned. */
  scope: (scope: Scope) => boolean;
  /** One line for stderr: what is planned and what is skipped, counted in the configuration as it is now. */
  summary: (config: Config) => string;
}

type Sections = Record<string, unknown>;

/** git in `cwd`, with the run's environment (PATH, GIT_*, HOME: what a git of the user's own sees). */
async function git(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<Buffer> {
  const { stdout } = await run('git', args, { cwd, env, encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 });
  return stdout;
}

const gitError = (e: unknown) => {
  const err = e as { stderr?: Buffer | string; code?: string | number; message?: string };
  if (err.code === 'ENOENT') return 'git is not installed (or not on PATH)';
  return String(err.stderr ?? err.message ?? e).trim().split('\n')[0] ?? '';
};

/** The repository top and each config path as git names it (relative, with /), with whether it is a directory now. */
async function gitPathsOf(paths: string[], env: NodeJS.ProcessEnv): Promise<{ top: string; rel: { path: string; dir: boolean }[] }> {
  const found = await Promise.all(
    paths.map(async (p) => {
      const st = await stat(p).catch(() => undefined);
      return { abs: await realpath(p).catch(() => p), dir: Boolean(st?.isDirectory()) };
    }),
  );
  const first = found[0]!;
  const where = first.dir ? first.abs : dirname(first.abs);
  let top: string;
  try {
    top = (await git(where, ['rev-parse', '--show-toplevel'], env)).toString().trim();
  } catch (e) {
    throw new UserError(`--changed-only needs the configuration in a git repository, and ${where} is not in one (${gitError(e)})`);
  }
  top = await realpath(top).catch(() => top);
  return { top, rel: found.map((f) => ({ path: relative(top, f.abs).split(sep).join('/'), dir: f.dir })) };
}

/** Whether a git path is read as configuration from one of the given paths (directories: their *.yaml and *.yml, not recursively). */
function isConfigFile(file: string, given: { path: string; dir: boolean }[]): boolean {
  return given.some(({ path, dir }) => {
    if (file === path) return true;
    const inDir = path === '' ? !file.includes('/') : file.startsWith(`${path}/`) && !file.slice(path.length + 1).includes('/');
    const name = file.slice(file.lastIndexOf('/') + 1);
    return (dir || path === '') && inDir && !name.startsWith('.') && /\.ya?ml$/.test(name);
  });
}

/** Top-level sections merged as the loader merges files: maps key by key (deeply), lists one after another. */
function mergeInto(into: Sections, doc: unknown): void {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return;
  for (const [k, v] of Object.entries(doc)) into[k] = merge(into[k], v);
}

function merge(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (isMap(a) && isMap(b)) {
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = k in out ? merge(out[k], v) : v;
    return out;
  }
  return b;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What changed in the configuration at `paths` since `ref`. Errors (not a git repository, an unknown
 * ref) say so before any request; an old version that cannot be parsed plans everything, saying why.
 */
export async function changedSince(ref: string, paths: string[], env: NodeJS.ProcessEnv): Promise<ChangedOnly> {
  const { top, rel } = await gitPathsOf(paths, env);
  try {
    await git(top, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], env);
  } catch {
    throw new UserError(`--changed-only: "${ref}" is not a commit of the git repository at ${top} (in CI, fetch it first: a shallow clone lacks it)`);
  }
  const pathspecs = rel.map((r) => (r.path === '' ? '.' : r.path));
  const listed = async (args: string[]) => (await git(top, [...args, '-z', '--', ...pathspecs], env)).toString().split('\0').filter(Boolean);
  let files: string[];
  try {
    files = [...new Set([...(await listed(['diff', '--name-only', '--no-renames', ref])), ...(await listed(['ls-files', '--others', '--exclude-standard']))])];
  } catch (e) {
    throw new UserError(`--changed-only ${ref}: git cannot compare the configuration (${gitError(e)})`);
  }
  files = files.filter((f) => isConfigFile(f, rel)).sort();

  const before: Sections = {};
  const after: Sections = {};
  try {
    for (const f of files) {
      // A file added since REF has no old version, a file deleted since has no new one.
      const old = await git(top, ['cat-file', 'blob', `${ref}:${f}`], env).catch(() => undefined);
      if (old) mergeInto(before, parse(old.toString('utf8')));
      const now = await readFile(`${top}/${f}`, 'utf8').catch(() => undefined);
      if (now !== undefined) mergeInto(after, parse(now));
    }
  } catch (e) {
    return everything(ref, `the configuration at ${ref} cannot be compared (${(e as Error).message.split('\n')[0]})`);
  }
  return compare(ref, before, after, files.length);
}

function everything(ref: string, why: string): ChangedOnly {
  return { scope: () => true, summary: () => `--changed-only ${ref}: ${why}: planning everything` };
}

function compare(ref: string, before: Sections, after: Sections, fileCount: number): ChangedOnly {
  const changes = compareConfigs(before, after);
  if (changes.setting) return everything(ref, `${changes.setting} changed since ${ref}`);
  const { scope, narrowing, named, skipped } = selectChanged(changes);
  const summary = (config: Config) => {
    const planned = fileCount ? named.join('; ') || 'nothing: files changed, but no entry in them' : `nothing: no configuration file changed since ${ref}`;
    return `--changed-only ${ref}: planned ${planned}; skipped as unchanged: ${skipped(config).join(', ') || 'nothing'}`;
  };
  return { narrowing, scope, summary };
}
