// apply PLANFILE: the file's changes say what to do; nothing else in it is trusted. Each change's
// requests are built again through its kind from what the change shows and the server as it is now,
// and safety is decided again (src/plan/safety.ts) from the changes and the server.
import { isDeepStrictEqual } from 'node:util';
import { isApiError, type GiteaClient } from '../gitea/client.js';
import { planningOrder, scopeCreationIds, type ApplyingKind, type ChangeFacts, type CurrentObject, type DesiredObject, type Diagnostic, type Intent, type Scope, type ServerInfo } from '../model/index.js';
import { objectDigest } from '../plan/digest.js';
import { annotateStep, asKind, dependsStep, inputStep, intentStep, judgeStep, liftStep, opsStep, prepareStep, projectStep, readGroup, readOnlyStep, readStep, renamesFreeing, runState, sealingWaits, type Group as PipelineGroup, type GroupState, type Run } from '../plan/pipeline.js';
import { makeScopeContext } from '../plan/planner.js';
import { Projection } from '../plan/projection.js';
import { assessSavedPlan, type SafetyVerdict } from '../plan/safety.js';
import type { Change, Plan } from '../model/index.js';
import { scopeNow } from '../scopes/now.js';
import { isSecret } from '../secret.js';
import { summaryOf } from './plan-shape.js';
import { quote } from '../inert.js';

export interface VerifiedPlan {
  /** The plan as apply will run it: recomputed requests, notes, summary and unsafe reasons. */
  plan: Plan;
  /** Changes that will not run (stale plan), by change id, with the reason (the result line names the change). */
  refused: Map<string, Diagnostic>;
  /** Changes whose file requests differ from what they show: the whole plan is refused. */
  mismatches: Diagnostic[];
  verdict: SafetyVerdict;
  /** The plan's scopes as they are now, with their facts, by scope id: what the executor hands kinds. */
  scopes: Map<string, Scope>;
}

/** The changes of one kind in one scope: what the plan file wants there. */
interface Group extends PipelineGroup {
  planned: Change[];
}

type GroupNow = Group & GroupState;

/** What the check of one saved plan gathers besides what every run does (src/plan/pipeline.ts). */
interface Verifying extends Run {
  plan: Plan;
  refused: Map<string, Diagnostic>;
  mismatches: Diagnostic[];
  /** Each change as apply will run it. */
  rebuilt: Map<string, Change>;
  /** What each archiving change waits for, from the plan's changes (see sealingWaits). */
  sealing: Map<string, string[]>;
}

const STALE = 'plan again';

/**
 * A saved plan, checked against the server as it is now and rebuilt through the kinds. The desired state
 * is what the file's changes show; from there on the steps are the planner's (src/plan/pipeline.ts):
 *
 * 1. group: the changes by kind (in the order kinds are planned) and scope, each scope as it is now.
 * 2. read: each touched scope once, as plan reads it.
 *
 *    Then for each group, in that order:
 * 3. match: each change's object now; a change whose object moved on since the plan is refused as stale,
 *    a deletion outside the plan's policy.prune is a mismatch.
 * 4. prepare, read-only and ops: each change's requests and dependencies built again through its kind
 *    from what it shows; where they differ from the file's, that is a mismatch. A scope that cannot be
 *    written refuses its changes.
 * 5. project: the kind's objects as the plan leaves them, for the kinds rebuilt after it.
 * 6. annotate: the kinds' facts again; a change whose facts moved on is refused as stale.
 *
 * 7. guard and assess: safety from the changes that will run and the server now (src/plan/safety.ts).
 */
export async function verifySavedPlan(plan: Plan, client: GiteaClient, kinds: ApplyingKind[], server?: ServerInfo): Promise<VerifiedPlan> {
  const projection = new Projection();
  const ctx = makeScopeContext(client, plan.policy, {}, { projection, server });
  const v: Verifying = { plan, kinds, ctx, projection, ...runState(), refused: new Map(), mismatches: [], rebuilt: new Map(), sealing: sealingWaits(kinds, plan.changes) };
  const groups = await groupStep(v);
  // A repository or organisation the plan creates first does not exist yet: nothing is in it.
  const reads = await readStep(v, groups, (e) => {
    if (!isApiError(e, 404)) throw e;
    return [];
  });
  for (const [i, g] of groups.entries()) await asKind(v, g.kind, () => checkGroup(v, readGroup(v, g, reads[i] ?? [])));
  return assessStep(v);
}

