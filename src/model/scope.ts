/** What a kind lives in: a repository ("owner/name"), an organisation, or the whole server. */
/** Scope types, the most specific first (the order selectors are listed in help). */
export const SCOPE_TYPES = ['repo', 'org', 'server'] as const;

/** What a scope's name looks like: nothing for the server, NAME for an organisation, OWNER/NAME for a repository. */
export const SCOPE_NAME: Record<(typeof SCOPE_TYPES)[number], RegExp> = { server: /^$/, org: /^[^/\s]+$/, repo: /^[^/\s]+\/[^/\s]+$/ };

export interface Scope {
  type: (typeof SCOPE_TYPES)[number];
  name: string;
  /** Repository facts the planner learnt while resolving the scope. */
  repo?: RepoFacts;
  /** The scope does not exist yet: this change (a repo or org create) makes it. Nothing is read there. */
  pendingCreate?: string;
  /**
   * A repository the plan un-archives: this change (the kind's `liftsReadOnly`) makes it writable, so
   * the other changes in it are not withheld and wait for it.
   */
  writableAfter?: string;
}

/** The scope, read-only (an archived repository), is writable once the change `id` is made (it un-archives it). */
export function writableAfter(scope: Scope, id: string): void {
  if (!scope.repo?.archived) return;
  scope.repo = { ...scope.repo, archived: false };
  scope.writableAfter = id;
}

export interface RepoFacts {
  owner: string;
  name: string;
  ownerIsOrg: boolean;
  archived: boolean;
  /** Whether it is private (as listed, or as the config creates it); undefined: not known. Who counts as its reader depends on it (src/kinds/collaborator/access.ts). */
  private?: boolean;
}

/** "repo:acme/widgets", "org:acme", "server:": how change ids and plan files name a scope. */
export function scopeId(scope: Scope): string {
  return `${scope.type}:${scope.name}`;
}

/** "acme/widgets" → ["acme", "widgets"]: a repository's full name as owner and name. */
export function splitRepo(name: string): [string, string] {
  const i = name.indexOf('/');
  return [name.slice(0, i), name.slice(i + 1)];
}

/** "repo:acme/widgets" → the scope it names; an id of no scope type is a bug of its caller (a plan file's are checked first, src/apply/plan-shape.ts). */
export function parseScopeId(id: string): Scope {
  const i = id.indexOf(':');
  const type = SCOPE_TYPES.find((t) => t === id.slice(0, i));
  if (!type) throw new Error(`not a scope id: ${JSON.stringify(id)}`);
  return { type, name: id.slice(i + 1) };
}

/** Names (or globs) of scopes, by scope type: what an export selects, what a config declares. */
export type ScopeNames = Partial<Record<(typeof SCOPE_TYPES)[number], string[]>>;

/**
 * How a word on the command line (export --include) names a scope of each type: a repository as
 * OWNER/NAME (globs allowed), an organisation as a plain name. The server scope has no name.
 */
const SCOPE_WORD: Partial<Record<(typeof SCOPE_TYPES)[number], RegExp>> = { repo: /\//, org: /^[\w.-]+$/ };

/** The type of scope a command-line word names, the most specific first; undefined when it can name none. */
export function scopeTypeOfWord(word: string): Scope['type'] | undefined {
  return SCOPE_TYPES.find((type) => SCOPE_WORD[type]?.test(word));
}

const GLOB = /[*?[\]{}]/;

/** A repository key of the config with glob characters applies to every repository it matches. */
export function isGlobKey(key: string): boolean {
  return GLOB.test(key);
}

/** The server scope: where server-wide objects (and the scopes the plan creates) live. */
export const SERVER_SCOPE: Scope = { type: 'server', name: '' };

/**
 * Where objects of a scope type live as seen from a scope: the server for server-wide ones, a
 * repository's owner for an organisation's (a branch protection's teams are its organisation's),
 * else the scope itself.
 */
export function enclosingScope(type: Scope['type'], scope: Scope): Scope {
  if (type === 'server') return SERVER_SCOPE;
  if (type === 'org' && scope.type === 'repo') return { type: 'org', name: scope.repo?.owner ?? splitRepo(scope.name)[0] };
  return scope;
}

/** The id of the change that creates the scope `name` of `type`, made by the kind whose objects are such scopes. */
export type ScopeCreationId = (type: Scope['type'], name: string) => string | undefined;
