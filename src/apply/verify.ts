// apply PLANFILE: the file's changes say what to do; nothing else in it is trusted. Each change's
// requests are built again through its kind from what the change shows and the server as it is now,
// and safety is decided again (src/plan/safety.ts) from the changes and the server.
import { isDeepStrictEqual } from 'node:util';
import { isApiError, type GiteaClient } from '../gitea/client.js';
import { kindNamed, kindsByName, planningOrder, scopeCreationIds, type CurrentObject, type Diagnostic, type DesiredObject, type ApplyingKind, type Scope, type ScopeContext, type ServerInfo } from '../model/index.js';
import { dependenciesOf, hasItsObject, opsOf, type OpsBase } from '../plan/change-ops.js';
import { objectDigest } from '../plan/digest.js';
import { makeScopeContext } from '../plan/planner.js';
import { project, Projection } from '../plan/projection.js';
import { assessSavedPlan, type SafetyVerdict } from '../plan/safety.js';
import type { Change, Plan } from '../model/index.js';
import { scopeNow } from '../scopes/now.js';
import { isSecret } from '../secret.js';
import { summaryOf } from './plan-shape.js';

export interface VerifiedPlan {
  /** The plan as apply will run it: recomputed requests, notes, summary and unsafe reasons. */
  plan: Plan;
  /** Changes that will not run (stale plan), by change id, with the reason (the result line names the change). */
  refused: Map<string, Diagnostic>;
  /** Changes whose file requests differ from what they show: the whole plan is refused. */
  mismatches: Diagnostic[];
  verdict: SafetyVerdict;
}

/** The changes of one kind in one scope, and that scope's objects as they are now. */
interface Group {
  kind: ApplyingKind;
  scope: Scope;
  changes: Change[];
  current: CurrentObject[];
  prepared?: unknown;
}

/** What the check of one saved plan gathers, step by step. */
interface Verifying {
  plan: Plan;
  kinds: ApplyingKind[];
  ctx: ScopeContext;
  projection: Projection;
  refused: Map<string, Diagnostic>;
  mismatches: Diagnostic[];
  /** The object each change is for, as the server has it now. */
  nowOf: Map<string, CurrentObject | undefined>;
  /** How many objects of a kind a scope holds now, keyed by `${kind} ${scope}`. */
  existing: Map<string, number>;
  /** Each change as apply will run it. */
  rebuilt: Map<string, Change>;
  affects: { change: Change; count: number; what: string }[];
}

const STALE = 'plan again';

/**
 * A saved plan, checked against the server as it is now and rebuilt through the kinds, in steps:
 *
 * 1. group: the changes by kind (in the order kinds are planned) and scope, each scope as it is now.
 * 2. read: each touched scope once, as plan reads it.
 * 3. match: each change's object now; a change whose object moved on since the plan is refused as stale,
 *    a deletion outside the plan's policy.prune is a mismatch.
 * 4. rebuild: each change's requests and dependencies built again through its kind from what it shows;
 *    where they differ from the file's, that is a mismatch. Then the kind's objects as the plan leaves
 *    them are projected for the kinds rebuilt after it, as the planner does.
 * 5. annotate: the kinds' facts again; a change whose facts moved on is refused as stale.
 * 6. assess: safety from the changes that will run and the server now (src/plan/safety.ts).
 */
export async function verifySavedPlan(plan: Plan, client: GiteaClient, kinds: ApplyingKind[], server?: ServerInfo): Promise<VerifiedPlan> {
  const projection = new Projection();
  const ctx = makeScopeContext(client, plan.policy, {}, { projection, server });
  const v: Verifying = { plan, kinds, ctx, projection, refused: new Map(), mismatches: [], nowOf: new Map(), existing: new Map(), rebuilt: new Map(), affects: [] };
  const groups = await groupStep(v);
  await readStep(v, groups);
  for (const g of groups) matchStep(v, g);
  for (const g of groups) await rebuildStep(v, g);
  for (const g of groups) await annotateStep(v, g);
  return assessStep(v);
}

/** 1. One group per kind and scope, in the order kinds are planned (issues see the labels as the plan leaves them). */
async function groupStep(v: Verifying): Promise<Group[]> {
  const planned = new Set(v.plan.changes.map((c) => c.id));
  const creationId = scopeCreationIds(v.kinds);
  const groups: Group[] = [];
  for (const kind of planningOrder(v.kinds)) {
    const byScope = new Map<string, Change[]>();
    for (const c of v.plan.changes.filter((c) => c.kind === kind.name)) byScope.set(c.scope, [...(byScope.get(c.scope) ?? []), c]);
    for (const [id, changes] of byScope) groups.push({ kind, scope: await scopeNow(id, planned, v.ctx, creationId), changes, current: [] });
  }
  for (const g of groups) v.projection.expect(g.kind, g.scope);
  return groups;
}

