// How a kind is written: `defineKind` takes a kind's typed definition, whose every phase receives one
// request object, and gives the engine the `Kind` it calls (src/model/kind.ts). The engine calls the
// same Kind for every kind; here each call becomes the request the kind's phase is typed for.
import type { Config } from '../config/types.js';
import type { FieldSpec } from './field.js';
import type { ApplyContext, ChangeFacts, DuplicateResolution, Kind, KindContext, KindExport, KindMeta, OpsSubject, Problem, ScopeContext } from './kind.js';
import type { CurrentObject, DesiredObject, ObjectMeta } from './object.js';
import type { Change, Op } from './plan.js';
import type { Intent } from './intent.js';
import { parseScopeId, splitRepo, type Scope } from './scope.js';
import type { Shape } from '../gitea/answer.js';

export { RunStates } from './run-states.js';

/**
 * What a kind's definition is typed by: the config of its scope (RepoConfig for a repository's kinds,
 * OrgConfig for an organisation's, the whole Config for server-wide ones), an object as the server
 * answers it, what its prepare returns, its own state for one run, and, for a kind whose objects carry
 * values beside their fields (see ObjectMeta), the meta of its objects as read and as declared.
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

/** What any kind's types are (the constraint of the request types). */
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

/** What every request carries: the scope with its facts, the run's context, the kind's own state for the run. */
interface RequestBase<T extends AnyKindTypes> {
  scope: RequestScope;
  run: T['run'];
  /** The kind itself as the engine knows it: its names, and what ctx.currentOf reads its own objects with. */
  self: Kind;
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
/** The declared objects of a scope, from its config entry. */
export type DesiredRequest<T extends AnyKindTypes> = PlanRequest<T> & { entry: T['config'] | undefined };
export type PrepareRequest<T extends AnyKindTypes> = AnyRequest<T> & { desired: DesiredOf<T>[]; current: CurrentOf<T>[] };
export type CheckRequest<T extends AnyKindTypes> = PlanRequest<T> & { desired: DesiredOf<T>; current: CurrentOf<T> | undefined; prepared: T['prepared'] };
/** prepared is absent where apply compares a write's answer with what was sent. */
export type CompareRequest<T extends AnyKindTypes> = { desired: DesiredOf<T>; current: CurrentOf<T> | undefined; prepared: T['prepared'] | undefined };
export type DuplicatesRequest<T extends AnyKindTypes> = PlanRequest<T> & { desired: DesiredOf<T>; matches: CurrentOf<T>[] };
export type KeepRequest<T extends AnyKindTypes> = PlanRequest<T> & { current: CurrentOf<T> };
export type NoticesRequest<T extends AnyKindTypes> = PlanRequest<T> & { desired: DesiredOf<T>[]; current: CurrentOf<T>[] };
/** A change a kind judges (guard, annotate), with what it means (its intent, see OpsInput.intent): read that, never the change's fields or id. */
export type GuardRequest<T extends AnyKindTypes> = AnyRequest<T> & { change: Change; intent: Intent; current: CurrentOf<T> | undefined; plan: Change[] };
export type AnnotateRequest<T extends AnyKindTypes> = AnyRequest<T> & { change: Change; intent: Intent };

/** What a change's requests are built from (ops, dependsOn): only what the change shows, and the server as read. */
export type OpsRequest<T extends AnyKindTypes> = AnyRequest<T> &
  SubjectOf<T> & {
    /** What the change means (see OpsInput.intent): its fields' values and names, a rename's old name, the copy a delete addresses. */
    intent: Intent;
    /** Names of the fields whose values differ (update and rename), write-only fields being sent included: `intent.changed`, which most ops need alone. */
    changed: string[];
    prepared: T['prepared'];
    /** The change's context values (see context): all that ops may use beyond desired and current. */
    shown: Record<string, unknown>;
  };
/** The context values of a change are read from the configuration, at plan time. */
export type ShownRequest<T extends AnyKindTypes> = PlanRequest<T> & SubjectOf<T> & { intent: Intent; changed: string[]; prepared: T['prepared'] };

/** How a kind reads the server (see KindReading). */
export interface Reading<T extends AnyKindTypes> {
  fields: FieldSpec[];
  shape?: Shape;
  guardedByServer?: string[];
  inDigest?: (this: void, current: CurrentOf<T>) => Record<string, unknown> | undefined;
  read: (this: void, req: ReadRequest<T>) => Promise<CurrentOf<T>[]>;
  /** An object as the server answers it, its shape checked first (by the client, or by apply before it reads an answer back). */
  fromServer: (this: void, raw: T['server']) => CurrentOf<T>;
  compare?: (this: void, field: string, req: CompareRequest<T>) => ((want: unknown, have: unknown) => boolean) | undefined;
}

/** How a kind turns its config into declared objects and judges them, at plan time (see KindPlanning). */
export interface Planning<T extends AnyKindTypes> {
  desired: (this: void, req: DesiredRequest<T>) => Promise<{ objects: DesiredOf<T>[]; problems: Problem[] } | undefined>;
  check?: (this: void, req: CheckRequest<T>) => Problem[];
  resolveDuplicates?: (this: void, req: DuplicatesRequest<T>) => Promise<DuplicateResolution>;
  keep?: (this: void, req: KeepRequest<T>) => string | undefined;
  notices?: (this: void, req: NoticesRequest<T>) => string[];
}

/** What a kind says about a planned change, at plan time and again at apply (see KindSafety). */
export interface Safety<T extends AnyKindTypes> {
  readOnlyReason?: (this: void, scope: Scope) => string | undefined;
  liftsReadOnly?: (this: void, change: Change) => boolean;
  makesReadOnly?: (this: void, change: Change) => boolean;
  guard?: (this: void, req: GuardRequest<T>) => string | undefined;
  annotate?: (this: void, req: AnnotateRequest<T>) => Promise<ChangeFacts | undefined>;
}

/** How a kind builds a change's requests (see KindWriting). */
export interface Writing<T extends AnyKindTypes> {
  context?: string[];
  shown?: (this: void, req: ShownRequest<T>) => Record<string, unknown> | undefined;
  /** Lookups before a scope's changes are judged and built, at plan time and again at apply: what check, compare and ops get as `prepared`. */
  prepare?: (this: void, req: PrepareRequest<T>) => Promise<T['prepared']>;
  ops: (this: void, req: OpsRequest<T>) => Op[];
  dependsOn?: (this: void, req: OpsRequest<T>) => string[];
  references?: Record<string, KindMeta>;
}

/** How a kind writes its objects as config (see KindExport). */
export interface Export<T extends AnyKindTypes> {
  toConfig?: (this: void, current: CurrentOf<T>) => Record<string, unknown>;
  exportInto?: KindExport['exportInto'];
  exportedWithScopes?: KindExport['exportedWithScopes'];
}

/** A kind as it is written: its metadata, its facets, and how its state for one run starts. */
export type KindDefinition<T extends AnyKindTypes> = KindMeta &
  Reading<T> &
  Planning<T> &
  Safety<T> &
  Writing<T> &
  Export<T> & {
    /** A fresh state for one run (a plan, or the check and apply of a saved plan): the engine keeps it for that run only. */
    runState?: (this: void) => T['run'];
  };

/** The scope with the names its routes are made of (a repository's owner and name, split once here). */
export function requestScope(scope: Scope): RequestScope {
  if (scope.type === 'repo') {
    const [owner, name] = scope.repo ? [scope.repo.owner, scope.repo.name] : splitRepo(scope.name);
    return { ...scope, segments: ['repos', owner, name], owner };
  }
  if (scope.type === 'org') return { ...scope, segments: ['orgs', scope.name], owner: scope.name };
  return { ...scope, segments: [], owner: '' };
}

/**
 * The kind the engine calls, from its typed definition: each call of the engine becomes one request,
 * a plan request where the context is the planner's (it has the configuration), an apply request
 * otherwise. The values the engine keeps for the kind and hands back (the scope's config entry, what
 * its prepare returned, a server answer whose shape was checked, the kind's own objects with the meta it
 * wrote) get their types back here, each in one place below.
 */
export function defineKind<ScopeConfig, Server, Prepared = undefined, RunState = undefined, Meta extends object = ObjectMeta, DeclaredMeta extends object = ObjectMeta>(
  def: KindDefinition<KindTypes<ScopeConfig, Server, Prepared, RunState, Meta, DeclaredMeta>>,
): Kind {
  type T = KindTypes<ScopeConfig, Server, Prepared, RunState, Meta, DeclaredMeta>;
  const { runState, read, fromServer, inDigest, compare, desired, check, resolveDuplicates, keep, notices, guard, annotate, shown, prepare, ops, dependsOn, toConfig, ...rest } = def;
  // A kind without a state of its own has `undefined` for it (RunState defaults to undefined).
  const run = (ctx: ScopeContext): RunState => ctx.runStates.of(def, () => (runState ? runState() : (undefined as RunState)));
  const request = (scope: Scope, ctx: ScopeContext): AnyRequest<T> =>
    ctx.phase === 'plan' ? planRequest(scope, ctx) : { phase: 'apply', ctx, scope: requestScope(scope), run: run(ctx), self: kind };
  const planRequest = (scope: Scope, ctx: KindContext): PlanRequest<T> => ({ phase: 'plan', ctx, config: ctx.loaded.config, scope: requestScope(scope), run: run(ctx), self: kind });
  // The engine hands a kind back only what its own prepare returned (or nothing, where it has none).
  const typed = (prepared: unknown) => prepared as Prepared;
  // The objects the engine hands a kind are the kind's own: read by its read (their meta is what its
  // fromServer wrote), declared by its desired (what it wrote), or rebuilt from what a change shows (none).
  const own = {
    current: (o: CurrentObject) => o as CurrentOf<T>,
    currents: (os: CurrentObject[]) => os as CurrentOf<T>[],
    desired: (d: DesiredObject) => d as DesiredOf<T>,
    desireds: (ds: DesiredObject[]) => ds as DesiredOf<T>[],
    subject: (s: OpsSubject) => s as SubjectOf<T>,
  };
  const maybe = (o: CurrentObject | undefined) => (o ? own.current(o) : undefined);
  const kind: Kind = {
    ...rest,
    read: (scope, ctx, d) => read({ ...request(scope, ctx), ...(d ? { desired: own.desireds(d) } : {}) }),
    // The shape of a server answer is checked before it is read (by the client, or apply before a write's answer is compared).
    fromServer: (raw) => fromServer(raw as Server),
    ...(inDigest ? { inDigest: (current) => inDigest(own.current(current)) } : {}),
    ...(compare ? { compare: (field, d, current, prepared) => compare(field, { desired: own.desired(d), current: maybe(current), prepared: prepared === undefined ? undefined : typed(prepared) }) } : {}),
    // The config entry of the scope, checked by the schema against the type generated from it (src/config/schema-types.ts).
    desired: (entry, scope, ctx) => desired({ ...planRequest(scope, ctx), entry: entry as ScopeConfig | undefined }),
    ...(check ? { check: (d, current, scope, ctx, prepared) => check({ ...planRequest(scope, ctx), desired: own.desired(d), current: maybe(current), prepared: typed(prepared) }) } : {}),
    ...(resolveDuplicates ? { resolveDuplicates: (d, matches, scope, ctx) => resolveDuplicates({ ...planRequest(scope, ctx), desired: own.desired(d), matches: own.currents(matches) }) } : {}),
    ...(keep ? { keep: (current, scope, ctx) => keep({ ...planRequest(scope, ctx), current: own.current(current) }) } : {}),
    ...(notices ? { notices: (d, current, scope, ctx) => notices({ ...planRequest(scope, ctx), desired: own.desireds(d), current: own.currents(current) }) } : {}),
    ...(guard ? { guard: (change, current, ctx, plan, intent) => guard({ ...request(changeScope(change), ctx), change, intent, current: maybe(current), plan }) } : {}),
    ...(annotate ? { annotate: (change, scope, ctx, intent) => annotate({ ...request(scope, ctx), change, intent }) } : {}),
    ...(prepare ? { prepare: (scope, d, current, ctx) => prepare({ ...request(scope, ctx), desired: own.desireds(d), current: own.currents(current) }) } : {}),
    ...(shown ? { shown: ({ scope, ctx, intent, prepared, ...subject }) => shown({ ...planRequest(scope, ctx), ...own.subject(subject), intent, changed: intent.changed, prepared: typed(prepared) }) } : {}),
    ops: ({ scope, ctx, intent, prepared, shown: values, ...subject }) => ops({ ...request(scope, ctx), ...own.subject(subject), intent, changed: intent.changed, prepared: typed(prepared), shown: values ?? {} }),
    ...(dependsOn ? { dependsOn: ({ scope, ctx, intent, prepared, shown: values, ...subject }) => dependsOn({ ...request(scope, ctx), ...own.subject(subject), intent, changed: intent.changed, prepared: typed(prepared), shown: values ?? {} }) } : {}),
    ...(toConfig ? { toConfig: (current) => toConfig(own.current(current)) } : {}),
  };
  return kind;
}

/** The scope a change names ("repo:acme/widgets"), for a guard, which the engine asks with the change alone. */
const changeScope = (change: Change): Scope => parseScopeId(change.scope);
