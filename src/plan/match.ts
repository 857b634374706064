// The planner's match step: which server object each declared object stands for, by identity (its
// key), by `previously` (a rename), or by the kind's choice among several objects of one name.
import { planRequest, type CurrentObject, type DesiredObject } from '../model/index.js';
import { resourceOf, sourceOfScopePath, type Planning, type ScopePlan } from './planning.js';
import { quote } from '../inert.js';

/** A declared object and the server object it stands for. */
export interface Match {
  desired: DesiredObject;
  current?: CurrentObject;
  /** The old name, when the server object is renamed to the declared one. */
  from?: string;
  /** Copies of the declared name that are deleted (under policy.prune). */
  remove: CurrentObject[];
  /** No copy can stand for the declared object: it is left alone. */
  undecided?: boolean;
}

/**
 * `previously` must name one object unambiguously, or the plan would rename the wrong one (or none).
 * Both names on the server is the converged state when the old name is declared as an object of its own.
 */
export function checkPreviously(p: Planning, sp: ScopePlan): void {
  const { kind, scope, rs, byKey } = sp;
  const at = (d: DesiredObject) => sourceOfScopePath(p.ctx.loaded, rs, [...d.path, 'previously']);
  const claimed = new Map<string, DesiredObject>();
  const declared = new Set(sp.desired.map((o) => o.key));
  for (const d of sp.desired) {
    for (const old of d.previously ?? []) {
      const other = claimed.get(old);
      if (other && other !== d) {
        p.errors.push({ message: `${resourceOf(kind, d.key, scope)}: previously names "${old}", which ${kind.title} "${other.key}" also claims: only one object can be renamed from it`, location: at(d) });
        p.errors.push({ message: `${resourceOf(kind, other.key, scope)}: previously names "${old}", which ${kind.title} "${d.key}" also claims`, location: at(other) });
      }
      claimed.set(old, d);
      if (old !== d.key && byKey.has(old) && byKey.has(d.key) && !declared.has(old))
        p.errors.push({
          message: `${resourceOf(kind, d.key, scope)}: both "${old}" (named in previously) and "${d.key}" exist on the server, so forgeform cannot rename one into the other: delete one of them, or remove "${old}" from previously`,
          location: at(d),
        });
    }
  }
}

/** A rename frees its old name: a declared object of that name is then a new one, not the renamed one. */
export function renamedAway(sp: ScopePlan): Set<CurrentObject> {
  const out = new Set<CurrentObject>();
  for (const d of sp.desired) {
    if (sp.byKey.has(d.key)) continue;
    const old = (d.previously ?? []).find((o) => sp.byKey.has(o));
    const olds = old === undefined ? [] : sp.byKey.get(old)!;
    if (olds.length === 1) out.add(olds[0]!);
  }
  return out;
}

/**
 * The server object a declared object stands for: the one of its name, a chosen copy, or the one it
 * renames. Only copies of one name need the kind (and may need a read): the rest is decided at once,
 * without a promise per declared object.
 */
export function matchOne(p: Planning, sp: ScopePlan, d: DesiredObject): Match | Promise<Match> {
  const matches = (sp.byKey.get(d.key) ?? []).filter((m) => !sp.renamedAway.has(m));
  if (matches.length > 1) return matchCopies(p, sp, d, matches).then((m) => settled(p, sp, d, m));
  return settled(p, sp, d, { desired: d, remove: [], ...(matches[0] ? { current: matches[0] } : {}) });
}

async function matchCopies(p: Planning, sp: ScopePlan, d: DesiredObject, matches: CurrentObject[]): Promise<Match> {
  matches.forEach((m) => sp.consumed.add(m));
  const dup = await resolveDuplicates(p, sp, d, matches);
  if (dup.message) (dup.drift ? p.drift : p.warnings).push(`${resourceOf(sp.kind, d.key, sp.scope)}: ${dup.message}`);
  return { desired: d, remove: dup.remove, ...(dup.keep ? { current: dup.keep } : { undecided: true }) };
}

/** Without a server object of its name, the one it renames; the object found is taken (not pruned). */
function settled(p: Planning, sp: ScopePlan, d: DesiredObject, match: Match): Match {
  if (!match.current && !match.undecided) match = { ...match, ...renameSource(p, sp, d) };
  if (match.current) sp.consumed.add(match.current);
  return match;
}

/** The object `previously` names, when exactly one of that name is left. */
function renameSource(p: Planning, sp: ScopePlan, d: DesiredObject): { current?: CurrentObject; from?: string } {
  for (const old of d.previously ?? []) {
    const olds = (sp.byKey.get(old) ?? []).filter((o) => !sp.consumed.has(o));
    if (olds.length > 1) {
      p.warnings.push(`${resourceOf(sp.kind, old, sp.scope)}: ${olds.length} objects with this name exist; forgeform does not rename any of them to ${quote(d.key)}`);
      olds.forEach((o) => sp.consumed.add(o));
      return {};
    }
    if (olds.length === 1) return { current: olds[0]!, from: old };
  }
  return {};
}

/**
 * Several server objects carry one declared name: the kind picks the one that is the declared object
 * and those that may go (deleted under policy.prune, else named with what prune would do). A kind that
 * cannot tell, or a scope it cannot read, leaves them all untouched and named.
 */
async function resolveDuplicates(p: Planning, sp: ScopePlan, d: DesiredObject, matches: CurrentObject[]): Promise<{ keep?: CurrentObject; remove: CurrentObject[]; message?: string; drift: boolean }> {
  const { kind, scope } = sp;
  if (!kind.resolveDuplicates) return { remove: [], message: `${matches.length} objects with this name exist on the server; forgeform changes none of them`, drift: true };
  let dup;
  try {
    dup = await kind.resolveDuplicates({ ...planRequest(kind, scope, p.ctx), desired: d, matches });
  } catch (e) {
    p.errors.push({ message: `${resourceOf(kind, d.key, scope)}: ${matches.length} objects with this name exist on the server, and forgeform cannot tell which to keep: ${(e as Error).message}` });
    return { remove: [], drift: false };
  }
  if (p.ctx.policy.prune.includes(kind.pruneKey) || !dup.remove.length) return { ...dup, drift: !dup.keep };
  const ids = dup.remove.map((r) => `id ${r.id}`).join(', ');
  return { ...(dup.keep ? { keep: dup.keep } : {}), remove: [], message: `${dup.message}; policy.prune: [${kind.pruneKey}] would delete ${ids}`, drift: true };
}