/** 2. The same reads as plan: each touched scope once; kinds that read only named objects are told which. */
async function readStep(v: Verifying, groups: Group[]): Promise<void> {
  await Promise.all(
    groups.map(async (g) => {
      if (g.scope.pendingCreate) return;
      try {
        g.current = await v.ctx.currentOf(g.kind, g.scope, g.changes.map((c) => desiredOf(c, c.from ?? c.key)));
      } catch (e) {
        // A repository or organisation the plan creates first does not exist yet: nothing is in it.
        if (!isApiError(e, 404)) throw e;
      }
    }),
  );
}

/** 3. Each change's object as it is now, and whether it is still the one the plan was computed from. */
function matchStep(v: Verifying, g: Group): void {
  v.existing.set(`${g.kind.name} ${g.changes[0]!.scope}`, g.current.length);
  // A create may take the name a rename of this plan frees (it waits for that rename): the object still under
  // that name is the one being renamed, not a conflict.
  const freed = new Set(g.changes.filter((r) => r.action === 'rename').map((r) => r.from!));
  for (const c of g.changes) {
    const key = c.action === 'rename' ? c.from! : c.key;
    const matches = c.action === 'create' && freed.has(key) ? [] : g.current.filter((o) => o.key === key);
    // A create is computed from no object, every other action from the one the plan read: a file whose
    // action and precondition disagree was edited (a create turned into an update would be sent as its POST).
    if ((c.action === 'create') !== (c.precondition.digest === null)) {
      v.mismatches.push({ resource: c.id, message: `${c.action === 'update' ? 'an' : 'a'} ${c.action} ${c.action === 'create' ? 'has no object read at plan time, but its precondition names one' : 'needs the object the plan read, but its precondition names none'} (the file was edited)` });
      continue;
    }
    const now = objectNow(c, matches, g.kind);
    v.nowOf.set(c.id, now);
    const digest = now ? objectDigest(now, g.kind) : null;
    if (digest !== c.precondition.digest) v.refused.set(c.id, { message: staleness(now, c, g.current), hint: STALE });
    else if (c.action === 'delete' && !v.plan.policy.prune.includes(g.kind.pruneKey))
      v.mismatches.push({ resource: c.id, message: `deletes a ${g.kind.title}, but the plan's policy.prune does not list ${g.kind.pruneKey}` });
  }
}

/** Copies of one name: a delete names its copy by id; any other change is for the copy the plan read (its digest holds the id). */
function objectNow(c: Change, matches: CurrentObject[], kind: ApplyingKind): CurrentObject | undefined {
  if (matches.length < 2) return matches[0];
  if (c.action === 'delete') return matches.find((o) => c.id.endsWith(`#${o.id}`));
  return matches.find((o) => objectDigest(o, kind) === c.precondition.digest) ?? matches[0];
}

function staleness(now: CurrentObject | undefined, c: Change, current: CurrentObject[] = []): string {
  // The old name is gone and the new one is there: the plan was applied already, or another run or a human renamed it.
  if (!now && c.action === 'rename' && current.some((o) => o.key === c.key))
    return `"${c.from}" was already renamed to "${c.key}" on the server since the plan was made (by an apply of this plan, another run or by hand), so nothing of this change was sent (stale plan)`;
  if (!now) return 'no longer exists on the server (stale plan)';
  return c.precondition.digest ? 'changed on the server since the plan was made (stale plan)' : 'exists on the server since the plan was made (stale plan)';
}

/** 4. The group's changes rebuilt through the kind from what they show and the server now, then projected. */
async function rebuildStep(v: Verifying, g: Group): Promise<void> {
  v.projection.asking = g.kind;
  try {
    const out = await rebuildGroup(v, g);
    v.projection.record(g.kind, g.scope, project(g.current, out, (id) => v.nowOf.get(id)));
    for (const c of out) v.rebuilt.set(c.id, c);
  } finally {
    v.projection.asking = undefined;
  }
}

async function rebuildGroup(v: Verifying, g: Group): Promise<Change[]> {
  const live = g.changes.filter((c) => !v.refused.has(c.id));
  if (g.kind.prepare && live.length) g.prepared = await g.kind.prepare(g.scope, live.map((c) => desiredOf(c, c.key)), g.current, v.ctx);
  const readOnly = g.kind.readOnlyReason?.(g.scope);
  const out: Change[] = [];
  for (const c of g.changes) {
    if (v.refused.has(c.id)) {
      out.push(c);
      continue;
    }
    if (readOnly) v.refused.set(c.id, { message: readOnly });
    out.push(rebuildOne(v, g, c));
  }
  return out;
}

