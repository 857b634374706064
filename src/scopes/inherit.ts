// What an exact repository entry takes from the globs that match it: everything (the default), nothing
// (`inherit: false`), or everything but the objects it names with null (`branch_protections: { main: null }`).
// The schema allows null only as an object of a repository section, so any null two levels down is a drop.
import { isGlobKey } from '../model/index.js';

type Entry = Record<string, unknown>;
/** A problem at a place of the repos section (a ScopeProblem of resolve.ts). */
type ScopeProblem = { path: ['repos', string, ...string[]]; message: string };

function isMap(v: unknown): v is Entry {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The `section.name` of every null an entry holds. */
function drops(entry: Entry): [string, string][] {
  return Object.entries(entry).flatMap(([section, v]) => (isMap(v) ? Object.entries(v).filter(([, o]) => o === null).map(([name]): [string, string] => [section, name]) : []));
}

/** A glob inherits from nothing: `inherit:` and `name: null` there are mistakes, said at their place. */
export function inheritProblems(key: string, entry: unknown): ScopeProblem[] {
  if (!isGlobKey(key) || !isMap(entry)) return [];
  const problems: ScopeProblem[] = [];
  if ('inherit' in entry) problems.push({ path: ['repos', key, 'inherit'], message: `inherit: is for an exact entry ("acme/widgets"), which inherits from the globs that match it; "${key}" is a glob: remove it` });
  for (const [section, name] of drops(entry))
    problems.push({ path: ['repos', key, section, name], message: `null drops an object a repository inherits from a glob; "${key}" is a glob and inherits nothing: remove it, or write it in the exact entry of the repository that should not have it` });
  return problems;
}

/** Whether an exact entry takes the globs' config at all. */
export function inheritsFromGlobs(exact: unknown): boolean {
  return !(isMap(exact) && exact.inherit === false);
}

/**
 * The exact entry merged over what the globs give (`fromGlobs`), less the objects it drops; a drop that
 * finds nothing to drop is a warning (most often a typo in the name, or a glob that no longer matches).
 */
export function mergeExact(fromGlobs: unknown, exact: object, full: string, merge: (a: unknown, b: unknown) => unknown): { config: unknown; warnings: string[] } {
  const own: Entry = Object.fromEntries(Object.entries(exact).filter(([k]) => k !== 'inherit'));
  const merged = merge(fromGlobs, own);
  if (!isMap(merged)) return { config: merged, warnings: [] };
  const warnings: string[] = [];
  const out: Entry = { ...merged };
  for (const [section, name] of drops(own)) {
    const given = isMap(fromGlobs) ? fromGlobs[section] : undefined;
    if (!isMap(given) || !Object.hasOwn(given, name) || given[name] === null)
      warnings.push(`repos "${full}": ${section}.${JSON.stringify(name)} is null, which drops an object a glob gives the repository, but no glob that matches it declares one: nothing is dropped`);
    const rest = { ...(out[section] as Entry) };
    delete rest[name];
    out[section] = rest;
  }
  return { config: out, warnings };
}

/** An entry without its nulls: what a glob gives (its nulls are refused, see inheritProblems). */
export function withoutDrops(entry: Entry): Entry {
  return Object.fromEntries(Object.entries(entry).map(([k, v]) => [k, isMap(v) ? Object.fromEntries(Object.entries(v).filter(([, o]) => o !== null)) : v]));
}
