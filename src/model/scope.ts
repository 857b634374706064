/** What a kind lives in: a repository ("owner/name"), an organisation, or the whole server. */
export interface Scope {
  type: 'repo' | 'org' | 'server';
  name: string;
  /** Repository facts the planner learnt while resolving the scope. */
  repo?: RepoFacts;
  /** The scope does not exist yet: this change (a repo or org create) makes it. Nothing is read there. */
  pendingCreate?: string;
}

export interface RepoFacts {
  owner: string;
  name: string;
  ownerIsOrg: boolean;
  archived: boolean;
}

/** "repo:acme/widgets", "org:acme", "server:": how change ids and plan files name a scope. */
export function scopeId(scope: Scope): string {
  return `${scope.type}:${scope.name}`;
}

export function parseScopeId(id: string): Scope {
  const i = id.indexOf(':');
  return { type: id.slice(0, i) as Scope['type'], name: id.slice(i + 1) };
}

const GLOB = /[*?[\]{}]/;

/** A repository key of the config with glob characters applies to every repository it matches. */
export function isGlobKey(key: string): boolean {
  return GLOB.test(key);
}
