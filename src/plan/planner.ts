import { formatDiagnostic } from '../diagnostic.js';
import type { LoadedConfig } from '../config/types.js';
import { variablesRead } from '../config/load.js';
import { answerProblem, wrongTypeError } from '../gitea/answer.js';
import type { GiteaClient, RequestOptions } from '../gitea/client.js';
import { changeId, intentOf, parseScopeId, planningOrder, planRequest, requestOf, RunStates, scopeCreationIds, scopeId, type ApplyContext, type ChangeFacts, type CurrentObject, type Kind, type KindContext, type KindMeta, type KindOptions, type Scope, type ScopeContext, type ServerInfo } from '../model/index.js';
import { diffFields } from './diff.js';
import { checkPreviously, matchOne, renamedAway, type Match } from './match.js';
import { Projection } from './projection.js';
import { makeChange, placed, resourceOf, sourceOfScopePath, type Planning, type ScopePlan, type Work } from './planning.js';
import { annotateStep, asKind, judgeStep, liftStep, prepareStep, projectStep, readGroup, readOnlyStep, readStep, renamesFreeing, runState, sealingWaits } from './pipeline.js';
import { assessSafety, policyOf } from './safety.js';
import { writeOnlyFields } from './write-only.js';
import { resolvedPart, resolveScopes, type ResolvedScope } from '../scopes/resolve.js';
import { sameObjectKey, withCanonicalNames } from '../scopes/names.js';
import type { Action, Change, Diagnostic, Plan, PlanPolicy } from '../model/index.js';
import { VERSION } from '../version.js';
import { hasLookAlikes } from '../inert.js';

export interface PlanOptions {
  client: GiteaClient;
  loaded: LoadedConfig;
  kinds: Kind[];
  options?: KindOptions;
  /** The release the preflight found (or --server-version gave). */
  server?: ServerInfo;
  /** Which scopes are planned (--target, --shard, --changed-only); absent: all the config declares. */
  selectsScope?: (scope: Scope) => boolean;
  onProgress?: (done: number, total: number) => void;
  /** Declared objects planned so far, of all: called after each kind and scope. */
  onPlanning?: (done: number, total: number) => void;
}

export interface PlanResult {
  plan: Plan;
  errors: Diagnostic[];
  /** Changes a kind's guard forbids (the Owners team deleted, the token's own user removed from it): no flag lifts them. */
  forbidden: string[];
  /** The scopes planned, with their facts, by scope id: apply hands kinds these (see Run.scopes). */
  scopes: Map<string, Scope>;
}

export { refsIn } from './change-ops.js';

export { parseScopeId, scopeId };

export { changeId };

const actionOrder: Record<Action, number> = { rename: 0, create: 1, replace: 1, update: 2, delete: 3 };

/** What a context shares beyond the client and policy: the plan's projection, and the release the server runs. */
export interface ContextExtras {
  projection?: Projection;
  server?: ServerInfo | undefined;
  /** The kinds planned: their own entries of the policy (KindMeta.policy) are read from the config; without them (a unit test of one kind) the policy has the engine's entries only. */
  kinds?: readonly KindMeta[];
}

