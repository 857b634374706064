import { isApiError, type GiteaClient } from '../gitea/client.js';
import type { Config } from '../config/types.js';
import { isLockName, LOCK_ORG, type Scope, type ScopeNames } from '../model/index.js';

/** The config section that declares the scopes of each type (the server scope is the whole config). */
const SECTION = { repo: 'repos', org: 'orgs' } as const satisfies Partial<Record<Scope['type'], keyof Config>>;

/** The config entry of a repository or organisation scope, created empty on first use. */
export function scopeEntry(config: Config, scope: Scope): Record<string, unknown> {
  const key = SECTION[scope.type as keyof typeof SECTION];
  const section = ((config as unknown as Record<string, unknown>)[key] ??= {}) as Record<string, Record<string, unknown>>;
  return (section[scope.name] ??= {});
}

/** A config that declares the given organisations and repositories (globs allowed), each with the entry `entry(type)` gives. */
export function scopesConfig(names: ScopeNames, entry: (type: Scope['type']) => Record<string, unknown>): Config {
  const orgs = names.org ?? [];
  const repos = names.repo ?? [];
  return {
    version: 1,
    ...(orgs.length ? { orgs: Object.fromEntries(orgs.map((o) => [o, entry('org')])) } : {}),
    ...(repos.length ? { repos: Object.fromEntries(repos.map((r) => [r, entry('repo')])) } : {}),
  };
}

/**
 * Every organisation and repository owner the token can see: all of them for a site administrator,
 * else the token's own user and its organisations.
 */
export async function discoverScopes(client: GiteaClient, skipped: string[], lock = LOCK_ORG): Promise<ScopeNames> {
  const { orgs, owners } = await discoverOwners(client, skipped, lock);
  return { org: orgs, repo: owners.map((o) => `${o}/*`) };
}

async function discoverOwners(client: GiteaClient, skipped: string[], lock: string): Promise<{ orgs: string[]; owners: string[] }> {
  const names = (list: unknown[], ...keys: string[]) =>
    list.flatMap((o) => {
      const v = keys.map((k) => (o as Record<string, unknown>)?.[k]).find((x) => typeof x === 'string');
      return typeof v === 'string' ? [v] : [];
    });
  try {
    const [orgs, users] = await Promise.all([client.list('admin/orgs', { object: 'organisations' }), client.list('admin/users', { object: 'users' })]);
    const orgNames = names(orgs, 'username', 'name').filter((n) => !isLockName(n, lock));
    return { orgs: orgNames, owners: [...orgNames, ...names(users, 'login', 'username')] };
  } catch (e) {
    if (!isApiError(e, 403)) throw e;
  }
  const [me, orgs] = await Promise.all([client.get<Record<string, unknown>>('user', { object: "the token's own user" }), client.list('user/orgs', { object: "the token's organisations" })]);
  const orgNames = names(orgs, 'username', 'name');
  const self = typeof me?.login === 'string' ? [me.login] : [];
  skipped.push(`the token is not a site administrator's: only the repositories of ${[...self, ...orgNames].join(', ') || 'its own user'} are exported`);
  return { orgs: orgNames, owners: [...self, ...orgNames] };
}