/** One change with the requests and dependencies its kind builds now; a difference from the file's is a mismatch. */
function rebuildOne(v: Verifying, g: Group, c: Change): Change {
  const now = v.nowOf.get(c.id);
  const base: OpsBase = { scope: g.scope, ...(now ? { current: now } : {}), ctx: v.ctx, prepared: g.prepared };
  // Its object is gone: the change is refused as stale (matchStep), and there is nothing to build its requests on;
  // its file requests are never kept.
  if (!hasItsObject(c, base)) {
    if (!v.refused.has(c.id) && !v.mismatches.some((m) => m.resource === c.id)) v.refused.set(c.id, { message: staleness(undefined, c), hint: STALE });
    return { ...c, ops: [] };
  }
  let ops;
  try {
    ops = opsOf(g.kind, c, base);
  } catch (e) {
    v.mismatches.push({ resource: c.id, message: `its requests cannot be built from what it shows (${(e as Error).message})` });
    return c;
  }
  if (!isDeepStrictEqual(plain(ops), plain(c.ops)))
    v.mismatches.push({ resource: c.id, message: 'the requests in the plan file differ from what the change shows, built against the server as it is now (the file was edited, or what the change refers to moved on)' });
  const deps = dependenciesOf(g.kind, c, ops, base);
  const freeing = g.changes.find((r) => c.action === 'create' && r.action === 'rename' && r.from === c.key);
  if (freeing) deps.push(freeing.id);
  if (!isDeepStrictEqual([...new Set(deps)].sort(), [...new Set(c.depends_on)].sort()))
    v.mismatches.push({ resource: c.id, message: `depends_on in the plan file differs from what the change needs (${deps.join(', ') || 'nothing'})` });
  return { ...c, ops, depends_on: [...new Set(deps)] };
}

/** 5. Facts again, from the server as it is now: a label put on an issue since the plan makes its deletion stale. */
async function annotateStep(v: Verifying, g: Group): Promise<void> {
  if (!g.kind.annotate) return;
  await Promise.all(
    g.changes.map(async (orig) => {
      const c = v.rebuilt.get(orig.id)!;
      const facts = await g.kind.annotate!(c, g.scope, v.ctx).catch((e: unknown) => {
        if (!v.refused.has(c.id)) v.refused.set(c.id, { message: `cannot tell what this ${c.action} affects now: ${(e as Error).message}` });
        return undefined;
      });
      const notes = facts?.notes ?? [];
      v.rebuilt.set(c.id, { ...c, ...(notes.length ? { notes } : { notes: undefined }) });
      if (!facts?.affects || v.refused.has(c.id)) return;
      const then = c.precondition.affects ?? 0;
      if (facts.affects.count !== then) v.refused.set(c.id, { message: `${g.kind.title} "${c.key}" ${facts.affects.what} now, ${then} when the plan was made (stale plan)`, hint: STALE });
      else v.affects.push({ change: v.rebuilt.get(c.id)!, ...facts.affects });
    }),
  );
}

/** 6. Safety of the changes that will run, judged on the server now and the stricter policy. */
function assessStep(v: Verifying): VerifiedPlan {
  const byName = kindsByName(v.kinds);
  const kindOf = (name: string) => kindNamed(byName, name);
  const changes = v.plan.changes.map((c) => {
    const r = v.rebuilt.get(c.id)!;
    if (r.notes === undefined) delete r.notes;
    return r;
  });
  const live = changes.filter((c) => !v.refused.has(c.id));
  const guards = live.flatMap((c) => {
    const reason = kindOf(c.kind).guard?.(c, v.nowOf.get(c.id), v.ctx, live);
    return reason ? [{ change: c, reason }] : [];
  });
  const verdict = assessSavedPlan({ changes: live, existing: v.existing, affects: v.affects, guards, title: (k) => kindOf(k).title }, v.plan.policy);
  const plan = { ...v.plan, summary: summaryOf(changes), unsafe: [...verdict.unsafe, ...verdict.forbidden], changes };
  return { plan, refused: v.refused, mismatches: v.mismatches, verdict };
}

/** The desired object a change stands for, as the kinds' reads and prepare take it. */
function desiredOf(c: Change, key: string): DesiredObject {
  const fields = Object.fromEntries(c.fields.filter((f) => !f.context && !(c.action === 'rename' && f.path === 'name')).map((f) => [f.path, f.after]));
  return { key, fields, path: [] };
}

/**
 * Values as a plan file carries them (no undefined members), to compare the file's requests with
 * rebuilt ones. Secrets stay Secrets: two compare equal when they come from the same ${NAME} template.
 */
function plain(v: unknown): unknown {
  if (isSecret(v)) return v;
  if (Array.isArray(v)) return v.map((x) => plain(x ?? null));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, plain(x)]));
  return v ?? null;
}
