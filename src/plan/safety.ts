// Every safety rule of forgeform, in one place, used by plan and by apply alike. Kinds never decide
// safety: they report facts (what a change affects, why a change is guarded), and the rules here turn
// the facts and the policy into reasons. octoDNS works the same way (its Plan owns the thresholds).
import type { Config } from '../config/types.js';
import type { Change, KindMeta, PlanPolicy } from '../model/index.js';
import { inert, quote } from '../inert.js';

/** The policy when the config says nothing: a saved plan can never be looser than this without --force. */
export const DEFAULT_POLICY: Readonly<Pick<PlanPolicy, 'max_deletes' | 'max_delete_fraction'>> = { max_deletes: 10, max_delete_fraction: 0.3 };
/** max_delete_fraction applies to a kind in a scope only from this many existing objects on. */
export const FRACTION_FROM = 10;

/** The entries of `policy` the engine itself reads; every other one is a kind's (KindMeta.policy). */
export const ENGINE_POLICY_KEYS = ['prune', 'max_deletes', 'max_delete_fraction', 'apply_lock'];

/** The policy a plan is made with: the config's, defaults filled in, the kinds' own entries included. */
export function policyOf(config: Config | undefined, kinds: readonly KindMeta[] = []): PlanPolicy {
  const p = config?.policy ?? {};
  const engine = {
    prune: [...(p.prune ?? [])],
    max_deletes: p.max_deletes ?? DEFAULT_POLICY.max_deletes,
    max_delete_fraction: p.max_delete_fraction ?? DEFAULT_POLICY.max_delete_fraction,
    // Only when named: a plan made with the default lock says nothing of it.
    ...(p.apply_lock !== undefined ? { apply_lock: p.apply_lock } : {}),
  };
  const declared: Record<string, unknown> = { ...p };
  const own = kinds.flatMap((k) => Object.entries(k.policy ?? {})).map(([key, entry]) => [key, structuredClone(entry.is(declared[key]) ? declared[key] : entry.default)]);
  // The kinds' entries are typed by the kinds that own them (each augments PlanPolicy with its own).
  return { ...engine, ...Object.fromEntries(own) } as PlanPolicy;
}

/** What the kinds and the server said about the changes of a plan. */
export interface SafetyFacts {
  changes: Change[];
  /** How many objects of a kind a scope holds on the server, keyed by `${kind} ${scope}`. */
  existing: Map<string, number>;
  /** Changes that alter other objects (a deleted label taken off issues). */
  affects: { change: Change; count: number; what: string }[];
  /** Changes a guard forbids (never liftable, not even with --force). */
  guards: { change: Change; reason: string }[];
  /** Human names: kind title, scope label. */
  title(kind: string): string;
}

export interface SafetyVerdict {
  /** Reasons that make the plan unsafe: plan exits 3, apply refuses them without --force. */
  unsafe: string[];
  /** Reasons no flag lifts. */
  forbidden: string[];
}

const where = (scope: string) => (scope === 'server:' ? '' : ` in ${scope.slice(scope.indexOf(':') + 1)}`);

/** Deletion thresholds, per plan (max_deletes) and per kind and scope (max_delete_fraction). */
function deletionReasons(facts: SafetyFacts, limits: Pick<PlanPolicy, 'max_deletes' | 'max_delete_fraction'>, source: (field: string) => string): string[] {
  const out: string[] = [];
  const deletes = facts.changes.filter((c) => c.action === 'delete');
  if (deletes.length > limits.max_deletes) out.push(`${deletes.length} deletions planned, more than ${source('max_deletes')} (${limits.max_deletes})`);
  const perScope = new Map<string, Change[]>();
  for (const c of deletes) perScope.set(`${c.kind} ${c.scope}`, [...(perScope.get(`${c.kind} ${c.scope}`) ?? []), c]);
  for (const [id, list] of perScope) {
    const existing = facts.existing.get(id) ?? 0;
    if (existing < FRACTION_FROM || list.length <= limits.max_delete_fraction * existing) continue;
    const { kind, scope } = list[0]!;
    out.push(
      `${list.length} of the ${existing} ${facts.title(kind)}s${where(scope)} deleted (${Math.round((100 * list.length) / existing)}%), more than ${source('max_delete_fraction')} (${limits.max_delete_fraction})`,
    );
  }
  return out;
}

/** The safety of a plan under a policy. */
export function assessSafety(facts: SafetyFacts, policy: PlanPolicy): SafetyVerdict {
  const unsafe = deletionReasons(facts, policy, (f) => `policy.${f}`);
  for (const a of facts.affects) if (a.count > 0) unsafe.push(`${facts.title(a.change.kind)} ${quote(a.change.key)}${where(a.change.scope)} ${a.what}`);
  const forbidden = facts.guards.map((g) => `${facts.title(g.change.kind)} ${quote(g.change.key)}${where(g.change.scope)}: ${inert(g.reason)}`);
  return { unsafe, forbidden };
}

/**
 * At apply time the policy comes from the plan file, which anyone may have edited. It is honoured
 * where it is stricter than the defaults; where it is looser, the plan must also pass the defaults,
 * or apply needs --force (see docs/safety.md).
 */
export function assessSavedPlan(facts: SafetyFacts, filePolicy: PlanPolicy): SafetyVerdict {
  const verdict = assessSafety(facts, filePolicy);
  type Limit = keyof typeof DEFAULT_POLICY;
  const looser = (f: Limit) => filePolicy[f] > DEFAULT_POLICY[f];
  const strictest = { max_deletes: Math.min(filePolicy.max_deletes, DEFAULT_POLICY.max_deletes), max_delete_fraction: Math.min(filePolicy.max_delete_fraction, DEFAULT_POLICY.max_delete_fraction) };
  const extra = deletionReasons(facts, strictest, (f) => (looser(f as Limit) ? `the default ${f}` : `policy.${f}`))
    .filter((r) => !verdict.unsafe.includes(r))
    .map((r) => `${r}; the plan file's policy is looser, and a saved plan cannot loosen safety`);
  return { unsafe: [...verdict.unsafe, ...extra], forbidden: verdict.forbidden };
}

/** The policy as the rendered plan shows it, so that an edit of a saved plan's policy is visible. */
export function describePolicy(p: PlanPolicy): string {
  const value = (v: unknown) => (Array.isArray(v) ? `[${v.join(', ')}]` : String(v));
  // The kinds' own entries follow the engine's, as the plan holds them.
  const own = Object.entries(p).filter(([key]) => !ENGINE_POLICY_KEYS.includes(key));
  const lock = p.apply_lock !== undefined ? [`apply_lock ${p.apply_lock}`] : [];
  return [`prune ${value(p.prune)}`, `max_deletes ${p.max_deletes}`, `max_delete_fraction ${p.max_delete_fraction}`, ...lock, ...own.map(([key, v]) => `${key} ${value(v)}`)].join(', ');
}