/** 1. One group per kind and scope, in the order kinds are planned (issues see the labels as the plan leaves them). */
async function groupStep(v: Verifying): Promise<Group[]> {
  // Only a create makes a scope: an organisation's or a repository's update is of one that exists, whose objects are read.
  const planned = new Set(v.plan.changes.filter((c) => c.action === 'create').map((c) => c.id));
  const creationId = scopeCreationIds(v.kinds);
  v.projection.createsScope = (s) => s.pendingCreate !== undefined || (s.type !== 'server' && planned.has(creationId(s.type, s.name) ?? ''));
  const groups: Group[] = [];
  for (const kind of planningOrder(v.kinds)) {
    const byScope = new Map<string, Change[]>();
    for (const c of v.plan.changes.filter((c) => c.kind === kind.name)) byScope.set(c.scope, [...(byScope.get(c.scope) ?? []), c]);
    for (const [id, changes] of byScope) {
      const scope = await scopeNow(id, planned, v.ctx, creationId);
      // A repository the plan un-archives is writable after that change, as the plan saw it.
      for (const k of v.kinds) liftStep(k, scope, v.plan.changes.filter((c) => c.scope === id && c.kind === k.name));
      v.scopes.set(id, scope);
      // Kinds that read only named objects are told which: those the changes are for, as the server has them now.
      groups.push({ kind, scope, planned: changes, desired: changes.map((c) => readName(intentStep(v, c), c)) });
    }
  }
  for (const g of groups) v.projection.expect(g.kind, g.scope);
  return groups;
}

/** Steps 3 to 6 for one group. */
async function checkGroup(v: Verifying, g: GroupNow): Promise<void> {
  matchStep(v, g);
  const out = await rebuildStep(v, g);
  projectStep(v, g, out);
  for (const c of out) v.rebuilt.set(c.id, c);
  await annotateStep(v, g, out, (change, facts, error) => tookFacts(v, g, change, facts, error));
}

/** 3. Each change's object as it is now, and whether it is still the one the plan was computed from. */
function matchStep(v: Verifying, g: GroupNow): void {
  // A create may take the name a rename of this plan frees (it waits for that rename): the object still under
  // that name is the one being renamed, not a conflict.
  const freed = new Set(g.planned.flatMap((r) => intentStep(v, r).from ?? []));
  for (const c of g.planned) {
    const intent = intentStep(v, c);
    // The object the plan read: a rename's under its old name.
    const key = intent.from ?? c.key;
    const matches = c.action === 'create' && freed.has(key) ? [] : g.current.filter((o) => o.key === key);
    // A create is computed from no object, every other action from the one the plan read: a file whose
    // action and precondition disagree was edited (a create turned into an update would be sent as its POST).
    if ((c.action === 'create') !== (c.precondition.digest === null)) {
      v.mismatches.push({ resource: c.id, message: `${c.action === 'update' ? 'an' : 'a'} ${c.action} ${c.action === 'create' ? 'has no object read at plan time, but its precondition names one' : 'needs the object the plan read, but its precondition names none'} (the file was edited)` });
      continue;
    }
    const now = objectNow(c, intent, matches, g.kind);
    v.currentOfChange.set(c.id, now);
    const digest = now ? objectDigest(now, g.kind) : null;
    if (digest !== c.precondition.digest) v.refused.set(c.id, { message: staleness(now, c, intent, g.current), hint: STALE });
    else if (c.action === 'delete' && !v.plan.policy.prune.includes(g.kind.pruneKey))
      v.mismatches.push({ resource: c.id, message: `deletes a ${g.kind.title}, but the plan's policy.prune does not list ${g.kind.pruneKey}` });
  }
}

/** Copies of one name: a delete names its copy by id; any other change is for the copy the plan read (its digest holds the id). */
function objectNow(c: Change, intent: Intent, matches: CurrentObject[], kind: ApplyingKind): CurrentObject | undefined {
  if (matches.length < 2) return matches[0];
  if (c.action === 'delete') return matches.find((o) => intent.copy === String(o.id));
  return matches.find((o) => objectDigest(o, kind) === c.precondition.digest) ?? matches[0];
}

function staleness(now: CurrentObject | undefined, c: Change, intent: Intent, current: CurrentObject[] = []): string {
  // The old name is gone and the new one is there: the plan was applied already, or another run or a human renamed it.
  if (!now && intent.from !== undefined && current.some((o) => o.key === c.key))
    return `${quote(intent.from)} was already renamed to ${quote(c.key)} on the server since the plan was made (by an apply of this plan, another run or by hand), so nothing of this change was sent (stale plan)`;
  if (!now) return 'no longer exists on the server (stale plan)';
  return c.precondition.digest ? 'changed on the server since the plan was made (stale plan)' : 'exists on the server since the plan was made (stale plan)';
}

