// Whether the users that other kinds' objects name exist (a branch protection's user lists, a
// repository's collaborators), looked up once per name for the whole plan: from the users the plan
// reads anyway when the config manages users, else one cached GET users/{name} per name.
import { isApiError } from '../../gitea/errors.js';
import { apiPath } from '../../gitea/path.js';
import type { Config } from '../../config/types.js';
import { SERVER_SCOPE, type ScopeContext } from '../../model/index.js';
import { userKind } from './index.js';

/** A named user: on the server, not there, or a name left by a rename (the server redirects it). */
export type AccountState = 'exists' | 'missing' | 'renamed';

/** What a lookup needs of the asking kind's request: its phase (with the config at plan time) and context. The kind lists userKind in `after`. */
export type UserLookupRequest = { phase: 'plan'; config: Config; ctx: ScopeContext } | { phase: 'apply'; ctx: ScopeContext };

const lc = (s: string) => s.toLowerCase();

/**
 * Whether the plan manages users: at plan time, the config has a users section; at apply, the saved
 * plan makes one of the users named (then its users are projected, and were read, already).
 */
function usersManaged(req: UserLookupRequest, names: Set<string>): boolean {
  if (req.phase === 'plan') return Boolean(req.config.users);
  return [...names].some((n) => req.ctx.madeBy(userKind, SERVER_SCOPE, n) !== undefined);
}

/**
 * The state of each named user (lower-cased name → state). Users the plan creates or renames into
 * existence count as existing; those it creates as new accounts (not renamed ones) are added to
 * `created` (a new account has no access to anything yet).
 */
export async function lookUpUsers(req: UserLookupRequest, names: Set<string>, created: Set<string> = new Set()): Promise<Map<string, AccountState>> {
  const { ctx } = req;
  const known = new Map<string, AccountState>();
  if (!names.size) return known;
  if (usersManaged(req, names)) {
    for (const u of await ctx.projected(userKind, SERVER_SCOPE)) {
      if (!u.madeBy) continue;
      known.set(lc(u.key), 'exists');
      if (typeof u.id === 'object') created.add(lc(u.key));
    }
    // The planner has read every user already for the users section: no request more.
    const all = new Set((await ctx.currentOf(userKind, SERVER_SCOPE)).map((u) => lc(u.key)));
    for (const n of names) if (!known.has(lc(n))) known.set(lc(n), all.has(lc(n)) ? 'exists' : 'missing');
    return known;
  }
  await Promise.all(
    [...names].map(async (n) => {
      if (known.has(lc(n))) return;
      try {
        await ctx.cachedGet(apiPath('users', lc(n)), { object: `user ${n}` });
        known.set(lc(n), 'exists');
      } catch (e) {
        if (isApiError(e, 404)) known.set(lc(n), 'missing');
        // A name left by a rename answers 307 to the new one.
        else if (isApiError(e) && e.status !== undefined && e.status >= 300 && e.status < 400) known.set(lc(n), 'renamed');
        else throw e;
      }
    }),
  );
  return known;
}
