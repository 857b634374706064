import type { GiteaClient } from '../gitea/client.js';
import type { ConfigPath, LoadedConfig } from '../config/types.js';
import type { Op } from '../plan/types.js';

/** How a field is compared: scalars by value, sets ignoring order and duplicates, text as multi-line. */
export type FieldType = 'scalar' | 'set' | 'text';

export interface FieldSpec {
  name: string;
  type: FieldType;
  /** Brings config and server values to one comparable shape (e.g. colours without '#'). */
  normalize?: (value: unknown) => unknown;
  /** Can be written but is never returned by the server: never compared. */
  writeOnly?: boolean;
  /** Never printed: rendered as (sensitive). */
  sensitive?: boolean;
}

/** What a kind lives in: a repository ("owner/name"), an organisation, or the whole server. */
export interface Scope {
  type: 'repo' | 'org' | 'server';
  name: string;
  /** Repository facts the planner learnt while resolving the scope. */
  repo?: RepoFacts;
}

export interface RepoFacts {
  owner: string;
  name: string;
  ownerIsOrg: boolean;
  archived: boolean;
}

export interface DesiredObject {
  key: string;
  /** Managed fields only, normalized. */
  fields: Record<string, unknown>;
  previously?: string[];
  /** Where the object was declared, for error messages. */
  path: ConfigPath;
}

export interface CurrentObject {
  key: string;
  id?: number | string;
  /** Every field the server returned, normalized. */
  fields: Record<string, unknown>;
}

export interface KindContext {
  client: GiteaClient;
  loaded: LoadedConfig;
  /** Memoised GET of a path (label templates and the like), shared by all scopes of one plan. */
  cachedGet<T>(path: string): Promise<T>;
}

/** A problem found while planning; the planner turns it into an error naming the config place. */
export interface Problem {
  message: string;
  path?: ConfigPath;
}

export interface OpsInput {
  scope: Scope;
  action: 'create' | 'update' | 'delete' | 'rename';
  desired?: DesiredObject;
  current?: CurrentObject;
  /** Names of the fields whose values differ (update and rename). */
  changed: string[];
}

/**
 * One resource kind. Everything the planner, executor and renderers need to know about it is here;
 * they stay generic.
 */
export interface Kind {
  /** Where its objects sit inside a scope's config ("labels", "branch_protections"). */
  configKey: string;
  /** Machine name, used in change ids and plan files. */
  name: string;
  /** Human name for output ("branch protection"). */
  title: string;
  /** The entry of policy.prune that allows deleting undeclared objects of this kind. */
  pruneKey: string;
  scopeType: Scope['type'];
  fields: FieldSpec[];
  /** Desired objects of a scope, or undefined when the config does not manage this kind there. */
  desired(scopeConfig: unknown, scope: Scope, ctx: KindContext): Promise<{ objects: DesiredObject[]; problems: Problem[] } | undefined>;
  /** Current objects of a scope, with the fewest list calls. */
  read(scope: Scope, ctx: KindContext): Promise<CurrentObject[]>;
  /** Kind-specific checks of the desired state against the scope (e.g. teams on user repos). */
  check?(desired: DesiredObject, current: CurrentObject | undefined, scope: Scope): Problem[];
  /** A reason why this scope cannot be written (e.g. archived repositories); its changes are withheld. */
  readOnlyReason?(scope: Scope): string | undefined;
  /** The HTTP operations that realise one change, in order. */
  ops(input: OpsInput): Op[];
  /** Turns a server object (from a list or a write response) into a CurrentObject. */
  fromServer(raw: unknown): CurrentObject;
  /** The config fragment that reproduces a current object (export). */
  toConfig(current: CurrentObject): Record<string, unknown>;
}
