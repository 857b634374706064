/**
 * The configuration's top-level sections as scope resolution sees them: the sections whose entries
 * are scopes (organisations, repositories, globs included), the settings of a run, and the rest
 * (server-wide objects). A narrowed run (--shard, --changed-only) keeps some entries and sections
 * and leaves the others out, so that it reads nothing it does not plan.
 */
import picomatch from 'picomatch';
import { isDeepStrictEqual } from 'node:util';
import type { Config } from '../config/types.js';
import { isGlobKey, type Scope } from '../model/index.js';
import type { ScopeSection } from './resolve.js';

export type { ScopeSection };

export const SCOPE_SECTIONS: readonly ScopeSection[] = ['orgs', 'repos'];
/** Top-level keys that are settings of the run, not objects: every narrowed configuration keeps them. */
export const SETTINGS: readonly string[] = ['version', 'server', 'policy'];
/** How a summary counts the entries of each scope section. */
const ENTRY_WORDS: Record<ScopeSection, [string, string]> = { orgs: ['organisation', 'organisations'], repos: ['repository entry', 'repository entries'] };

const isScopeSection = (key: string): key is ScopeSection => (SCOPE_SECTIONS as readonly string[]).includes(key);

/** The top-level sections of server-wide objects (users, hooks, actions): all but the settings and the scope sections. */
export function serverWideSections(config: object): string[] {
  return Object.keys(config).filter((k) => !SETTINGS.includes(k) && !isScopeSection(k));
}

/** The owner of an entry's key: an organisation's name, the OWNER of OWNER/NAME (or OWNER/glob). */
export function ownerOfKey(key: string): string {
  const slash = key.indexOf('/');
  return (slash < 0 ? key : key.slice(0, slash)).toLowerCase();
}

/** What a narrowed configuration keeps: entries of the scope sections, and the other (server-wide) sections. */
export interface ConfigNarrowing {
  entry: (section: ScopeSection, key: string) => boolean;
  /** A server-wide section (users, hooks, actions): kept whole, or left out (its kind then reads nothing). */
  section: (key: string) => boolean;
}

/**
 * The configuration with only what a narrowed run plans. Leaving a section out rather than filtering
 * its objects after reading is what keeps a run from reading what it does not plan: a kind whose
 * section is absent reads nothing (shard 2 never reads the server's users).
 */
export function narrowConfig(config: Config, keep: ConfigNarrowing): Config {
  const out: Record<string, unknown> = { ...config };
  for (const section of SCOPE_SECTIONS) {
    const entries = config[section];
    if (entries) out[section] = Object.fromEntries(Object.entries(entries).filter(([key]) => keep.entry(section, key)));
  }
  for (const key of serverWideSections(config)) if (!keep.section(key)) delete out[key];
  return out as unknown as Config;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Two versions of a configuration (raw, merged), compared entry by entry and section by section. */
export interface ConfigChanges {
  /** A setting (policy, server, version) that differs: everything must be planned. */
  setting?: string;
  entries: Record<ScopeSection, Set<string>>;
  /** Server-wide sections that differ. */
  sections: Set<string>;
}

export function compareConfigs(before: Record<string, unknown>, after: Record<string, unknown>): ConfigChanges {
  const setting = SETTINGS.find((k) => !isDeepStrictEqual(before[k], after[k]));
  const entries = Object.fromEntries(SCOPE_SECTIONS.map((s) => [s, new Set<string>()])) as Record<ScopeSection, Set<string>>;
  for (const section of SCOPE_SECTIONS) {
    const old = isMap(before[section]) ? before[section] : {};
    const now = isMap(after[section]) ? after[section] : {};
    for (const key of new Set([...Object.keys(old), ...Object.keys(now)])) if (!isDeepStrictEqual(old[key], now[key])) entries[section].add(key);
  }
  const sections = new Set(serverWideSections({ ...before, ...after }).filter((k) => !isDeepStrictEqual(before[k], after[k])));
  return { ...(setting ? { setting } : {}), entries, sections };
}

/** What a set of changed entries selects: the scopes to plan, the entries to keep, and what is skipped. */
export interface ChangedSelection {
  scope: (scope: Scope) => boolean;
  narrowing: ConfigNarrowing;
  /** The changed entries and sections, for a summary ("orgs acme", "repos acme/*", "users"). */
  named: string[];
  /** What the configuration holds that is not planned, for a summary ("12 organisations", "hooks"). */
  skipped: (config: Config) => string[];
}

/**
 * An organisation is planned when its entry changed; a repository when its exact entry or a glob
 * matching it changed (a glob's old or new version: both are in the changed keys). A planned
 * repository's configuration merges every glob that matches it, so the globs of its owner stay in the
 * narrowed configuration, and the scope filter keeps their unchanged repositories out.
 */
export function selectChanged(changes: ConfigChanges): ChangedSelection {
  const [orgs, repos] = [changes.entries.orgs, changes.entries.repos];
  const globs = [...repos].filter(isGlobKey).map((k) => picomatch(k, { dot: true }));
  const repoChanged = (name: string) => repos.has(name) || globs.some((m) => m(name));
  const owners = new Set([...repos].map(ownerOfKey));
  const planned: Record<ScopeSection, (key: string) => boolean> = {
    orgs: (key) => orgs.has(key),
    repos: (key) => (isGlobKey(key) ? repos.has(key) : repoChanged(key)),
  };
  return {
    scope: (s) => (s.type === 'org' ? orgs.has(s.name) : s.type === 'repo' ? repoChanged(s.name) : true),
    narrowing: {
      entry: (section, key) => planned[section](key) || (section === 'repos' && isGlobKey(key) && owners.has(ownerOfKey(key))),
      section: (key) => changes.sections.has(key),
    },
    named: [...SCOPE_SECTIONS.filter((s) => changes.entries[s].size).map((s) => `${s} ${[...changes.entries[s]].join(', ')}`), ...changes.sections],
    skipped: (config) => [
      ...SCOPE_SECTIONS.flatMap((s) => {
        const n = Object.keys(config[s] ?? {}).filter((k) => !planned[s](k)).length;
        return n ? [`${n} ${ENTRY_WORDS[s][n === 1 ? 0 : 1]}`] : [];
      }),
      ...serverWideSections(config).filter((k) => !changes.sections.has(k)),
    ],
  };
}
