// apply PLANFILE: the file's changes say what to do; nothing else in it is trusted. Each change's
// requests are built again through its kind from what the change shows and the server as it is now,
// and safety is decided again (src/plan/safety.ts) from the changes and the server.
import { isDeepStrictEqual } from 'node:util';
import { isApiError, type GiteaClient } from '../gitea/client.js';
import { scopeCreationIds, type CurrentObject, type Diagnostic, type DesiredObject, type Kind, type Scope, type ServerInfo } from '../model/index.js';
import { dependenciesOf, opsOf, type OpsBase } from '../plan/change-ops.js';
import { objectDigest } from '../plan/digest.js';
import { makeScopeContext } from '../plan/planner.js';
import { assessSavedPlan, type SafetyVerdict } from '../plan/safety.js';
import type { Change, Plan } from '../model/index.js';
import { scopeNow } from '../scopes/now.js';
import { isSecret } from '../secret.js';
import { summaryOf } from './plan-shape.js';

export interface VerifiedPlan {
  /** The plan as apply will run it: recomputed requests, notes, summary and unsafe reasons. */
  plan: Plan;
  /** Changes that will not run (stale plan), with the reason. */
  refused: Map<string, string>;
  /** Changes whose file requests differ from what they show: the whole plan is refused. */
  mismatches: Diagnostic[];
  verdict: SafetyVerdict;
}

interface Group {
  kind: Kind;
  scope: Scope;
  changes: Change[];
  current: CurrentObject[];
  prepared?: unknown;
}

