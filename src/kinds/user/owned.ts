// A user who owns repositories is not deleted by Gitea without ?purge=true: services/user/user.go DeleteUser
// (v1.25.4 l.217–223: CountRepositories(OwnerID) > 0 → ErrUserOwnRepos, checked inside the delete's
// transaction) answered 422 by the admin route (routers/api/v1/admin/user.go DeleteUser). A plan that prunes
// such a user would fail at apply on what it could know: it keeps the user, and says why. One GET of the
// user's repositories (the first one is enough) per user the plan would prune; none without users in
// policy.prune, with policy.purge_users, or for a user the guards keep anyway.
import { apiPath } from '../../gitea/path.js';
import type { CurrentObject, PlanPolicy, ScopeContext } from '../../model/index.js';

const lc = (s: string) => s.toLowerCase();

/** Why each user the plan would prune cannot be deleted (lower-case name → why): the repositories it owns. */
export async function ownersOfRepositories(ctx: ScopeContext, policy: PlanPolicy, pruneKey: string, undeclared: CurrentObject[], self: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!policy.prune.includes(pruneKey) || policy.purge_users) return out;
  const kept = new Set([...policy.protected_users, self].map(lc));
  await Promise.all(
    undeclared
      .filter((u) => !kept.has(lc(u.key)))
      .map(async (u) => {
        const { data: repos, headers } = await ctx.client.request<{ full_name?: unknown }[]>('GET', apiPath('users', u.key, 'repos'), { expect: 'list', query: { limit: 1 }, object: `repositories of user ${u.key}`, shape: { full_name: 'string' } });
        if (!repos.length) return;
        // X-Total-Count (every release sets it on this list) says how many; the first one names them.
        const total = Number(headers.get('x-total-count') ?? repos.length);
        const which = total > 1 ? `${total} repositories, ${String(repos[0]?.full_name)} among them` : `repository ${String(repos[0]?.full_name)}`;
        out.set(lc(u.key), `it owns ${which}, and Gitea refuses to delete a user who owns repositories (422 "user still has ownership of repositories"): move or delete them first, or set policy.purge_users: true to delete it with them`);
      }),
  );
  return out;
}
