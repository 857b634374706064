import picomatch from 'picomatch';
import type { Config } from '../config/types.js';
import { isApiError, type GiteaClient, type RequestOptions } from '../gitea/client.js';
import { apiPath } from '../gitea/path.js';
import type { RepoFacts, Scope } from '../kinds/types.js';

/** A scope with the config that applies to it and the config keys it came from (globs first, exact last). */
export interface ResolvedScope {
  scope: Scope;
  config: unknown;
  configKeys: string[];
}

export interface ScopeProblem {
  section: 'repos' | 'orgs';
  key: string;
  message: string;
}

interface ServerRepo {
  name: string;
  full_name: string;
  archived?: boolean;
  owner?: { login?: string; username?: string };
}

const GLOB = /[*?[\]{}]/;

export function isGlobKey(key: string): boolean {
  return GLOB.test(key);
}

/**
 * Turns the orgs and repos of a config into concrete scopes: globs are expanded against the server's
 * repository lists (one paged list per owner), and every repo gets the deep merge of the glob entries
 * that match it with its exact entry on top.
 */
export async function resolveScopes(
  config: Config,
  client: GiteaClient,
  targets: (scope: Scope) => boolean = () => true,
  /** The GET to use for single objects: the planner passes its memoised one, so kinds can reuse the answers. */
  get: <T>(path: string, opts?: RequestOptions) => Promise<T> = (path, opts) => client.get(path, opts),
): Promise<{ scopes: ResolvedScope[]; problems: ScopeProblem[] }> {
  const problems: ScopeProblem[] = [];
  const scopes: ResolvedScope[] = [];

  const exists = (path: string) =>
    get(path).then(
      () => true,
      (e) => {
        if (isApiError(e, 404)) return false;
        throw e;
      },
    );
  const serverScope: Scope = { type: 'server', name: '' };
  scopes.push({ scope: serverScope, config, configKeys: [] });

  await Promise.all(
    Object.entries(config.orgs ?? {}).map(async ([name, cfg]) => {
      const scope: Scope = { type: 'org', name };
      if (!targets(scope)) return;
      // An org the config can create (owner:) may be missing: its other kinds wait for the create.
      if ((cfg as { owner?: string }).owner && !(await exists(apiPath('orgs', name)))) scope.pendingCreate = `org/server:/${name}`;
      scopes.push({ scope, config: cfg, configKeys: [name] });
    }),
  );

  const repoEntries = Object.entries(config.repos ?? {});
  const globs = repoEntries.filter(([k]) => isGlobKey(k));
  const exact = repoEntries.filter(([k]) => !isGlobKey(k));
  const orgCache = new Map<string, Promise<boolean>>();
  const ownerIsOrg = (owner: string) => {
    let p = orgCache.get(owner);
    if (!p) {
      p = exists(apiPath('orgs', owner));
      orgCache.set(owner, p);
    }
    return p;
  };

  const facts = new Map<string, RepoFacts>();
  const pending = new Map<string, string>();
  const globOwners = [...new Set(globs.map(([k]) => k.slice(0, k.indexOf('/'))))];
  await Promise.all(
    globOwners.map(async (owner) => {
      if (isGlobKey(owner)) {
        problems.push({ section: 'repos', key: globs.find(([k]) => k.startsWith(owner))![0], message: 'the owner part of a repository glob must be a plain name' });
        return;
      }
      let repos: ServerRepo[];
      let isOrg = true;
      try {
        repos = await client.list<ServerRepo>(apiPath('orgs', owner, 'repos'), { object: `repositories of ${owner}` });
      } catch (e) {
        if (!isApiError(e, 404)) throw e;
        isOrg = false;
        try {
          repos = await client.list<ServerRepo>(apiPath('users', owner, 'repos'), { object: `repositories of ${owner}` });
        } catch (e2) {
          if (!isApiError(e2, 404)) throw e2;
          const key = globs.find(([k]) => k.startsWith(`${owner}/`))![0];
          problems.push({ section: 'repos', key, message: `owner "${owner}" does not exist on the server` });
          return;
        }
      }
      for (const r of repos) facts.set(r.full_name, { owner, name: r.name, ownerIsOrg: isOrg, archived: Boolean(r.archived) });
    }),
  );

  await Promise.all(
    exact.map(async ([key]) => {
      if (facts.has(key)) return;
      const [owner, name] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
      try {
        const r = await get<ServerRepo>(apiPath('repos', owner, name), { object: `repository ${key}` });
        facts.set(key, { owner, name, ownerIsOrg: await ownerIsOrg(owner), archived: Boolean(r.archived) });
      } catch (e) {
        if (!isApiError(e, 404)) throw e;
        const cfg = config.repos?.[key] as { create?: unknown } | undefined;
        if (cfg?.create) {
          const orgCfg = config.orgs?.[owner];
          facts.set(key, { owner, name, ownerIsOrg: Boolean(orgCfg) || (await ownerIsOrg(owner)), archived: false });
          pending.set(key, `repo/server:/${key}`);
        } else problems.push({ section: 'repos', key, message: `repository ${key} does not exist on the server (or the token cannot see it); add create: {} to create it` });
      }
    }),
  );

  const matchers = globs.map(([k, cfg]) => ({ key: k, cfg, match: picomatch(k, { dot: true }) }));
  const names = new Set<string>([...exact.map(([k]) => k).filter((k) => facts.has(k))]);
  for (const full of facts.keys()) if (matchers.some((m) => m.match(full))) names.add(full);

  for (const full of [...names].sort()) {
    const repo = facts.get(full)!;
    const scope: Scope = { type: 'repo', name: full, repo, ...(pending.has(full) ? { pendingCreate: pending.get(full)! } : {}) };
    if (!targets(scope)) continue;
    const applying = matchers.filter((m) => m.match(full));
    const configKeys = applying.map((m) => m.key);
    let merged: unknown = {};
    for (const m of applying) merged = deepMerge(merged, m.cfg);
    const exactCfg = config.repos?.[full];
    if (exactCfg) {
      merged = deepMerge(merged, exactCfg);
      configKeys.push(full);
    }
    scopes.push({ scope, config: merged, configKeys });
  }
  return { scopes, problems };
}

/** Objects merge key by key; anything else (lists included) is replaced by the later value. */
export function deepMerge(a: unknown, b: unknown): unknown {
  if (isPlainObject(a) && isPlainObject(b)) {
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = k in out ? deepMerge(out[k], v) : v;
    return out;
  }
  return b;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