/** A saved plan, checked against the server as it is now and rebuilt through the kinds. */
export async function verifySavedPlan(plan: Plan, client: GiteaClient, kinds: Kind[], server?: ServerInfo): Promise<VerifiedPlan> {
  const ctx = makeScopeContext(client, plan.policy, {}, server);
  const refused = new Map<string, string>();
  const mismatches: Diagnostic[] = [];
  const kindOf = (name: string) => kinds.find((k) => k.name === name)!;
  const planned = new Set(plan.changes.map((c) => c.id));
  const creationId = scopeCreationIds(kinds);

  // One group per kind and scope, in the order kinds are planned (issues see the labels planned before them).
  const groups: Group[] = [];
  for (const kind of kinds) {
    const byScope = new Map<string, Change[]>();
    for (const c of plan.changes.filter((c) => c.kind === kind.name)) byScope.set(c.scope, [...(byScope.get(c.scope) ?? []), c]);
    for (const [id, changes] of byScope) groups.push({ kind, scope: await scopeNow(id, planned, ctx, creationId), changes, current: [] });
  }

  // The same reads as plan: each touched scope once; kinds that read only named objects are told which.
  await Promise.all(
    groups.map(async (g) => {
      if (g.scope.pendingCreate) return;
      try {
        g.current = await ctx.currentOf(g.kind, g.scope, g.changes.map((c) => desiredOf(c, c.from ?? c.key)));
      } catch (e) {
        // A repository or organisation the plan creates first does not exist yet: nothing is in it.
        if (!isApiError(e, 404)) throw e;
      }
    }),
  );

  const existing = new Map<string, number>();
  const nowOf = new Map<string, CurrentObject | undefined>();
  for (const g of groups) {
    existing.set(`${g.kind.name} ${g.changes[0]!.scope}`, g.current.length);
    // A create may take the name a rename of this plan frees (it waits for that rename): the object still under
    // that name is the one being renamed, not a conflict.
    const freed = new Set(g.changes.filter((r) => r.action === 'rename').map((r) => r.from!));
    for (const c of g.changes) {
      const key = c.action === 'rename' ? c.from! : c.key;
      const matches = c.action === 'create' && freed.has(key) ? [] : g.current.filter((o) => o.key === key);
      // Copies of one name: a delete names its copy by id; any other change is for the copy the plan read (its digest holds the id).
      const now =
        matches.length < 2 ? matches[0] : c.action === 'delete' ? matches.find((o) => c.id.endsWith(`#${o.id}`)) : (matches.find((o) => objectDigest(o, g.kind.guardedByServer) === c.precondition.digest) ?? matches[0]);
      nowOf.set(c.id, now);
      const digest = now ? objectDigest(now, g.kind.guardedByServer) : null;
      if (digest !== c.precondition.digest)
        refused.set(
          c.id,
          now
            ? c.precondition.digest
              ? 'changed on the server since the plan was made (stale plan): plan again'
              : 'exists on the server since the plan was made (stale plan): plan again'
            : 'no longer exists on the server (stale plan): plan again',
        );
      else if (c.action === 'delete' && !plan.policy.prune.includes(g.kind.pruneKey)) mismatches.push({ resource: c.id, message: `deletes a ${g.kind.title}, but the plan's policy.prune does not list ${g.kind.pruneKey}` });
    }
  }

  const rebuilt = new Map<string, Change>();
  for (const g of groups) {
    const live = g.changes.filter((c) => !refused.has(c.id));
    if (g.kind.prepare && live.length) g.prepared = await g.kind.prepare(g.scope, live.map((c) => desiredOf(c, c.key)), g.current, ctx);
    const readOnly = g.kind.readOnlyReason?.(g.scope);
    const out: Change[] = [];
    for (const c of g.changes) {
      if (refused.has(c.id)) {
        out.push(c);
        continue;
      }
      if (readOnly) refused.set(c.id, readOnly);
      const now = nowOf.get(c.id);
      const base: OpsBase = { scope: g.scope, ...(now ? { current: now } : {}), ctx, prepared: g.prepared };
      let ops;
      try {
        ops = opsOf(g.kind, c, base);
      } catch (e) {
        mismatches.push({ resource: c.id, message: `its requests cannot be built from what it shows (${(e as Error).message})` });
        out.push(c);
        continue;
      }
      if (!isDeepStrictEqual(plain(ops), plain(c.ops))) mismatches.push({ resource: c.id, message: 'the requests in the plan file differ from what the change shows, built against the server as it is now (the file was edited, or what the change refers to moved on)' });
      const deps = dependenciesOf(g.kind, c, ops, base);
      const freeing = g.changes.find((r) => c.action === 'create' && r.action === 'rename' && r.from === c.key);
      if (freeing) deps.push(freeing.id);
      if (!isDeepStrictEqual([...new Set(deps)].sort(), [...new Set(c.depends_on)].sort())) mismatches.push({ resource: c.id, message: `depends_on in the plan file differs from what the change needs (${deps.join(', ') || 'nothing'})` });
      out.push({ ...c, ops, depends_on: [...new Set(deps)] });
    }
    ctx.recordPlanned(g.kind.name, g.scope, out);
    for (const c of out) rebuilt.set(c.id, c);
  }

  // Facts again, from the server as it is now: a label put on an issue since the plan makes its deletion stale.
  const affects: { change: Change; count: number; what: string }[] = [];
  for (const g of groups) {
    if (!g.kind.annotate) continue;
    await Promise.all(
      g.changes.map(async (orig) => {
        const c = rebuilt.get(orig.id)!;
        const facts = await g.kind.annotate!(c, g.scope, ctx).catch((e: unknown) => {
          if (!refused.has(c.id)) refused.set(c.id, `cannot tell what this ${c.action} affects now: ${(e as Error).message}`);
          return undefined;
        });
        const notes = facts?.notes ?? [];
        rebuilt.set(c.id, { ...c, ...(notes.length ? { notes } : { notes: undefined }) });
        if (!facts?.affects || refused.has(c.id)) return;
        const then = c.precondition.affects ?? 0;
        if (facts.affects.count !== then) refused.set(c.id, `${g.kind.title} "${c.key}" ${facts.affects.what} now, ${then} when the plan was made (stale plan): plan again`);
        else affects.push({ change: rebuilt.get(c.id)!, ...facts.affects });
      }),
    );
  }

  const changes = plan.changes.map((c) => {
    const r = rebuilt.get(c.id)!;
    if (r.notes === undefined) delete r.notes;
    return r;
  });
  const live = changes.filter((c) => !refused.has(c.id));
  const guards = live.flatMap((c) => {
    const reason = kindOf(c.kind).guard?.(c, nowOf.get(c.id), ctx, live);
    return reason ? [{ change: c, reason }] : [];
  });
  const verdict = assessSavedPlan({ changes: live, existing, affects, guards, title: (k) => kindOf(k).title }, plan.policy);
  return { plan: { ...plan, summary: summaryOf(changes), unsafe: [...verdict.unsafe, ...verdict.forbidden], changes }, refused, mismatches, verdict };
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
