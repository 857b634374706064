import { NotSent, type GiteaClient } from '../gitea/client.js';
import { ApiError, isApiError } from '../gitea/errors.js';
import { shapeProblem, wrongTypeError, WrongTypeError, type Shape } from '../gitea/answer.js';
import { describeDiagnostic, type Diagnostic } from '../diagnostic.js';
import { isSecret } from '../secret.js';
import { equal } from '../plan/diff.js';
import { makeScopeContext, parseScopeId } from '../plan/planner.js';
import { describeServer, intentOf, kindsByName, plannedFields, requestOf, type CurrentObject, type Intent, type ReadingKind, type Scope } from '../model/index.js';
import type { Action, Change, Op, PlanPolicy } from '../plan/types.js';
import type { ServerInfo } from '../model/index.js';
import { renamedMeanwhile, type Redirected } from './renamed.js';

export type Outcome = 'done' | 'failed' | 'skipped';

export interface ChangeResult {
  change: Change;
  outcome: Outcome;
  error?: string;
  /**
   * Fields the server answered with a different value than sent (it dropped or rewrote them): an
   * inconsistent result after apply (Terraform's word), which fails the run. The change was sent, so it
   * counts as done for what depends on it.
   */
  notTaken?: string[];
  /** The release that answered so (describeServer), said with notTaken. */
  release?: string;
  /** What happened on the way worth saying (a create whose answer was lost, found on the server). */
  notes?: string[];
}

export interface ExecuteOptions {
  client: GiteaClient;
  kinds: ReadingKind[];
  /** The policy the plan was made with: what kinds read the server with (a create's re-read). */
  policy: PlanPolicy;
  /** The release the server runs (how kinds read it). */
  server?: ServerInfo;
  /** The plan's scopes with their facts (see Run.scopes), by scope id: kinds read in these, as they did when planning. */
  scopes?: Map<string, Scope>;
  /** Changes refused before any request (stale plan), with the reason (the result names the change). */
  refused?: Map<string, Diagnostic>;
  onResult?: (r: ChangeResult) => void;
  /** Asked before each change sends its first request: true skips it (an interrupted apply). A change once started runs to its end. */
  shouldStop?: () => boolean;
  /** The skip reason of a change kept from starting by shouldStop. */
  notStarted?: string;
}

// Renames and creates come before what may reference them; deletes come last.
const phases: Action[][] = [['rename'], ['create', 'replace'], ['update'], ['delete']];

/**
 * Runs a plan's changes phase by phase. Inside a phase the changes start in order (see runPhase) and
 * the client's one concurrency bound paces the requests. A failure never stops independent changes; the changes
 * that depend on a failed one are skipped.
 */