/** The context kinds read and build requests with; apply makes one from the plan file's policy. */
export function makeScopeContext(client: GiteaClient, policy: PlanPolicy, options?: KindOptions, extras?: ContextExtras): ApplyContext;
export function makeScopeContext(client: GiteaClient, policy: PlanPolicy, options: KindOptions, extras: ContextExtras, loaded: LoadedConfig): KindContext;
export function makeScopeContext(client: GiteaClient, policy: PlanPolicy, options: KindOptions = {}, { projection = new Projection(), server }: ContextExtras = {}, loaded?: LoadedConfig): ScopeContext {
  const cache = new Map<string, Promise<unknown>>();
  const reads = new Map<string, Promise<CurrentObject[]>>();
  const ctx: ScopeContext = {
    ...(loaded ? { phase: 'plan' as const, loaded, listedRepos: new Map() } : { phase: 'apply' as const }),
    runStates: new RunStates(),
    client,
    ...(server ? { server } : {}),
    policy,
    options,
    cachedGet<T>(path: string, opts?: RequestOptions) {
      const hit = cache.get(sameObjectKey(path));
      if (!hit) {
        const p = client.get(path, opts);
        cache.set(sameObjectKey(path), p);
        return p as Promise<T>;
      }
      // The first reader may have asked with a smaller shape: each reader's shape is checked on its own.
      const shape = opts?.shape;
      if (!shape) return hit as Promise<T>;
      return hit.then((data) => {
        const problem = answerProblem(data, shape);
        if (problem) throw wrongTypeError('GET', path, data, problem, opts.object);
        return data as T;
      });
    },
    currentOf(kind, scope, desired) {
      // A scope this plan creates has nothing in it yet (a kind may ask for the objects of a new organisation by its name).
      if (projection.createsScope(scope)) return Promise.resolve([]);
      const id = `${kind.name} ${scopeId(scope)}`;
      let p = reads.get(id);
      if (!p) {
        p = kind.read({ ...requestOf(kind, scope, ctx), ...(desired ? { desired } : {}) });
        reads.set(id, p);
      }
      return p;
    },
    projected(kind, scope) {
      return projection.get(kind, scope, ctx);
    },
    madeBy(kind, scope, key) {
      return projection.madeBy(kind, scope, key);
    },
    planned(kind, scope) {
      return projection.planned(kind, scope);
    },
  };
  return ctx;
}

/** Planning: the same context (one object, so that kinds' memos keyed by it are shared) with the configuration. */
export function makeKindContext(client: GiteaClient, loaded: LoadedConfig, options: KindOptions = {}, extras: ContextExtras = {}): KindContext {
  return makeScopeContext(client, policyOf(loaded.config, extras.kinds), options, extras, loaded);
}

/**
 * The one planner, a template of named steps (as octoDNS's plan()); kinds supply all specifics. Steps 1, 2,
 * 4 to 6 and 9 are the config's; the others are the engine's pipeline (src/plan/pipeline.ts), which the
 * check of a saved plan (src/apply/verify.ts) goes through as well:
 *
 * 1. resolve scopes: the repositories, organisations and server the config declares (src/scopes).
 * 2. desired: each kind's declared objects per scope; their problems placed in the config.
 * 3. read: the server's objects of every kind and scope, concurrently, each read once.
 *
 *    Then for each kind (after the kinds its `after` names, else in registry order) and scope:
 *    prepare: the kind's lookups;
 * 4. match: each declared object with the server object it stands for: its identity, `previously`
 *    (a rename), the kind's choice among copies of one name.
 * 5. diff: the fields that differ and the write-only ones sent, as a create, update, rename or replace,
 *    with its ops (built as apply builds them again).
 * 6. prune: undeclared objects deleted where policy.prune lists the kind (and the kind keeps none);
 *    a read-only scope withholds its changes.
 * 7. project: the kind's objects as this plan leaves them, for the kinds planned after it.
 * 8. annotate: the facts the kind reports about its changes (the issues a deleted label is on).
 *
 * 9. order: changes by scope, kind, action and key.
 * 10. guard and assess: what the kinds forbid, and safety, decided from those facts and the policy (src/plan/safety.ts).
 */
export async function buildPlan(opts: PlanOptions): Promise<PlanResult> {
  const p = startPlanning(opts);
  const scopes = await resolveStep(p, opts);
  const work = await desiredStep(p, scopes);
  // 3. Every kind and scope read at once (src/plan/pipeline.ts); undefined where the read failed.
  const currents = await readStep(p, work, (e) => void p.errors.push({ message: (e as Error).message }), opts.onProgress);
  const objects = work.reduce((n, w) => n + w.desired.length, 0);
  let planned = 0;
  const annotating: Annotating[] = [];
  for (const [i, w] of work.entries()) {
    await planScope(p, w, currents[i], annotating);
    opts.onPlanning?.((planned += w.desired.length), objects);
  }
  await recordFacts(p, annotating);
  waitBeforeSealing(p.changes, opts.kinds);
  orderStep(p.changes, opts.kinds);
  return assessStep(p, opts);
}

