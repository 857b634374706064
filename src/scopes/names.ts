import type { Config, ConfigPath, LoadedConfig } from '../config/types.js';

/**
 * Owners and repositories as the server compares them: by their `lower_name` column. Gitea v1.25.4
 * `models/user/user.go` l.1043–1055 (GetUserByName: `LowerName: strings.ToLower(name)`),
 * `models/organization/org.go` l.379–394 (GetOrgByName, the same), `models/repo/repo.go` l.809–821
 * (GetRepositoryByOwnerAndName: `repository.lower_name` and `user.lower_name`); Forgejo v15.0.3 the same
 * functions. So `Acme/Widgets` and `acme/widgets` are one repository, and a create of the second
 * answers "already exists".
 */
export const foldName = (name: string): string => name.toLowerCase();

/**
 * One cache entry per object the server answers: the names of owners and repositories in a path are
 * compared as the server compares them, so `repos/acme/widgets` read when the scopes were resolved is
 * the `repos/Acme/Widgets` a kind reads with the server's spelling.
 */
export function sameObjectKey(path: string): string {
  const parts = path.split('/');
  const names = parts[0] === 'repos' ? 3 : parts[0] === 'orgs' || parts[0] === 'users' ? 2 : 1;
  return [...parts.slice(0, names).map(foldName), ...parts.slice(names)].join('/');
}

/** The sections whose keys name server objects by their name: config key → the server's spelling, where they differ. */
export interface CanonicalNames {
  repos: Map<string, string>;
  orgs: Map<string, string>;
}

export const noRenames = (names: CanonicalNames): boolean => names.repos.size === 0 && names.orgs.size === 0;

function renameKeys<V>(section: Record<string, V> | undefined, renamed: Map<string, string>): Record<string, V> | undefined {
  if (!section || renamed.size === 0) return section;
  return Object.fromEntries(Object.entries(section).map(([k, v]) => [renamed.get(k) ?? k, v]));
}

/** The config with its repository and organisation keys spelled as the server spells them. */
export function canonicalConfig(config: Config, names: CanonicalNames): Config {
  if (noRenames(names)) return config;
  const repos = renameKeys(config.repos, names.repos);
  const orgs = renameKeys(config.orgs, names.orgs);
  return { ...config, ...(repos ? { repos } : {}), ...(orgs ? { orgs } : {}) };
}

/**
 * The loaded config as the plan uses it once the scopes are resolved: keys in the server's spelling
 * (so every kind, and the change ids, name the server's objects), still located where they were written.
 */
export function withCanonicalNames(loaded: LoadedConfig, names: CanonicalNames): LoadedConfig {
  if (noRenames(names)) return loaded;
  const written = new Map<string, string>();
  for (const section of ['repos', 'orgs'] as const) for (const [key, canonical] of names[section]) written.set(`${section}\0${canonical}`, key);
  const locate = (path: ConfigPath, atKey?: boolean) => {
    const key = path.length > 1 ? written.get(`${String(path[0])}\0${String(path[1])}`) : undefined;
    return loaded.locate(key === undefined ? path : [path[0]!, key, ...path.slice(2)], atKey);
  };
  return { ...loaded, config: canonicalConfig(loaded.config, names), locate };
}
