// The one pipeline of the engine. A run's desired state comes from the config (a plan, src/plan/planner.ts)
// or from a plan file (the check of a saved plan before apply, src/apply/verify.ts); from there on both go
// through the steps here, the same functions, so that a change of a step changes plan and apply alike:
//
//   read → (match: by name and `previously`, or by the plan's digest) → prepare → (the changes: diffed from
//   the config, or the file's rebuilt) → read-only → ops → projection → annotate → guard → safety
//
// The run object below owns everything one run learns (nothing is kept in module state).
import { changeRequest, intentOf, kindNamed, kindsByName, requestOf, scopeId, writableAfter, type ApplyingKind, type ChangeFacts, type CurrentObject, type DesiredObject, type Intent, type Op, type OpsInput, type Scope, type ScopeContext } from '../model/index.js';
import type { Change, PlanPolicy } from '../model/index.js';
import { dependenciesOf, opsInputOf, type OpsBase } from './change-ops.js';
import { project, type Projection } from './projection.js';
import type { SafetyFacts, SafetyVerdict } from './safety.js';

/** What one run of the engine (a plan, or the check of a saved plan) carries from step to step. */
export interface Run<K extends ApplyingKind = ApplyingKind, C extends ScopeContext = ScopeContext> {
  ctx: C;
  /** The kinds in registry order (the order changes are listed in). */
  kinds: K[];
  projection: Projection;
  /** Every scope the run plans in, with the facts learnt about it (an archived repository, an owner that is an organisation), by scope id. */
  scopes: Map<string, Scope>;
  /** How many objects of a kind a scope holds on the server, keyed by `${kind} ${scope}`. */
  existing: Map<string, number>;
  /** Changes that alter other objects (a deleted label taken off issues). */
  affects: { change: Change; count: number; what: string }[];
  /** The server object each change is for, as this run read it (guards judge it; the projection applies the change to it). */
  currentOfChange: Map<string, CurrentObject | undefined>;
  /** What each change means (see intentStep), by change id: derived once, read by every step after. */
  intents: Map<string, Intent>;
}

/** The fields every run starts with empty. */
export function runState(): Pick<Run, 'scopes' | 'existing' | 'affects' | 'currentOfChange' | 'intents'> {
  return { scopes: new Map(), existing: new Map(), affects: [], currentOfChange: new Map(), intents: new Map() };
}

/**
 * intent: what a change means (src/model/intent.ts), derived from it once in a run and handed to its
 * input (ops, dependsOn), its projection and apply's match. Its context values are no part of it, so
 * the planner may ask before it adds them.
 */
export function intentStep(r: Pick<Run, 'intents'>, change: Change): Intent {
  const known = r.intents.get(change.id);
  if (known) return known;
  const intent = intentOf(change);
  r.intents.set(change.id, intent);
  return intent;
}

/** One kind in one scope: the objects the run wants there (declared in the config, or shown by the plan file's changes). */
export interface Group<K extends ApplyingKind = ApplyingKind> {
  kind: K;
  scope: Scope;
  desired: DesiredObject[];
}

/** A group once read: its server objects, what the kind's prepare returned, and its changes. */
export interface GroupState<K extends ApplyingKind = ApplyingKind> extends Group<K> {
  /** Every server object of the kind in the scope, as read. */
  read: CurrentObject[];
  /** The server objects looked at (a plan's --target on a server-wide kind: those selected, and those they rename). */
  current: CurrentObject[];
  /** What the kind's prepare returned (its lookups for check, compare and ops). */
  prepared: unknown;
  changes: Change[];
}

/**
 * read: every group's objects, all at once, each kind and scope read once (nothing in a scope the run
 * creates). `failed` says what a failed read is: a plan error (undefined: not planned), or for a saved
 * plan nothing there yet (a 404) or the end of the check (it throws).
 */
export function readStep(r: Run, groups: Group[], failed: (e: unknown) => CurrentObject[] | undefined, onProgress?: (done: number, total: number) => void): Promise<(CurrentObject[] | undefined)[]> {
  let done = 0;
  onProgress?.(0, groups.length);
  return Promise.all(
    groups.map(async (g) => {
      try {
        if (g.scope.pendingCreate) return [];
        return await r.ctx.currentOf(g.kind, g.scope, g.desired);
      } catch (e) {
        return failed(e);
      } finally {
        onProgress?.(++done, groups.length);
      }
    }),
  );
}

/** The group as read, its objects counted for the safety rules (max_delete_fraction). */
export function readGroup<G extends Group>(r: Run, g: G, read: CurrentObject[], current: CurrentObject[] = read): G & GroupState<G['kind']> {
  r.existing.set(`${g.kind.name} ${scopeId(g.scope)}`, read.length);
  return { ...g, read, current, prepared: undefined, changes: [] };
}

/** prepare: the kind's lookups for the group (issue labels resolved against the labels as the run leaves them), for check, compare and ops. */
export async function prepareStep(r: Run, g: GroupState, desired: DesiredObject[]): Promise<void> {
  g.prepared = await g.kind.prepare?.({ ...requestOf(g.kind, g.scope, r.ctx), desired, current: g.current });
}

/** read-only: why the group's scope cannot be written (an archived repository); its changes are withheld (plan) or refused (apply). */
export function readOnlyStep(g: Group): string | undefined {
  return g.kind.readOnlyReason?.(g.scope);
}

/** A change that un-archives its repository (Kind.liftsReadOnly): the scope is writable after it, for the kinds planned next. */
export function liftStep(kind: Pick<ApplyingKind, 'liftsReadOnly'>, scope: Scope, changes: readonly Change[]): void {
  const lifting = kind.liftsReadOnly ? changes.find((c) => kind.liftsReadOnly?.(c)) : undefined;
  if (lifting) writableAfter(scope, lifting.id);
}