function startPlanning(opts: PlanOptions): Planning {
  const projection = new Projection();
  const ctx = makeKindContext(opts.client, opts.loaded, opts.options, { projection, server: opts.server, kinds: opts.kinds });
  return { ctx, kinds: opts.kinds, projection, ...runState(), errors: [], warnings: [], drift: [], withheld: [], kept: [], changes: [], secretsNotSent: 0 };
}

/** --target selects objects of server-wide kinds by the kind's selector type (user:NAME, hook:URL). */
function targeted(ctx: KindContext, kind: Kind, key: string): boolean {
  const select = ctx.options.selectsObject;
  if (!select) return true;
  return kind.target ? select(kind.target.type, kind.target.name?.(key) ?? key) : false;
}

/** 1. The scopes the config declares, with the changes that create those still missing. */
async function resolveStep(p: Planning, opts: PlanOptions): Promise<ResolvedScope[]> {
  const { ctx } = p;
  const { scopes, problems, warnings, names, listed } = await resolveScopes(ctx.loaded.config, opts.client, scopeCreationIds(p.kinds), opts.selectsScope, (path, o) => ctx.cachedGet(path, o));
  // From here on the config names repositories and organisations as the server spells them (located where written).
  ctx.loaded = withCanonicalNames(ctx.loaded, names);
  ctx.listedRepos = listed;
  for (const problem of problems) p.errors.push({ ...problem, location: problem.path && ctx.loaded.locate(problem.path, true) });
  p.warnings.push(...warnings);
  for (const rs of scopes) p.scopes.set(scopeId(rs.scope), rs.scope);
  p.projection.createsScope = (s) => (s.pendingCreate ?? p.scopes.get(scopeId(s))?.pendingCreate) !== undefined;
  return scopes;
}

/** 2. What each kind declares in each scope of its type (--target picks among server-wide objects), in planning order. */
async function desiredStep(p: Planning, scopes: ResolvedScope[]): Promise<Work[]> {
  const work: Work[] = [];
  for (const kind of planningOrder(p.kinds)) {
    for (const rs of scopes) {
      if (rs.scope.type !== kind.scopeType) continue;
      const d = await kind.desired({ ...planRequest(kind, rs.scope, p.ctx), entry: rs.config });
      if (!d) continue;
      for (const problem of d.problems) p.errors.push({ ...problem, location: problem.path ? sourceOfScopePath(p.ctx.loaded, rs, problem.path) : undefined });
      work.push({ kind, rs, scope: rs.scope, desired: rs.scope.type === 'server' ? d.objects.filter((o) => targeted(p.ctx, kind, o.key)) : d.objects });
      p.projection.expect(kind, rs.scope);
    }
  }
  // Masking is by type: a field that is not secret, reading a variable a secret field reads, would print the secret.
  for (const { at, message } of p.ctx.loaded.secretTemplates?.crossUse(resolvedPart(scopes)) ?? []) p.errors.push({ message, location: at });
  return work;
}