export async function execute(changes: Change[], opts: ExecuteOptions): Promise<ChangeResult[]> {
  const byName = kindsByName(opts.kinds);
  const results = new Map<string, ChangeResult>();
  /** What each change's first request answered: the id a later {"$ref"} stands for. */
  const created = new Map<string, unknown>();
  const record = (r: ChangeResult) => {
    results.set(r.change.id, r);
    opts.onResult?.(r);
  };
  const runChange = async (change: Change) => {
    const refusal = opts.refused?.get(change.id);
    if (refusal) return record({ change, outcome: 'failed', error: describeDiagnostic(refusal) });
    const blocker = change.depends_on.map((d) => results.get(d)).find((r) => r && r.outcome !== 'done');
    if (blocker) return record({ change, outcome: 'skipped', error: `depends on ${blocker.change.id}, which ${blocker.outcome === 'failed' ? 'failed' : 'was skipped'}` });
    const notStarted = (reason?: string) => record({ change, outcome: 'skipped', error: reason ?? opts.notStarted ?? 'not started' });
    if (opts.shouldStop?.()) return notStarted();
    const kind = byName.get(change.kind);
    // What the change means, derived once: what the redirect of a rename and the read-back of an answer are judged by.
    const intent = intentOf(change);
    const progress: Progress = { firstId: undefined, last: undefined, done: 0 };
    const run = (from: number) =>
      runOps(opts.client, change.ops, created, progress, { from, ...(opts.shouldStop ? { abandon: opts.shouldStop } : {}), check: (op, answer) => checkUnchanged(kind, change, op, answer), redirected: (op, e) => renamedMeanwhile({ key: change.key, ...intent }, op, e, kind?.title ?? change.kind), ...(creates(change) && kind?.shape ? { createShape: kind.shape } : {}) });
    const finish = (extra?: string[]) => {
      if (progress.firstId !== undefined) created.set(change.id, progress.firstId);
      const notes = [...(extra ?? []), ...(progress.notes ?? [])];
      const notTaken = kind && progress.last !== undefined ? compareReadBack(kind, change, intent, progress.last) : [];
      const release = notTaken.length && opts.server ? { release: describeServer(opts.server) } : {};
      record({ change, outcome: 'done', ...(notTaken.length ? { notTaken, ...release } : {}), ...(notes.length ? { notes } : {}) });
    };
    try {
      await run(0);
      return finish();
    } catch (e) {
      // The client stopped sending (the server stopped answering or refused the credentials): its reason.
      if (e instanceof NotSent) return notStarted(e.reason);
      const found = creates(change) && kind ? await createdAnyway(change, kind, e, progress, opts) : undefined;
      if (!found) return record({ change, outcome: 'failed', error: (e as Error).message });
      // The create was made, its answer lost: the object found stands for the answer, and the rest of the change is sent.
      progress.firstId = found.id;
      progress.last = undefined;
      const rest = progress.done + 1;
      try {
        await run(rest);
      } catch (e2) {
        return record({ change, outcome: 'failed', error: `${(e2 as Error).message} (the create itself was made; its answer was lost: ${(e as Error).message})` });
      }
      return finish([`its answer was lost (${(e as Error).message}); the ${change.kind.replace(/_/g, ' ')} was found on the server${rest < change.ops.length ? ' and the rest of its requests were sent' : ''}`]);
    }
  };
  // A stand-in client (tests) may have no bound of its own: the default --concurrency then.
  const slots = (opts.client.limit as GiteaClient['limit'] | undefined)?.concurrency ?? 8;
  const width = CHANGES_PER_SLOT * slots;
  const phaseOf = phasesOf(changes);
  for (const i of phases.keys()) await runPhase(changes.filter((c) => phaseOf.get(c.id) === i), runChange, width);
  return changes.map((c) => results.get(c.id)!);
}

/**
 * The phase each change runs in: its action's, or earlier when a change of an earlier phase depends on
 * it (a protection created in a repository that an update un-archives waits for that update).
 */
function phasesOf(changes: Change[]): Map<string, number> {
  const phase = new Map(changes.map((c) => [c.id, phases.findIndex((p) => p.includes(c.action))]));
  for (let moved = true; moved; ) {
    moved = false;
    for (const c of changes)
      for (const d of c.depends_on) {
        const own = phase.get(c.id)!;
        if ((phase.get(d) ?? -1) > own) {
          phase.set(d, own);
          moved = true;
        }
      }
  }
  return phase;
}

/**
 * How many changes of a phase run at once, per request the client may have in flight. The client's
 * concurrency bound paces the requests; this only keeps the changes waiting for a slot from piling
 * up (each holds its frames, its promise and its queued request until its turn, long enough to be
 * kept by the garbage collector's old generation), while enough wait for the bound to stay what paces.
 */
const CHANGES_PER_SLOT = 4;

/**
 * One phase: its changes in order, a dependency before what depends on it (a change may depend on one
 * listed after it: a label of a repository that a server-wide change creates), at most `width` at
 * once. A change that depends on another of the phase waits for it; that one started earlier, so the
 * wait always ends.
 */
async function runPhase(batch: Change[], runChange: (change: Change) => Promise<void>, width: number): Promise<void> {
  const ordered = dependenciesFirst(batch);
  const running = new Map<string, Promise<void>>();
  let next = 0;
  const worker = async () => {
    while (next < ordered.length) {
      const change = ordered[next++]!;
      const done = Promise.all(change.depends_on.flatMap((d) => running.get(d) ?? [])).then(() => runChange(change));
      running.set(change.id, done);
      await done.catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, ordered.length) }, worker));
}

