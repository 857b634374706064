import type { Config, UserConfig } from '../../config/types.js';
import type { Change, CurrentObject, DesiredObject, KindContext, ScopeContext } from '../../model/index.js';

/** What the user read learnt for the guards: the token's own user and every user. */
interface UserFacts {
  self: string;
  users: CurrentObject[];
  /** The users by lower-case name, made when first asked (a new user's name checked against every other). */
  byLowerName?: Map<string, CurrentObject>;
}
export const factsOf = new WeakMap<ScopeContext, UserFacts>();

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

const isSelf = (name: string, ctx: ScopeContext) => {
  const self = factsOf.get(ctx)?.self;
  return Boolean(self) && lc(self!) === lc(name);
};

/** Why a user must never be deleted, demoted or deactivated (protected_users, the token's own user). */
function protectedBecause(name: string, ctx: ScopeContext): string | undefined {
  if (ctx.policy.protected_users.some((p) => lc(p) === lc(name))) return 'it is listed in policy.protected_users';
  if (isSelf(name, ctx)) return "it is the token's own user";
  return undefined;
}

/** Whether no other active site administrator is left, given which users survive as administrators. */
function isLastAdmin(name: string, ctx: ScopeContext, survivesAsAdmin: (u: CurrentObject) => boolean): boolean {
  const facts = factsOf.get(ctx);
  if (!facts) return false;
  return !facts.users.some((u) => u.key !== name && u.fields.admin === true && u.fields.active !== false && survivesAsAdmin(u));
}

const survivorsOf = new WeakMap<ScopeContext, (u: CurrentObject) => boolean>();

/** At plan time: who stays an administrator, as the config declares users (built once per plan: it is asked per user). */
export function survivorsByConfig(ctx: ScopeContext): (u: CurrentObject) => boolean {
  let survivors = survivorsOf.get(ctx);
  if (!survivors) survivorsOf.set(ctx, (survivors = buildSurvivorsByConfig(ctx)));
  return survivors;
}

function buildSurvivorsByConfig(ctx: ScopeContext): (u: CurrentObject) => boolean {
  const config: Config | undefined = (ctx as Partial<KindContext>).loaded?.config;
  const declared = config?.users ?? {};
  const renamedTo = new Map<string, UserConfig>();
  for (const u of Object.values(declared)) for (const old of u.previously ?? []) renamedTo.set(old, u);
  const pruning = ctx.policy.prune.includes('users');
  return (u) => {
    const decl = Object.hasOwn(declared, u.key) ? declared[u.key] : renamedTo.get(u.key);
    if (decl) return decl.admin !== false && decl.active !== false;
    return !pruning || protectedBecause(u.key, ctx) !== undefined;
  };
}

/** At apply time (and as the planner's second net): who stays an administrator, as the plan's changes leave them. */
export function survivorsByPlan(plan: Change[]): (u: CurrentObject) => boolean {
  const users = plan.filter((c) => c.kind === 'user');
  return (u) =>
    !users.some((c) => {
      const key = c.action === 'rename' ? c.from : c.key;
      if (key !== u.key) return false;
      const after = (f: string) => c.fields.find((x) => x.path === f && !x.context)?.after;
      return c.action === 'delete' || after('admin') === false || after('active') === false || after('prohibit_login') === true;
    });
}

export function guard(name: string, ctx: ScopeContext, admin: boolean, survivors: (u: CurrentObject) => boolean): string | undefined {
  return protectedBecause(name, ctx) ?? (admin && isLastAdmin(name, ctx, survivors) ? 'it is the last site administrator' : undefined);
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
export function selfMatters(ctx: ScopeContext, desired: DesiredObject[] | undefined, users: CurrentObject[]): boolean {
  if (ctx.policy.prune.includes('users')) return true;
  const admins = new Set(users.filter((u) => u.fields.admin === true).map((u) => lc(u.key)));
  return (desired ?? []).some(
    (d) => [d.key, ...(d.previously ?? [])].some((k) => admins.has(lc(k))) && GUARDED_EDITS.some((g) => d.fields[g.field] === g.value),
  );
}

export function editRefusals(name: string, want: Record<string, unknown>, was: Record<string, unknown>, ctx: ScopeContext, survivors: (u: CurrentObject) => boolean): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  for (const g of GUARDED_EDITS) {
    if (!(g.field in want) || want[g.field] !== g.value || (g.when && !g.when(was))) continue;
    const why = g.selfOnly ? (isSelf(name, ctx) ? "it is the token's own user: forgeform could not use the API any more" : undefined) : guard(name, ctx, g.adminMatters(was), survivors);
    if (why) out.push({ field: g.field, message: `forgeform never ${g.what} this user: ${why}` });
  }
  return out;
}