/** Steps 4 to 8 for one kind in one scope. The kind may ask for the projection of the kinds in its `after` only. */
function planScope(p: Planning, w: Work, read: CurrentObject[] | undefined, annotating: Annotating[]): Promise<void> {
  return asKind(p, w.kind, async () => {
    const sp = await startScope(p, w, read);
    if (!sp) return p.projection.record(w.kind, w.scope);
    checkPreviously(p, sp);
    sp.renamedAway = renamedAway(sp);
    for (const d of sp.desired) {
      const m = matchOne(p, sp, d);
      diffStep(p, sp, m instanceof Promise ? await m : m);
    }
    pruneStep(p, sp);
    waitForFreedNames(p, sp.changes);
    p.warnings.push(...(sp.kind.notices?.({ ...planRequest(sp.kind, sp.scope, p.ctx), desired: sp.desired, current: sp.current }) ?? []));
    if (withheld(p, sp)) return projectStep(p, sp, []);
    liftStep(sp.kind, sp.scope, sp.changes);
    // 7. The kind's objects in the scope as this plan leaves them, for the kinds planned after it.
    projectStep(p, sp, sp.changes);
    annotating.push(annotate(p, sp));
    p.changes.push(...sp.changes);
  });
}

/** The scope's server objects by name, and the kind's lookups (prepare); undefined when either failed. */
async function startScope(p: Planning, w: Work, read: CurrentObject[] | undefined): Promise<ScopePlan | undefined> {
  const { kind, scope } = w;
  // --target on a server-wide kind: only the selected objects, and those they rename, are looked at (and pruned).
  const renamed = new Set(w.desired.flatMap((d) => d.previously ?? []));
  const current = scope.type === 'server' ? read?.filter((c) => targeted(p.ctx, kind, c.key) || renamed.has(c.key)) : read;
  if (!read || !current) return undefined;
  const sp: ScopePlan = { ...w, ...readGroup(p, w, read, current), byKey: new Map(), consumed: new Set(), renamedAway: new Set() };
  try {
    await prepareStep(p, sp, w.desired);
  } catch (e) {
    p.errors.push({ message: (e as Error).message });
    return undefined;
  }
  for (const c of current) {
    const same = sp.byKey.get(c.key);
    if (same) same.push(c);
    else sp.byKey.set(c.key, [c]);
  }
  return sp;
}

/** 5. The change a matched declared object needs, if any (the kind's checks first: a problem withholds the object). */
function diffStep(p: Planning, sp: ScopePlan, m: Match): void {
  const { kind, scope } = sp;
  const { desired: d, current: cur, from } = m;
  for (const r of m.remove) sp.changes.push(makeChange(p, sp, { action: 'delete', key: d.key, fields: [], current: r }));
  if (m.undecided) return;
  const problems = kind.check?.({ ...planRequest(kind, scope, p.ctx), desired: d, current: cur, prepared: sp.prepared }) ?? [];
  for (const { objectOnly, ...problem } of problems) {
    const reported = { ...problem, resource: resourceOf(kind, d.key, scope), location: problem.path ? sourceOfScopePath(p.ctx.loaded, sp.rs, problem.path) : undefined };
    // A problem of this object alone leaves it out; the plan goes on with everything else.
    if (objectOnly) p.withheld.push(formatDiagnostic(placed(reported)));
    else p.errors.push(reported);
  }
  if (problems.length) return;
  const fields = diffFields(kind.fields, d.fields, cur?.fields, kind.compare ? (name) => kind.compare?.(name, { desired: d, current: cur, prepared: sp.prepared }) : undefined);
  const writeOnly = writeOnlyFields(kind, d, cur, fields, p.ctx.options);
  p.secretsNotSent += writeOnly.notSent.length;
  const sent = [...fields, ...writeOnly.fields];
  const action = !cur ? 'create' : writeOnly.replace ? 'replace' : from !== undefined ? 'rename' : sent.length ? 'update' : undefined;
  if (!action) return;
  const shown = action === 'rename' ? [{ path: 'name', before: from, after: d.key }, ...sent] : sent;
  sp.changes.push(makeChange(p, sp, { action, key: d.key, fields: shown, desired: d, ...(cur ? { current: cur } : {}), ...(action === 'rename' ? { from: from! } : {}) }));
}

/**
 * 6. Undeclared objects go where policy.prune lists the kind, unless the kind keeps them. Where it does
 * not list the kind, they are kept, and the plan says so (Plan.kept): "No changes" is about what is declared.
 */