/** The changes in their order, each moved after the changes of the same list it depends on. */
function dependenciesFirst(batch: Change[]): Change[] {
  const byId = new Map(batch.map((c) => [c.id, c]));
  const placed = new Set<string>();
  const out: Change[] = [];
  const place = (c: Change) => {
    if (placed.has(c.id)) return;
    placed.add(c.id);
    for (const d of c.depends_on) {
      const dep = byId.get(d);
      if (dep) place(dep);
    }
    out.push(c);
  };
  batch.forEach(place);
  return out;
}

const creates = (change: Change) => change.action === 'create' || change.action === 'replace';

/**
 * A create that got no clear answer (network error, 5xx) may still have happened. POST is never
 * retried blindly: the scope is read again, and the object found there (if any) stands for the
 * create's answer. Only the creating request's failure is looked into; an answer of the wrong type
 * is no lost answer (it cannot be trusted, so nothing is decided from it).
 */
async function createdAnyway(change: Change, kind: ReadingKind, error: unknown, progress: Progress, opts: ExecuteOptions): Promise<CurrentObject | undefined> {
  if (!(error instanceof ApiError) || error instanceof WrongTypeError || (error.status !== undefined && error.status < 500)) return undefined;
  const failed = change.ops[progress.done];
  if (!failed || failed.method !== 'POST' || progress.firstId !== undefined) return undefined;
  try {
    // Kinds that read only what is named (repositories, issues) are told which object to look for.
    const ctx = makeScopeContext(opts.client, opts.policy, {}, { server: opts.server });
    const objects = await kind.read({ ...requestOf(kind, scopeOf(change.scope, opts.scopes), ctx), desired: [{ key: change.key, fields: {}, path: [] }] });
    return objects.find((o) => o.key === change.key);
  } catch {
    return undefined;
  }
}

/** A scope of the plan with its facts, as planned (or checked again at apply); parsed from its id only where the run has none. */
export function scopeOf(id: string, scopes: Map<string, Scope> | undefined): Scope {
  return scopes?.get(id) ?? parseScopeId(id);
}

/** Replaces {"$ref": change id} by the id that change's create answered with. */
function resolveRefs(value: unknown, created: Map<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, created));
  // A Secret is a leaf: copying its (public) properties would lose the value the client reveals.
  if (isSecret(value)) return value;
  if (value && typeof value === 'object') {
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') {
      if (!created.has(ref)) throw new Error(`internal: ${ref} has not created its object yet`);
      return created.get(ref);
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, created)]));
  }
  return value;
}

/** How far a change's ops got: the id its create answered, the last answer, how many ops are done. */
interface Progress {
  firstId: unknown;
  last: unknown;
  done: number;
  notes?: string[];
}

interface RunOptions {
  /** The index of the first op to send (the rest of a change whose create was found on the server). */
  from: number;
  abandon?: () => boolean;
  check?: (op: Op, answer: unknown) => void;
  /** The shape of the object a create's POST answers (Kind.shape): its id is reused, so it is checked first. */
  createShape?: Shape;
  /** What a redirect answered to an op means: the name was renamed since the plan read it (src/apply/renamed.ts). */
  redirected?: (op: Op, error: unknown) => Redirected | undefined;
}

/**
 * Runs one change's ops in order; `{id}` in a later path is the id the first answer carried. Only the
 * first request may be abandoned (`abandon`): once it is sent, the change is finished. An op that
 * expects the object unchanged (Op.expect) stops the change when `check` throws.
 */
