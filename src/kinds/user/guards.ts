import type { UserConfig } from '../../config/types.js';
import { intentOf, type AnyRequest, type Change, type CurrentObject, type DesiredObject, type PlanPolicy } from '../../model/index.js';
import type { UserFacts, UserRun, UserTypes } from './types.js';


export function runState(): UserRun {
  return {};
}

/** What a guard judges with: the plan's policy and the facts (absent: not looked up, and every guard then refuses). */
export interface GuardFacts {
  policy: PlanPolicy;
  /** The users' prune key (policy.prune names it when undeclared users are deleted). */
  pruneKey: string;
  facts: UserFacts | undefined;
}

/** What the guards judge with: the policy and the users read (by prepare, for this run). */
export function guardFacts(req: AnyRequest<UserTypes>): GuardFacts {
  return { policy: req.ctx.policy, pruneKey: req.self.pruneKey, facts: req.run.facts };
}

/** Why a guard refuses when the users were not read: it cannot tell, so it does not allow (fail closed). */
const UNKNOWN = 'forgeform could not read the users, so it cannot tell what this would do to the site administrators and the token\'s own user';

const lc = (s: string) => s.toLowerCase();

/** The first user read whose name is `name` but for case (user names are case-insensitive). */
export function userNamed(facts: UserFacts | undefined, name: string): CurrentObject | undefined {
  if (!facts) return undefined;
  if (!facts.byLowerName) {
    facts.byLowerName = new Map();
    for (const u of facts.users) if (!facts.byLowerName.has(lc(u.key))) facts.byLowerName.set(lc(u.key), u);
  }
  return facts.byLowerName.get(lc(name));
}

/** Whether `name` is the token's own user; undefined when the facts are missing. */
function isSelf(name: string, g: GuardFacts): boolean | undefined {
  if (!g.facts) return undefined;
  return g.facts.self !== '' && lc(g.facts.self) === lc(name);
}

/** Why a user must never be deleted, demoted or deactivated (protected_users, the token's own user). */
function protectedBecause(name: string, g: GuardFacts): string | undefined {
  if (g.policy.protected_users.some((p) => lc(p) === lc(name))) return 'it is listed in policy.protected_users';
  const self = isSelf(name, g);
  if (self === undefined) return UNKNOWN;
  if (self) return "it is the token's own user";
  return undefined;
}

/** Whether no other active site administrator is left, given which users survive as administrators; undefined when the facts are missing. */
function isLastAdmin(name: string, g: GuardFacts, survivesAsAdmin: (u: CurrentObject) => boolean): boolean | undefined {
  if (!g.facts) return undefined;
  return !g.facts.users.some((u) => u.key !== name && u.fields.admin === true && u.fields.active !== false && survivesAsAdmin(u));
}

/** At plan time: who stays an administrator, as the config declares users. */
export function survivorsByConfig(declared: Record<string, UserConfig>, g: GuardFacts): (u: CurrentObject) => boolean {
  const renamedTo = new Map<string, UserConfig>();
  for (const u of Object.values(declared)) for (const old of u.previously ?? []) renamedTo.set(old, u);
  const pruning = g.policy.prune.includes(g.pruneKey);
  return (u) => {
    const decl = Object.hasOwn(declared, u.key) ? declared[u.key] : renamedTo.get(u.key);
    if (decl) return decl.admin !== false && decl.active !== false;
    return !pruning || protectedBecause(u.key, g) !== undefined;
  };
}

/** At apply time (and as the planner's second net): who stays an administrator, as the plan's changes (of the user kind, `kind`) leave them. */
export function survivorsByPlan(plan: Change[], kind: string): (u: CurrentObject) => boolean {
  // Each user change with what it means, derived once (the survivors are asked per user).
  const users = plan.filter((c) => c.kind === kind).map((c) => ({ action: c.action, key: c.key, intent: intentOf(c) }));
  return (u) =>
    !users.some(({ action, key, intent }) => {
      // A rename's object is the user under its old name.
      if ((intent.from ?? key) !== u.key) return false;
      const after = intent.fields;
      return action === 'delete' || after.admin === false || after.active === false || after.prohibit_login === true;
    });
}

export function guard(name: string, g: GuardFacts, admin: boolean, survivors: (u: CurrentObject) => boolean): string | undefined {
  const reason = protectedBecause(name, g);
  if (reason || !admin) return reason;
  const last = isLastAdmin(name, g, survivors);
  if (last === undefined) return UNKNOWN;
  return last ? 'it is the last site administrator' : undefined;
}

/**
 * The guarded edits of a user (field, planned value → what it would do), as one table for plan and apply.
 * must_change_password on the token's own user locks forgeform (and the admin) out of the API.
 */
const GUARDED_EDITS: { field: string; value: unknown; what: string; selfOnly?: boolean; when?: (was: Record<string, unknown>) => boolean; adminMatters: (was: Record<string, unknown>) => boolean }[] = [
  { field: 'admin', value: false, what: 'demotes', when: (was) => was.admin === true, adminMatters: () => true },
  { field: 'active', value: false, what: 'deactivates', when: (was) => was.active !== false, adminMatters: (was) => was.admin === true },
  { field: 'prohibit_login', value: true, what: 'prohibits sign-in for', when: (was) => was.prohibit_login !== true, adminMatters: (was) => was.admin === true },
  { field: 'must_change_password', value: true, what: 'sets must_change_password on', selfOnly: true, adminMatters: () => false },
];

/**
 * Whether a guard may ask who the token's own user is. The token reads admin/users, so its user is
 * a site administrator: only a deletion (users pruned) or a guarded edit of a current administrator
 * can touch it. Any other plan spares GET /user (issue 12: plan requests = the floor).
 */
export function selfMatters(pruning: boolean, desired: DesiredObject[], users: CurrentObject[]): boolean {
  if (pruning) return true;
  const admins = new Set(users.filter((u) => u.fields.admin === true).map((u) => lc(u.key)));
  return desired.some((d) => [d.key, ...(d.previously ?? [])].some((k) => admins.has(lc(k))) && GUARDED_EDITS.some((gd) => d.fields[gd.field] === gd.value));
}

/** A selfOnly edit: refused on the token's own user, and where it is not known whether it is. */
function selfOnlyRefusal(name: string, g: GuardFacts): string | undefined {
  const self = isSelf(name, g);
  if (self === undefined) return UNKNOWN;
  return self ? "it is the token's own user: forgeform could not use the API any more" : undefined;
}

export function editRefusals(name: string, want: Record<string, unknown>, was: Record<string, unknown>, g: GuardFacts, survivors: (u: CurrentObject) => boolean): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  for (const gd of GUARDED_EDITS) {
    if (!(gd.field in want) || want[gd.field] !== gd.value || (gd.when && !gd.when(was))) continue;
    const why = gd.selfOnly ? selfOnlyRefusal(name, g) : guard(name, g, gd.adminMatters(was), survivors);
    if (why) out.push({ field: gd.field, message: `forgeform never ${gd.what} this user: ${why}` });
  }
  return out;
}