function pruneStep(p: Planning, sp: ScopePlan): void {
  const pruning = p.ctx.policy.prune.includes(sp.kind.pruneKey);
  const kept: string[] = [];
  for (const c of sp.current) {
    if (sp.consumed.has(c)) continue;
    const keep = sp.kind.keep?.({ ...planRequest(sp.kind, sp.scope, p.ctx), current: c });
    if (keep) {
      if (pruning) p.warnings.push(`${resourceOf(sp.kind, c.key, sp.scope)} is not deleted: ${keep}`);
    } else if (pruning) sp.changes.push(makeChange(p, sp, { action: 'delete', key: c.key, fields: [], current: c }));
    else kept.push(c.key);
  }
  // A kind that is never pruned (no policy.prune entry) has nothing for policy to keep.
  if (kept.length && sp.kind.pruneKey) p.kept.push({ scope: scopeId(sp.scope), kind: sp.kind.name, prune_key: sp.kind.pruneKey, keys: kept.sort() });
}

/** An archiving change waits for the other changes of its repository (see sealingWaits). */
function waitBeforeSealing(changes: Change[], kinds: Kind[]): void {
  const byId = new Map(changes.map((c) => [c.id, c]));
  for (const [id, waits] of sealingWaits(kinds, changes)) {
    const c = byId.get(id);
    if (c) c.depends_on = [...new Set([...c.depends_on, ...waits])];
  }
}

/** A create may reuse the name a rename frees: it waits for that rename (see renamesFreeing). */
function waitForFreedNames(p: Planning, changes: Change[]): void {
  const freeing = renamesFreeing(p, changes);
  if (freeing.size === 0) return;
  for (const ch of changes) {
    const r = ch.action === 'create' ? freeing.get(ch.key) : undefined;
    if (r) ch.depends_on.push(r.id);
  }
}

/** A scope the kind cannot write (an archived repository) withholds its changes, with a warning. */
function withheld(p: Planning, sp: ScopePlan): boolean {
  const reason = readOnlyStep(sp);
  if (!reason || !sp.changes.length) return false;
  p.warnings.push(`${sp.changes.length} ${sp.kind.title} change(s) withheld: ${reason}`);
  return true;
}

/** A scope's annotation under way: its facts, and how many errors the plan held when it was asked. */
interface Annotating {
  sp: ScopePlan;
  errorsBefore: number;
  facts: Promise<{ change: Change; facts: ChangeFacts | undefined; error: Error | undefined }[]>;
}

/**
 * 8. The kind's facts about the scope's changes, asked now and recorded once every scope is planned
 * (recordFacts): some need a read (the issues carrying a deleted label), and awaiting each in turn
 * made those reads one at a time after all others (the tail of the benchmark's plan). Annotations
 * read no projection, so the scopes planned meanwhile change nothing they see.
 */
function annotate(p: Planning, sp: ScopePlan): Annotating {
  const taken: Awaited<Annotating['facts']> = [];
  const facts = annotateStep(p, sp, sp.changes, (change, f, error) => void taken.push({ change, facts: f, error })).then(() => taken);
  return { sp, errorsBefore: p.errors.length, facts };
}

/** 8, recorded: each scope's facts in the order the scopes were planned, its errors where they came when it was awaited in turn. */
async function recordFacts(p: Planning, annotating: Annotating[]): Promise<void> {
  let inserted = 0;
  for (const a of annotating) {
    const taken = await a.facts;
    const at = a.errorsBefore + inserted;
    const later = p.errors.splice(at);
    for (const t of taken) tookFacts(p, a.sp, t.change, t.facts, t.error);
    inserted += p.errors.length - at;
    p.errors.push(...later);
  }
}

