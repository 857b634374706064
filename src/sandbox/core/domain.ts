/**
 * The contract of a sandbox domain (`domains/<domain>/index.ts`): one area of the Gitea API with
 * its data (its tables of the state and how the state file keeps them), routes, seed keys and
 * cascading deletes. `domains/index.ts` lists the domains; the app, the
 * seed loader and the deletes of repositories, organisations and users loop over that list instead
 * of naming domains.
 */
import type { ApiRouter } from '../http/router.js';
import type { DomainAccess } from './permissions.js';
import type { Obj } from './seed-shape.js';
import type { OrgRecord, RepoRecord, SandboxState, StateData, UserRecord } from './state.js';

/** What a seed loader of a domain is given. */
export interface SeedContext {
  state: SandboxState;
  /** The seed file's top-level mapping (keys already checked). */
  top: Obj;
  /** The first site admin: the default author and creator. Exists once the users domain has loaded. */
  admin(): UserRecord;
  /** Work that needs every repository of the seed (team repositories), run before the repositories' `late` keys. */
  afterRepos: (() => void)[];
}

/** Keys of one `orgs[]` or `repos[]` entry that a domain reads (its labels, milestones, issues …). */
export interface NestedSeed<T> {
  keys: readonly string[];
  /**
   * `early` runs as the entry is created; `late` (repositories only) once every repository exists
   * and team access is final — what depends on permissions (protections, issues) waits for it.
   */
  phase?: 'early' | 'late';
  load(cx: SeedContext, owner: T, entry: Obj, path: string): void;
}

export interface DomainSeed {
  /** Top-level keys of the seed file. */
  keys?: readonly string[];
  /** Loads them; called in registry order, even when the keys are absent. */
  load?(cx: SeedContext): void;
  org?: readonly NestedSeed<OrgRecord>[];
  repo?: readonly NestedSeed<RepoRecord>[];
}

/**
 * What a domain drops or detaches when a repository, organisation or user goes (as Gitea's
 * `services/repository`, `services/org` and `services/user/delete.go` do).
 */
export interface DomainCascade {
  repo?(state: SandboxState, repoId: number): void;
  org?(state: SandboxState, orgId: number): void;
  /** The user row is going (also after a purge). */
  user?(state: SandboxState, userId: number): void;
  /** `purge=true`: what the domain deletes before the user may go. */
  purgeUser?(state: SandboxState, userId: number): void;
  /** Why the user cannot be deleted yet (a 422 message), if they still own something here. */
  blocksUserDelete?(state: SandboxState, userId: number): string | undefined;
}

/**
 * A domain's part of the state: the tables its `records.ts` adds to `StateData`. The state file
 * (core/state-file.ts) saves every table under its name and fills in the empty ones a file lacks.
 */
export interface DomainData {
  /** Its tables, empty: a new state, and the tables a state file written before them lacks. */
  empty(): Partial<StateData>;
  /** Its tables as the state file keeps them (credentials hashed or sealed with `secretKey`); default as they are. */
  save?(data: StateData, secretKey: string): Partial<StateData>;
  /** Its tables from a state file, back to what the routes use (`secretKey`: the file's, if any). */
  load?(data: StateData, secretKey: string | undefined): Partial<StateData>;
}

export interface SandboxDomain {
  /** The folder under `domains/`. */
  name: string;
  data?: DomainData;
  /** What it adds to the access model (core/permissions.ts): the teams domain's organisation owners, members and team access. */
  access?: DomainAccess;
  /** Registers the routes, in registry order (a static path must come before a parameter one that also matches it). */
  routes?(r: ApiRouter): void;
  seed?: DomainSeed;
  cascade?: DomainCascade;
}