/** What a change's requests are built from besides what it shows: the group's scope, its object as read, the kind's lookups. */
function opsBase(r: Run, g: GroupState, current: CurrentObject | undefined): OpsBase {
  return { scope: g.scope, ...(current ? { current } : {}), ctx: r.ctx, prepared: g.prepared };
}

/** A change's input to its kind: what the change shows and its object as read, built once for its requests and its waits, exactly so at plan and at apply. */
export function inputStep(r: Run, g: GroupState, change: Change, current: CurrentObject | undefined): OpsInput {
  return opsInputOf(g.kind, change, intentStep(r, change), opsBase(r, g, current));
}

/** ops: a change's requests, built through its kind from its input. */
export function opsStep(g: GroupState, input: OpsInput): Op[] {
  return g.kind.ops(input);
}

/**
 * A change that archives its repository (Kind.makesReadOnly) waits for every other change of that
 * repository, since the server refuses writes there after it: by the archiving change's id, the ids it
 * waits for. Read from the whole plan, exactly so when plan makes it and when apply checks a saved one.
 */
export function sealingWaits(kinds: readonly Pick<ApplyingKind, 'name' | 'makesReadOnly'>[], changes: readonly Change[]): Map<string, string[]> {
  const byName = new Map(kinds.map((k) => [k.name, k]));
  const waits = new Map<string, string[]>();
  for (const c of changes) {
    if (!byName.get(c.kind)?.makesReadOnly?.(c)) continue;
    waits.set(c.id, changes.filter((o) => o.scope === c.scope && o.id !== c.id && !o.depends_on.includes(c.id)).map((o) => o.id));
  }
  return waits;
}

/** The changes a change waits for: those its requests and fields name, those its kind names, its scope's create, and a rename that frees its name. */
export function dependsStep(g: GroupState, change: Change, ops: Op[], input: OpsInput, freeing: Map<string, Change>, sealing: Map<string, string[]> = new Map()): string[] {
  const deps = [...dependenciesOf(g.kind, change, ops, input), ...(sealing.get(change.id) ?? [])];
  const rename = change.action === 'create' ? freeing.get(change.key) : undefined;
  return rename && !deps.includes(rename.id) ? [...deps, rename.id] : deps;
}

/**
 * A create may reuse the name a rename of its group frees: it waits for that rename. By the name each
 * rename frees (the first rename wins, as a search would find it): a lookup per create, not a scan of
 * the group's changes (quadratic: 27 s for 93,000 labels created in one repository).
 */
export function renamesFreeing(r: Pick<Run, 'intents'>, changes: Change[]): Map<string, Change> {
  const freeing = new Map<string, Change>();
  for (const c of changes) {
    const { from } = intentStep(r, c);
    if (from !== undefined && !freeing.has(from)) freeing.set(from, c);
  }
  return freeing;
}

/** projection: the group's objects as the run leaves them, for the kinds planned after it (without changes: as read). */
export function projectStep(r: Run, g: GroupState, changes: Change[]): void {
  r.projection.record(g.kind, g.scope, project(g.read, changes, { sourceOf: (id) => r.currentOfChange.get(id), intentOf: (c) => intentStep(r, c) }));
}

/** The kind being planned may ask for the projection of the kinds its `after` names, and only those. */
export async function asKind<T>(r: Run, kind: ApplyingKind, step: () => Promise<T>): Promise<T> {
  r.projection.asking = kind;
  try {
    return await step();
  } finally {
    r.projection.asking = undefined;
  }
}

/**
 * annotate: the kind's facts about each change of the group (notes, the other objects it alters),
 * asked all at once; `take` records each, in the changes' order, as the run needs them (a plan keeps
 * them, a saved plan compares them with the plan's).
 */
export async function annotateStep(r: Run, g: GroupState, changes: Change[], take: (change: Change, facts: ChangeFacts | undefined, error?: Error) => void): Promise<void> {
  const { annotate } = g.kind;
  if (!annotate) return;
  const settled = await Promise.all(
    changes.map((c) =>
      annotate({ ...requestOf(g.kind, g.scope, r.ctx), change: c, intent: intentStep(r, c) }).then(
        (facts) => ({ facts, error: undefined }),
        (e: unknown) => ({ facts: undefined, error: e as Error }),
      ),
    ),
  );
  for (const [i, { facts, error }] of settled.entries()) take(changes[i]!, facts, error);
}

/**
 * guard and safety: the changes a kind forbids (judged on the object each is for and the whole set of
 * changes that will run: a second net behind the kinds' checks), then the safety rules on the facts
 * gathered and the policy (src/plan/safety.ts: a plan's own, or a saved plan's, no looser than the defaults).
 */
export function judgeStep(r: Run, changes: Change[], assess: (facts: SafetyFacts, policy: PlanPolicy) => SafetyVerdict): SafetyVerdict {
  const byName = kindsByName(r.kinds);
  const kindOf = (name: string) => kindNamed(byName, name);
  const guards = changes.flatMap((c) => {
    const kind = kindOf(c.kind);
    const reason = kind.guard?.({ ...changeRequest(kind, c, r.ctx), change: c, intent: intentStep(r, c), current: r.currentOfChange.get(c.id), plan: changes });
    return reason ? [{ change: c, reason }] : [];
  });
  return assess({ changes, existing: r.existing, affects: r.affects, guards, title: (k) => kindOf(k).title }, r.ctx.policy);
}
