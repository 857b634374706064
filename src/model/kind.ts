import type { GiteaClient, RequestOptions } from '../gitea/client.js';
import type { Shape } from '../gitea/answer.js';
import type { Config, LoadedConfig } from '../config/types.js';
import type { Diagnostic } from '../diagnostic.js';
import type { FieldSpec } from './field.js';
import type { CurrentObject, DesiredObject, ObjectMeta, ProjectedObject } from './object.js';
import type { Action, Change, Op, PlanPolicy } from './plan.js';
import type { Scope } from './scope.js';
import type { Availability, ServerInfo } from './server.js';
import type { ConfigPath } from '../diagnostic.js';
import type { RunStates } from './run-states.js';
import type { Intent } from './intent.js';

/** Plan-wide switches that change what kinds send. */
export interface KindOptions {
  /** Send write-only fields to every declared object, not only with other edits. */
  syncWriteOnly?: boolean;
  /** Send secrets again (or replace objects whose secrets cannot be edited). */
  rotateSecrets?: boolean;
  /** --target: whether a server-wide object is selected, by its kind's selector type and name (user, alice). Absent: all are. */
  selectsObject?: (type: string, name: string) => boolean;
  /** plan --explain: each field of a change says where the configuration sets its value (FieldChange.source). */
  explain?: boolean;
  /** export: read every detail of every object, those otherwise read only when the config names them (a user's badges and keys) too. */
  readEverything?: boolean;
}

/**
 * What kinds get when they read the server and build requests, at plan time and at apply time alike.
 * Apply has no configuration: only the policy the plan was made with (as the plan file shows it).
 * `phase` tells the two apart (see KindContext, ApplyContext).
 */
interface ContextBase {
  client: GiteaClient;
  /** The fork and release the server runs (see src/model/server.ts); absent only where no server was asked (offline checks, unit tests). */
  server?: ServerInfo;
  policy: PlanPolicy;
  options: KindOptions;
  /** Memoised GET of a path (label templates and the like), shared by all scopes of one plan. */
  cachedGet<T>(path: string, opts?: RequestOptions): Promise<T>;
  /** Memoised read of a kind in a scope: the planner and other kinds share one read. */
  currentOf(kind: ReadingKind, scope: Scope, desired?: DesiredObject[]): Promise<CurrentObject[]>;
  /**
   * The objects of a kind in a scope as this plan leaves them (labels renamed, deleted and created;
   * an owner the plan creates). The asking kind lists that kind in `after`, so that the planner (and
   * apply, for a saved plan) plans it first. Where the plan does not manage that kind, the objects
   * are as the server has them.
   */
  projected(kind: ReadingKind, scope: Scope): Promise<ProjectedObject[]>;
  /**
   * The change of this plan after which the object `key` of a kind exists under that name (its create,
   * rename or replace), or undefined when this plan makes none: what a change that needs it waits for.
   * The same rule as projected: the asking kind lists that kind in `after`. Nothing is read.
   */
  madeBy(kind: KindMeta, scope: Scope, key: string): string | undefined;
  /**
   * The objects of a kind in a scope as this plan leaves them, where this plan (or the saved plan being
   * applied) plans that kind in that scope; undefined where it does not. The same rule as projected: the
   * asking kind lists that kind in `after`. Nothing is read (projected would read what is not planned).
   */
  planned(kind: KindMeta, scope: Scope): ProjectedObject[] | undefined;
  /** Each kind's own state for this run (KindState; kept by RunStates, looked up by src/model/requests.ts): made on the first ask, dropped with the context. */
  runStates: RunStates;
}