/** 8. What the kind reports about a change: notes, and the other objects it alters (for safety). */
function tookFacts(p: Planning, sp: ScopePlan, change: Change, facts: ChangeFacts | undefined, error?: Error): void {
  if (error) p.errors.push({ resource: resourceOf(sp.kind, change.key, sp.scope), message: `cannot tell what this ${change.action} affects: ${error.message}` });
  if (!facts) return;
  if (facts.notes?.length) change.notes = [...(change.notes ?? []), ...facts.notes];
  if (facts.affects) {
    change.precondition.affects = facts.affects.count;
    p.affects.push({ change, ...facts.affects });
  }
}

/** 9. Changes by scope, then kind (registry order), action and key. */
function orderStep(changes: Change[], kinds: Kind[]): void {
  const kindIndex = new Map(kinds.map((k, i) => [k.name, i]));
  const index = (name: string) => kindIndex.get(name) ?? -1;
  // The order of localeCompare without arguments, without building a collator for every comparison.
  const text = new Intl.Collator().compare;
  changes.sort((a, b) => text(a.scope, b.scope) || index(a.kind) - index(b.kind) || actionOrder[a.action] - actionOrder[b.action] || text(a.key, b.key));
}

/** The server as the plan file records it: its URL and, when the preflight ran, its release. */
function planServer(opts: PlanOptions): Plan['server'] {
  const s = opts.server;
  return { url: opts.client.baseUrl, ...(s ? { flavour: s.flavour, version: s.version, ...(s.assumed ? { assumed: true } : {}) } : {}) };
}

/**
 * A name that looks like another (mixed scripts, fullwidth letters, look-alike dashes, invisible characters) is shown
 * escaped in every output; a warning says so once per change, so that `+ "bоb"` beside `- "bob"` cannot pass review.
 */
function lookAlikeWarnings(p: Planning, changes: Change[]): string[] {
  const out: string[] = [];
  for (const c of changes) {
    const names = [c.key, intentOf(c).from].filter((n): n is string => typeof n === 'string' && hasLookAlikes(n));
    const kind = p.kinds.find((k) => k.name === c.kind);
    if (!names.length || !kind) continue;
    out.push(`${resourceOf(kind, names[0]!, parseScopeId(c.scope))}: the name holds characters that look like others (shown escaped): check that it is the name you mean`);
  }
  return out;
}

/** 10. Safety from the facts gathered, and the plan. A guard is a second net behind the kinds' checks: no change it forbids leaves the planner. */
function assessStep(p: Planning, opts: PlanOptions): PlanResult {
  const { changes, ctx } = p;
  const verdict = judgeStep(p, changes, assessSafety);
  // One line for the whole plan, not one per object on every run (issue 17): secrets are write-only by
  // design, as in Terraform, and the docs say so; the line only says that some exist and how to send them.
  if (p.secretsNotSent)
    p.warnings.push(`${p.secretsNotSent} declared secret${p.secretsNotSent === 1 ? '' : 's'} of existing objects not compared (the server never returns them): --rotate-secrets sends ${p.secretsNotSent === 1 ? 'it' : 'them'}`);
  p.warnings.push(...lookAlikeWarnings(p, changes));
  const summary = { create: 0, update: 0, delete: 0, rename: 0, replace: 0 };
  for (const c of changes) summary[c.action]++;
  const plan: Plan = {
    format_version: 1,
    forgeform_version: VERSION,
    created_at: new Date().toISOString(),
    server: planServer(opts),
    config_digest: opts.loaded.digest,
    summary,
    policy: ctx.policy,
    unsafe: verdict.unsafe,
    warnings: p.warnings,
    ...(p.drift.length ? { drift: p.drift } : {}),
    ...(p.withheld.length ? { withheld: p.withheld } : {}),
    ...(p.kept.length ? { kept: p.kept } : {}),
    ...(variablesRead(opts.loaded).length ? { reads: variablesRead(opts.loaded) } : {}),
    changes,
  };
  return { plan, errors: p.errors.map(placed), forbidden: verdict.forbidden, scopes: p.scopes };
}