/** 4. The group's changes rebuilt through the kind from what they show and the server now. */
async function rebuildStep(v: Verifying, g: GroupNow): Promise<Change[]> {
  const live = g.planned.filter((c) => !v.refused.has(c.id));
  if (live.length) await prepareStep(v, g, live.map((c) => desiredOf(intentStep(v, c), c.key)));
  const readOnly = readOnlyStep(g);
  const freeing = renamesFreeing(v, g.planned);
  const out: Change[] = [];
  for (const c of g.planned) {
    if (v.refused.has(c.id)) {
      out.push(c);
      continue;
    }
    if (readOnly) v.refused.set(c.id, { message: readOnly });
    out.push(rebuildOne(v, g, c, freeing));
  }
  return out;
}

/** One change with the requests and dependencies its kind builds now; a difference from the file's is a mismatch. */
function rebuildOne(v: Verifying, g: GroupNow, c: Change, freeing: Map<string, Change>): Change {
  const now = v.currentOfChange.get(c.id);
  // Its object is gone: the change is refused as stale (matchStep), and there is nothing to build its requests on;
  // its file requests are never kept.
  if (c.action !== 'create' && !now) {
    if (!v.refused.has(c.id) && !v.mismatches.some((m) => m.resource === c.id)) v.refused.set(c.id, { message: staleness(undefined, c, intentStep(v, c)), hint: STALE });
    return { ...c, ops: [] };
  }
  let ops, input;
  try {
    input = inputStep(v, g, c, now);
    ops = opsStep(g, input);
  } catch (e) {
    v.mismatches.push({ resource: c.id, message: `its requests cannot be built from what it shows (${(e as Error).message})` });
    return c;
  }
  if (!isDeepStrictEqual(plain(ops), plain(c.ops)))
    v.mismatches.push({ resource: c.id, message: 'the requests in the plan file differ from what the change shows, built against the server as it is now (the file was edited, or what the change refers to moved on)' });
  const deps = dependsStep(g, c, ops, input, freeing, v.sealing);
  if (!isDeepStrictEqual([...new Set(deps)].sort(), [...new Set(c.depends_on)].sort()))
    v.mismatches.push({ resource: c.id, message: `depends_on in the plan file differs from what the change needs (${deps.join(', ') || 'nothing'})` });
  return { ...c, ops, depends_on: [...new Set(deps)] };
}

/** 6. Facts again, from the server as it is now: a label put on an issue since the plan makes its deletion stale. */
function tookFacts(v: Verifying, g: GroupNow, c: Change, facts: ChangeFacts | undefined, error?: Error): void {
  if (error && !v.refused.has(c.id)) v.refused.set(c.id, { message: `cannot tell what this ${c.action} affects now: ${error.message}` });
  const notes = facts?.notes ?? [];
  v.rebuilt.set(c.id, { ...c, ...(notes.length ? { notes } : { notes: undefined }) });
  if (!facts?.affects || v.refused.has(c.id)) return;
  const then = c.precondition.affects ?? 0;
  if (facts.affects.count !== then) v.refused.set(c.id, { message: `${g.kind.title} ${quote(c.key)} ${facts.affects.what} now, ${then} when the plan was made (stale plan)`, hint: STALE });
  else v.affects.push({ change: v.rebuilt.get(c.id)!, ...facts.affects });
}

/** 6. Safety of the changes that will run, judged on the server now and the stricter policy. */
function assessStep(v: Verifying): VerifiedPlan {
  const changes = v.plan.changes.map((c) => {
    const r = v.rebuilt.get(c.id)!;
    if (r.notes === undefined) delete r.notes;
    return r;
  });
  const verdict = judgeStep(v, changes.filter((c) => !v.refused.has(c.id)), assessSavedPlan);
  const plan = { ...v.plan, summary: summaryOf(changes), unsafe: [...verdict.unsafe, ...verdict.forbidden], changes };
  return { plan, refused: v.refused, mismatches: v.mismatches, verdict, scopes: v.scopes };
}

/** The object a change is for under the name the plan read it by (a rename's old name), for the kinds that read only named objects. */
function readName(intent: Intent, c: Change): DesiredObject {
  return desiredOf(intent, intent.from ?? c.key);
}

/** The desired object a change stands for, as the kinds' reads and prepare take it. */
function desiredOf(intent: Intent, key: string): DesiredObject {
  return { key, fields: intent.fields, path: [] };
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