/** Planning also has the configuration (desired state, its places, the secrets read from the environment). */
export interface KindContext extends ContextBase {
  phase: 'plan';
  loaded: LoadedConfig;
  /**
   * The owners whose whole repository list the plan read while resolving its scopes (a glob `owner/*`),
   * folded as the server compares names, each with its repositories' names folded: whether a repository
   * exists there is known without a request. Nothing is read.
   */
  listedRepos: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Checking and applying a saved plan (and reading the server without a configuration, as export does): no configuration. */
export interface ApplyContext extends ContextBase {
  phase: 'apply';
}

export type ScopeContext = KindContext | ApplyContext;

/** Facts a kind reports about one planned change; src/plan/safety.ts decides what they mean. */
export interface ChangeFacts {
  notes?: string[];
  /** Other objects the change alters (issues that lose a deleted label), and how to say so. */
  affects?: { count: number; what: string };
}

/**
 * What a kind decides about several server objects that carry one declared name (two runs at once
 * created it twice): the one that stands for the declared object, and the others that may go.
 */
export interface DuplicateResolution {
  /** Compared and updated as the declared object; absent when none can be chosen (a human must merge them). */
  keep?: CurrentObject;
  /** Deleted when policy.prune lists the kind; named otherwise. */
  remove: CurrentObject[];
  /** Each copy named for the user (its id and what it is used for), and what is kept or why nothing is. */
  message: string;
}

/**
 * A problem a kind finds while planning: a diagnostic with the config path it concerns, which the
 * planner turns into file:line:col, adding the resource (the kind's title, key and scope).
 */
export type Problem = Diagnostic & {
  /**
   * The problem is this object's only (a reference to a name that has copies on the server): the
   * object is left out of the plan, named in Plan.withheld, and every other change still stands.
   * Otherwise the plan fails as a whole.
   */
  objectOnly?: boolean;
};

/**
 * What a change is about, by action: a create has only the declared object, a delete only the
 * server's, the others both. Narrow on `action` to reach them.
 */
export type OpsSubject<D extends DesiredObject = DesiredObject, C extends CurrentObject = CurrentObject> =
  | { action: 'create'; desired: D; current?: undefined }
  | { action: 'update' | 'rename' | 'replace'; desired: D; current: C }
  | { action: 'delete'; desired?: undefined; current: C };


/**
 * Something a kind uses that is not one of its fields (a route, an answer shape, a value of a field),
 * with the releases that have it. The kind asks `serverHas(ctx.server, feature.availability)` where
 * it reads and writes; with `usedBy`, the config can ask for it, and the plan refuses that on a
 * release without it, as it does for fields.
 */
export interface KindFeature {
  availability: Availability;
  /** How an error names it ("scope: default"); default: the field usedBy returns. */
  what?: string;
  /** The field of a declared object (its config as written) that makes it use the feature, when it does. */
  usedBy?(declared: Record<string, unknown>): string | undefined;
}

/** One option struct a kind's writes send (see KindMeta.sends). */
export interface SentStruct {
  /** Go name: `CreateOrgOption`. */
  struct: string;
  /** The JSON key the object's key is sent as: an organisation's `username`. */
  key?: string;
  /** The key is `owner/name` and only the name is sent (a repository's). */
  keyIsPath?: boolean;
  /** Config field → JSON key, where the write sends a field under another name (a secret's `value` as `data`). */
  as?: Readonly<Record<string, string>>;
  /** Only for objects that declare this field (a pull mirror's `from`: the migrate body). */
  when?: string;
  /** Config fields the kind judges itself at plan time, with a message of its own (a user's e-mail): the generic check leaves them. */
  own?: readonly string[];
}

/** One entry of the config's `policy` that a kind owns (see KindMeta.policy). */
export interface PolicyEntry {
  /** Its value when the config does not say. */
  default: unknown;
  /** Whether a value is one (the config's is validated by the schema already; a saved plan's is checked with this). */
  is(value: unknown): boolean;
  /** What a value must be, as the error about a saved plan's says ("a list of user names"). */
  expected: string;
}

/**
 * What a kind is: its names, where its objects sit in the config and on the server, the changes it
 * can make, the releases that have it, how --target picks its objects. Read without the server.
 */
export interface KindMeta {
  /** Where its objects sit inside a scope's config ("labels", "branch_protections"). */
  configKey: string;
  /** Machine name, used in change ids and plan files. */
  name: string;
  /** Human name for output ("branch protection"). */
  title: string;
  /** The entry of policy.prune that allows deleting undeclared objects of this kind. */
  pruneKey: string;
  scopeType: Scope['type'];
  /** The actions its changes can have: a plan file with another one is refused. */
  actions: Action[];
  /**
   * The releases that have the kind at all (its routes), per fork; absent: every release. A config
   * that declares it for a server without it is a plan error at the section's place.
   */
  availability?: Availability;
  /** Its features that are not fields, by name, with the releases that have them (see KindFeature). */
  features?: Record<string, KindFeature>;
  /**
   * Where its objects sit in the configuration, "*" standing for each key of a map or index of a
   * list (["actions", "runners", "*"]). Absent: the section of its scope type, each scope, its
   * configKey, each object (see declaredAt in registry.ts). Read without the server: the
   * availability check and `validate --server-version` walk the config with it.
   */
  declaredAt?: ConfigPath;
  /**
   * The option structs its writes send (Go names, as the release tables of src/releases name them):
   * the plan checks every declared value against the binding rules the server's release has for the
   * struct's field of that JSON key (src/plan/field-rules.ts), so a value the release refuses with a
   * 422 is a plan error at its place, not a failed apply. Data only: the generic check does the rest.
   */
  sends?: readonly SentStruct[];
  /**
   * Server-wide kinds: the --target selector type that picks their objects (user:NAME), how help
   * shows its value (NAME, URL), the part of the key it matches, and whether a * matches across
   * slashes (URLs). A kind that creates scopes selects those scopes too (repo:OWNER/NAME).
   */
  target?: { type: string; placeholder: string; name?: (key: string) => string; acrossSlashes?: boolean };
  /** Its objects are scopes of this type (organisations, repositories): a missing scope waits for their create. */
  createsScope?: Scope['type'];
  /**
   * The server refuses a second object with the same name (users, organisations, repositories,
   * branch protection rules): two runs at once cannot both create it, so apply does not read the
   * scope again after creating one to look for duplicates (see src/apply/concurrent.ts).
   */
  uniqueNames?: boolean;
  /** Secrets cannot be edited in place: --rotate-secrets replaces the object (delete + create). */
  replaceToRotate?: boolean;
  /**
   * The server has no edit of its objects (push mirrors): any change of an existing object is a
   * replacement (delete + create), shown as one, whose create sends every write-only field declared.
   */
  replaceToEdit?: boolean;
  /**
   * The entries of the config's `policy` that are this kind's, besides its prune key (a user's
   * protected_users), by key: the planner copies them into the plan's policy, defaults filled in; a
   * saved plan's values are checked with them. Their meaning is the kind's alone: it declares their
   * types on PlanPolicy (a module augmentation beside it) and reads them from ctx.policy.
   */
  policy?: Record<string, PolicyEntry>;
  /**
   * Names of the kinds whose objects, as the plan leaves them, this kind asks for (ctx.projected):
   * the planner plans those first, and refuses a cycle.
   */
  after?: string[];
}

/**
 * What a kind is typed by: the config of its scope (RepoConfig for a repository's kinds, OrgConfig for
 * an organisation's, the whole Config for server-wide ones), an object as the server answers it, what
 * its prepare returns, its own state for one run, and, for a kind whose objects carry values beside
 * their fields (see ObjectMeta), the meta of its objects as read and as declared.
 */
export interface KindTypes<ScopeConfig = unknown, Server = unknown, Prepared = undefined, RunState = undefined, Meta extends object = ObjectMeta, DeclaredMeta extends object = ObjectMeta> {
  config: ScopeConfig;
  server: Server;
  prepared: Prepared;
  run: RunState;
  /** What its fromServer puts in an object's meta: what every phase gets back in `current.meta`. */
  meta: Meta;
  /** What its desired puts in a declared object's meta: what every phase gets back in `desired.meta`. */
  declared: DeclaredMeta;
}

/** What any kind's types are: the engine's view of every kind (see Kind), and the constraint of the request types. */
export type AnyKindTypes = KindTypes<unknown, unknown, unknown, unknown, ObjectMeta, ObjectMeta>;

/** A server object of the kind, its meta typed as the kind wrote it. */
export type CurrentOf<T extends AnyKindTypes> = CurrentObject<T['meta']>;
/** A declared object of the kind, its meta typed as the kind wrote it. */
export type DesiredOf<T extends AnyKindTypes> = DesiredObject<T['declared']>;
/** What a change is about (see OpsSubject), its objects typed as the kind's. */
export type SubjectOf<T extends AnyKindTypes> = OpsSubject<DesiredOf<T>, CurrentOf<T>>;

/** A scope as requests carry it: with the names API paths are made of, at plan time and at apply time alike. */
export interface RequestScope extends Scope {
  /** Where the scope's routes begin: ["repos", owner, name], ["orgs", name], or [] for the server. */
  segments: string[];
  /** A repository's owner, an organisation's own name; '' for the server. */
  owner: string;
}

/**
 * What every request carries: the scope with its facts, the run's context, the kind's own state for the
 * run. The engine builds requests (src/model/requests.ts); each phase of a kind receives one.
 */
interface RequestBase<T extends AnyKindTypes> {
  scope: RequestScope;
  run: T['run'];
  /** The kind itself as the engine knows it: its names, and what ctx.currentOf reads its own objects with. */
  self: ReadingKind;
}

/** A request at plan time: the configuration is there (ctx.loaded, and `config`, the whole of it). */
export interface PlanRequest<T extends AnyKindTypes> extends RequestBase<T> {
  phase: 'plan';
  ctx: KindContext;
  config: Config;
}

/**
 * A request while a saved plan is checked and applied (or the server read without a configuration,
 * as export does): no configuration, only what the plan's changes show and the server as it is now.
 */
export interface ApplyRequest<T extends AnyKindTypes> extends RequestBase<T> {
  phase: 'apply';
  ctx: ApplyContext;
}

/** A request of a phase that runs at plan time and again at apply: narrow on `phase` for the configuration. */
export type AnyRequest<T extends AnyKindTypes> = PlanRequest<T> | ApplyRequest<T>;

/** The scope's objects read: `desired` names them for kinds that read only what is named. */
export type ReadRequest<T extends AnyKindTypes> = AnyRequest<T> & { desired?: DesiredOf<T>[] };
/** The declared objects of a scope, from its config entry (checked by the schema against the type generated from it, src/config/schema-types.ts). */
export type DesiredRequest<T extends AnyKindTypes> = PlanRequest<T> & { entry: T['config'] | undefined };
export type PrepareRequest<T extends AnyKindTypes> = AnyRequest<T> & { desired: DesiredOf<T>[]; current: CurrentOf<T>[] };
export type CheckRequest<T extends AnyKindTypes> = PlanRequest<T> & { desired: DesiredOf<T>; current: CurrentOf<T> | undefined; prepared: T['prepared'] };
/** prepared is absent where apply compares a write's answer with what was sent. */
export type CompareRequest<T extends AnyKindTypes> = { desired: DesiredOf<T>; current: CurrentOf<T> | undefined; prepared: T['prepared'] | undefined };
export type DuplicatesRequest<T extends AnyKindTypes> = PlanRequest<T> & { desired: DesiredOf<T>; matches: CurrentOf<T>[] };
export type KeepRequest<T extends AnyKindTypes> = PlanRequest<T> & { current: CurrentOf<T> };
export type NoticesRequest<T extends AnyKindTypes> = PlanRequest<T> & { desired: DesiredOf<T>[]; current: CurrentOf<T>[] };
/** A change a kind judges (guard, annotate), with what it means (its intent, see OpsRequest.intent): read that, never the change's fields or id. */
export type GuardRequest<T extends AnyKindTypes> = AnyRequest<T> & { change: Change; intent: Intent; current: CurrentOf<T> | undefined; plan: Change[] };
export type AnnotateRequest<T extends AnyKindTypes> = AnyRequest<T> & { change: Change; intent: Intent };

/** What a change's requests are built from (ops, dependsOn): only what the change shows, and the server as read. */
export type OpsRequest<T extends AnyKindTypes> = AnyRequest<T> &
  SubjectOf<T> & {
    /**
     * What the change means (src/model/intent.ts), derived once from it: the values it gives its
     * object's fields, their names (`changed`: the fields whose values differ, write-only fields being
     * sent included), a rename's old name, the copy a delete addresses. ops (and dependsOn) get a
     * create's or an edit's `desired` with exactly these fields; shown, at plan time, the declared object.
     */
    intent: Intent;
    /** Names of the fields whose values differ (update and rename), write-only fields being sent included: `intent.changed`, which most ops need alone. */
    changed: string[];
    /** What the kind's prepare returned for this scope. */
    prepared: T['prepared'];
    /** The change's context values (see Writing.context): all that ops may use beyond desired and current. */
    shown: Record<string, unknown>;
  };
/** The context values of a change are read from the configuration, at plan time. */
export type ShownRequest<T extends AnyKindTypes> = PlanRequest<T> & SubjectOf<T> & { intent: Intent; changed: string[]; prepared: T['prepared'] };

/** The input of a kind's ops (and dependsOn) as the engine builds it for any kind. */
export type OpsInput = OpsRequest<AnyKindTypes>;

/**
 * How a kind reads the server: its fields, its objects as read, how values compare, what a saved
 * plan's staleness digest covers. All that apply (the stale-plan check, the read-back of answers)
 * and export need besides a client.
 */
export interface Reading<T extends AnyKindTypes> {
  fields: FieldSpec[];
  /**
   * The shape of one object as the server answers it (a list item, a create's or an edit's answer),
   * types included: read passes it to the client, apply checks write answers with it. A wrong type is
   * an error naming the request, never coerced (src/gitea/answer.ts).
   */
  shape?: Shape;
  /**
   * Fields left out of a saved plan's staleness digest: those the server itself refuses stale writes to,
   * and those that are not part of the object's state as apply re-reads it (a user's badges and keys,
   * read only when the config names them; a runner's online status).
   */
  guardedByServer?: string[];
  /**
   * Values of an object's meta that its saved plan's staleness digest covers beside its fields (an
   * issue's label ids: a label deleted and created again under its name). Absent: none.
   */
  inDigest?: (this: void, current: CurrentOf<T>) => Record<string, unknown> | undefined;
  /** Current objects of a scope, with the fewest list calls (`desired`: for kinds that read only what is named). */
  read: (this: void, req: ReadRequest<T>) => Promise<CurrentOf<T>[]>;
  /** An object as the server answers it (a list item, a write's answer), its shape checked first (by the client, or by apply before it reads an answer back). */
  fromServer: (this: void, raw: T['server']) => CurrentOf<T>;
  /** A field whose equality is not plain (e.g. labels_mode: add compares as a subset). */
  compare?: (this: void, field: string, req: CompareRequest<T>) => ((want: unknown, have: unknown) => boolean) | undefined;
}

/** How a kind turns its config into declared objects and judges them against the server, at plan time only. */
export interface Planning<T extends AnyKindTypes> {
  /** Desired objects of a scope, or undefined when the config does not manage this kind there. */
  desired: (this: void, req: DesiredRequest<T>) => Promise<{ objects: DesiredOf<T>[]; problems: Problem[] } | undefined>;
  /** Kind-specific checks of the desired state against the scope (e.g. teams on user repos); a problem withholds the object. */
  check?: (this: void, req: CheckRequest<T>) => Problem[];
  /**
   * Several server objects carry the name of one declared object: which one is the declared object and
   * which may be deleted. Without it, the planner names them and changes none of them.
   */
  resolveDuplicates?: (this: void, req: DuplicatesRequest<T>) => Promise<DuplicateResolution>;
  /** Why an undeclared object must survive a prune (protected users, the token's own user): kept with a warning. */
  keep?: (this: void, req: KeepRequest<T>) => string | undefined;
  /** Facts about the declared objects worth a warning even when nothing changes (offline runners). */
  notices?: (this: void, req: NoticesRequest<T>) => string[];
}

/** What a kind says about a planned change, asked at plan time and again at apply time on the server as it is then. */
export interface Safety<T extends AnyKindTypes> {
  /** A reason why this scope cannot be written (e.g. archived repositories); its changes are withheld. */
  readOnlyReason?: (this: void, scope: Scope) => string | undefined;
  /**
   * Whether this planned change makes its read-only scope writable (un-archives the repository): the
   * kind is planned before the kinds whose readOnlyReason it lifts, and their changes wait for it.
   */
  liftsReadOnly?: (this: void, change: Change) => boolean;
  /**
   * Whether this planned change makes its scope read-only (archives the repository): every other change
   * of the scope waits for nothing of it, it waits for them (a write after it would be refused, 423).
   */
  makesReadOnly?: (this: void, change: Change) => boolean;
  /**
   * Why a planned change must never be made (a protected user deleted, the token's own user locked
   * out, the last administrator demoted), judged on the server as read and the whole plan: asked at
   * plan time and again at apply time.
   */
  guard?: (this: void, req: GuardRequest<T>) => string | undefined;
  /** Facts about a planned change (how many issues carry a label), asked at plan time and again at apply time. */
  annotate?: (this: void, req: AnnotateRequest<T>) => Promise<ChangeFacts | undefined>;
}

/**
 * How a kind builds the requests of one change. ops get only what the change shows and the server as
 * read (apply has no config); shown is the plan-time half that puts config values on display.
 */
export interface Writing<T extends AnyKindTypes> {
  /**
   * Names of the values (not fields of the object) its requests depend on: an organisation's owner,
   * an issue's labels_mode, a user's purge. The planner shows them with the change (see shown), and
   * apply gives ops nothing else: no request can depend on what the plan did not display.
   */
  context?: string[];
  /** The context values of one change, read from the config and the policy at plan time. */
  shown?: (this: void, req: ShownRequest<T>) => Record<string, unknown> | undefined;
  /**
   * Asynchronous lookups a kind needs before diffing a scope (issue labels resolved against the labels
   * as this plan leaves them, milestones by title), at plan time and again at apply: what check,
   * compare and ops get as `prepared`.
   */
  prepare?: (this: void, req: PrepareRequest<T>) => Promise<T['prepared']>;
  /** The HTTP operations that realise one change, in order. Bodies may hold {"$ref": change id} for an object created earlier in the plan. */
  ops: (this: void, req: OpsRequest<T>) => Op[];
  /** Change ids (of kinds in `after`, see ctx.madeBy) that must be done before this change: a repository's owner being created. */
  dependsOn?: (this: void, req: OpsRequest<T>) => string[];
  /**
   * Fields whose values name objects of another kind (a branch protection's user lists name users),
   * by field, with that kind: a change waits for the change of the same plan that makes each object it
   * names (its create or rename, see ctx.madeBy), whatever the two kinds are. An object of a server-wide
   * kind is looked for in the server scope, an organisation's in the organisation of the change's
   * repository (a protection's teams), any other in the change's own scope. Each kind named here
   * is in `after` (test/unit/registry.test.ts checks it).
   */
  references?: Record<string, KindMeta>;
}

/** How a kind writes the server's objects as config (export); a kind without toConfig is not exported. */
export interface Export<T extends AnyKindTypes> {
  /** The config fragment that reproduces a current object. Absent: export leaves the kind out (issues are chosen one by one, not exported wholesale). */
  toConfig?: (this: void, current: CurrentOf<T>) => Record<string, unknown>;
  /** Kinds whose config section is not `config[configKey]` as a map (server-wide sections, one object per scope): puts the exported objects (by key) in place, in the whole config or the scope's entry. */
  exportInto?: (this: void, config: Record<string, unknown>, objects: Record<string, Record<string, unknown>>) => void;
  /**
   * Its objects are the scopes export writes (a kind with `createsScope`: repositories): export reads
   * exactly the scopes of that type it exports (read's `desired` names them, so no list of the whole
   * server is made for a selection), chooses it with the kinds of those scopes (`--include` of its
   * config key, or no kind of a scope named), and its exportInto puts each object in its scope's entry.
   */
  exportedWithScopes?: boolean;
}

/** How a kind's state for one run starts (see RunStates): the engine keeps it for that run only and hands it back as `run`. */
export interface KindState<T extends AnyKindTypes> {
  /** A fresh state for one run (a plan, or the check and apply of a saved plan). Absent: the kind's `run` is undefined. */
  runState?: (this: void) => T['run'];
}

/**
 * One resource kind as it is written and as the engine calls it: its metadata and its facets, each
 * phase receiving one request object. A kind's module types it by its KindTypes
 * (`defineKind<…>(definition)`, src/model/define.ts); the engine knows every kind as
 * `Kind = KindDefinition<AnyKindTypes>`, and each part of it asks only for the facets it uses.
 */
export type KindDefinition<T extends AnyKindTypes> = KindMeta & KindState<T> & Reading<T> & Planning<T> & Safety<T> & Writing<T> & Export<T>;

/**
 * One resource kind as the engine knows it: everything the planner, executor and renderers need to
 * know about it is here; they stay generic, and each asks only for the facets it uses.
 */
export type Kind = KindDefinition<AnyKindTypes>;

/** The facets of any kind, as the engine calls them. */
export type KindReading = Reading<AnyKindTypes>;
export type KindPlanning = Planning<AnyKindTypes>;
export type KindSafety = Safety<AnyKindTypes>;
export type KindWriting = Writing<AnyKindTypes>;
export type KindExport = Export<AnyKindTypes>;

/** What reads a kind's objects without planning (apply's checks, export, ctx.currentOf): also what every request names as `self`. */
export type ReadingKind = KindMeta & KindState<AnyKindTypes> & KindReading;
/** What apply needs of a kind to check a saved plan and rebuild its requests: no config, no planning. */
export type ApplyingKind = ReadingKind & KindSafety & KindWriting;
/** What export needs of a kind: one that has toConfig (see exportable in registry.ts). */
export type ExportingKind = ReadingKind & KindExport & Required<Pick<KindExport, 'toConfig'>>;