async function runOps(client: GiteaClient, ops: Op[], created: Map<string, unknown>, progress: Progress, o: RunOptions): Promise<void> {
  for (let i = o.from; i < ops.length; i++) {
    const op = ops[i]!;
    const path = progress.firstId !== undefined ? op.path.replace('{id}', encodeURIComponent(String(progress.firstId))) : op.path;
    const body = op.body === undefined ? undefined : resolveRefs(op.body, created);
    const creating = op.method === 'POST' && progress.firstId === undefined;
    const shape = creating ? o.createShape : undefined;
    try {
      const res = await client.request(op.method, path, { ...(body !== undefined ? { body } : {}), ...(op.query ? { query: op.query } : {}), ...(i === 0 && o.abandon ? { abandon: o.abandon } : {}), ...(shape ? { shape } : {}), ...(op.idempotent ? { idempotent: true } : {}), ...(op.restsOn !== undefined ? { restsOn: op.restsOn } : {}) });
      progress.done = i + 1;
      if (op.expect) {
        o.check?.(op, res.data);
        continue;
      }
      progress.last = res.data;
      if (creating && res.data && typeof res.data === 'object' && 'id' in res.data) progress.firstId = createdId(op, path, res.data);
    } catch (e) {
      // What a DELETE asks for is the case: another run (or a human) deleted it first.
      if (op.method === 'DELETE' && isApiError(e, 404) && !op.onStatus?.['404']) {
        progress.done = i + 1;
        (progress.notes ??= []).push('it was already gone (deleted by another run or by hand)');
        continue;
      }
      const moved = o.redirected?.(op, e);
      if (moved?.note) {
        progress.done = i + 1;
        (progress.notes ??= []).push(moved.note);
        continue;
      }
      if (moved?.error) throw new Error(moved.error, { cause: e });
      const meaning = e instanceof ApiError && e.status !== undefined ? op.onStatus?.[String(e.status)] : undefined;
      if (meaning) throw new Error(`${meaning} (${(e as ApiError).message})`, { cause: e });
      throw e;
    }
  }
}

/** The id a create answered, reused in later requests: a positive integer, never coerced (answer.ts). */
function createdId(op: Op, path: string, data: object): unknown {
  const problem = shapeProblem(data, { id: 'id' });
  if (problem) throw wrongTypeError(op.method, path, data, problem);
  return (data as { id: unknown }).id;
}

/** Op.expect: the re-read object must still hold, in each named field, the change's `before` value (compared as the kind compares). */
function checkUnchanged(kind: ReadingKind | undefined, change: Change, op: Op, answer: unknown): void {
  const now = kind && answer && typeof answer === 'object' ? kind.fromServer(answer) : undefined;
  const moved = op.expect!.fields.some((name) => {
    const spec = kind?.fields.find((s) => s.name === name);
    const planned = plannedFields(change).find((f) => f.path === name);
    return !now || !spec || !planned || !equal(spec, now.fields[name], planned.before);
  });
  if (moved) throw new Error(op.expect!.message);
}

/**
 * The server may answer 2xx and still drop a value (users without access, gated flags): an inconsistent
 * result. A field the kind declares server-normalised (FieldSpec.readBack false: the write's answer is not
 * comparable with what was sent) is not compared.
 */
function compareReadBack(kind: ReadingKind, change: Change, intent: Intent, answer: unknown): string[] {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return [];
  // An answer not of the kind's shape (another object's, or wrong types) is not compared.
  if (kind.shape && shapeProblem(answer, kind.shape)) return [];
  const current = kind.fromServer(answer);
  const out: string[] = [];
  const desired = { key: change.key, fields: intent.fields, path: [] };
  for (const f of plannedFields(change)) {
    const spec = kind.fields.find((s) => s.name === f.path);
    if (!spec || spec.writeOnly || spec.sensitive || spec.readBack === false || f.writeOnly || !(f.path in current.fields)) continue;
    // The kind's own comparison where it has one (hook events are sent as written and stored expanded).
    const same = kind.compare?.(f.path, { desired, current, prepared: undefined });
    if (!(same ? same(f.after, current.fields[f.path]) : equal(spec, current.fields[f.path], f.after))) out.push(`${f.path}: sent ${JSON.stringify(f.after)}, server kept ${JSON.stringify(current.fields[f.path])}`);
  }
  return out;
}
