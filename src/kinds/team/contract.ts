// The team kind is written as issue 20's `defineKind` takes a kind: each phase receives one request
// object, its state for one run among them. Until `defineKind` is on main, this adapts such a
// definition to the `Kind` contract (src/model/kind.ts); it goes when the team kind moves to defineKind.
import type { Shape } from '../../gitea/answer.js';
import type {
  Change,
  ChangeFacts,
  CurrentObject,
  DesiredObject,
  FieldSpec,
  Kind,
  KindContext,
  KindExport,
  KindMeta,
  Op,
  OpsSubject,
  Problem,
  Scope,
  ScopeContext,
} from '../../model/index.js';

export interface KindTypes<Config, Server, Prepared, Run> {
  config: Config;
  server: Server;
  prepared: Prepared;
  run: Run;
}
type Any = KindTypes<unknown, unknown, unknown, unknown>;

interface Base<T extends Any> {
  scope: Scope;
  ctx: ScopeContext;
  run: T['run'];
}
type Plan<T extends Any> = Omit<Base<T>, 'ctx'> & { ctx: KindContext };

export type OpsRequest<T extends Any> = Base<T> & OpsSubject & { changed: string[]; prepared: T['prepared']; shown: Record<string, unknown> };

export interface Reading<T extends Any> {
  fields: FieldSpec[];
  shape?: Shape;
  guardedByServer?: string[];
  read(req: Base<T> & { desired?: DesiredObject[] }): Promise<CurrentObject[]>;
  fromServer(raw: T['server']): CurrentObject;
  compare?(field: string, req: { desired: DesiredObject; current: CurrentObject | undefined; prepared: T['prepared'] | undefined }): ((want: unknown, have: unknown) => boolean) | undefined;
}

export interface Planning<T extends Any> {
  desired(req: Plan<T> & { entry: T['config'] | undefined }): Promise<{ objects: DesiredObject[]; problems: Problem[] } | undefined>;
  check?(req: Plan<T> & { desired: DesiredObject; current: CurrentObject | undefined; prepared: T['prepared'] }): Problem[];
  keep?(req: Base<T> & { current: CurrentObject }): string | undefined;
}

export interface Safety<T extends Any> {
  guard?(req: Base<T> & { change: Change; current: CurrentObject | undefined; plan: Change[] }): string | undefined;
  annotate?(req: Base<T> & { change: Change }): Promise<ChangeFacts | undefined>;
}

export interface Writing<T extends Any> {
  prepare?(req: Base<T> & { desired: DesiredObject[]; current: CurrentObject[] }): Promise<T['prepared']>;
  ops(req: OpsRequest<T>): Op[];
  dependsOn?(req: OpsRequest<T>): string[];
  references?: Record<string, KindMeta>;
}

export type KindDefinition<T extends Any> = KindMeta & Reading<T> & Planning<T> & Safety<T> & Writing<T> & KindExport & { runState(): T['run'] };

/** The kind the engine calls, from a definition written with request objects; its state per run is kept per context. */
export function defineKind<Config, Server, Prepared, Run extends object>(def: KindDefinition<KindTypes<Config, Server, Prepared, Run>>): Kind {
  const runs = new WeakMap<ScopeContext, Run>();
  const run = (ctx: ScopeContext): Run => {
    let r = runs.get(ctx);
    if (!r) runs.set(ctx, (r = def.runState()));
    return r;
  };
  const { runState: _r, read, fromServer, compare, desired, check, keep, guard, annotate, prepare, ops, dependsOn, ...rest } = def;
  const typed = (p: unknown) => p as Prepared;
  return {
    ...rest,
    read: (scope, ctx, d) => read({ scope, ctx, run: run(ctx), ...(d ? { desired: d } : {}) }),
    fromServer: (raw) => fromServer(raw as Server),
    ...(compare ? { compare: (field: string, d: DesiredObject, current: CurrentObject | undefined, prepared?: unknown) => compare(field, { desired: d, current, prepared: typed(prepared) }) } : {}),
    desired: (entry, scope, ctx) => desired({ scope, ctx, run: run(ctx), entry: entry as Config | undefined }),
    ...(check ? { check: (d: DesiredObject, current: CurrentObject | undefined, scope: Scope, ctx: KindContext, prepared?: unknown) => check({ scope, ctx, run: run(ctx), desired: d, current, prepared: typed(prepared) }) } : {}),
    ...(keep ? { keep: (current: CurrentObject, scope: Scope, ctx: ScopeContext) => keep({ scope, ctx, run: run(ctx), current }) } : {}),
    ...(guard ? { guard: (change: Change, current: CurrentObject | undefined, ctx: ScopeContext, plan: Change[]) => guard({ scope: { type: 'org', name: '' }, ctx, run: run(ctx), change, current, plan }) } : {}),
    ...(annotate ? { annotate: (change: Change, scope: Scope, ctx: ScopeContext) => annotate({ scope, ctx, run: run(ctx), change }) } : {}),
    ...(prepare ? { prepare: (scope: Scope, d: DesiredObject[], current: CurrentObject[], ctx: ScopeContext) => prepare({ scope, ctx, run: run(ctx), desired: d, current }) } : {}),
    ops: ({ scope, ctx, changed, prepared, shown, ...subject }) => ops({ scope, ctx, run: run(ctx), ...subject, changed, prepared: typed(prepared), shown: shown ?? {} }),
    ...(dependsOn ? { dependsOn: ({ scope, ctx, changed, prepared, shown, ...subject }) => dependsOn({ scope, ctx, run: run(ctx), ...subject, changed, prepared: typed(prepared), shown: shown ?? {} }) } : {}),
  };
}
