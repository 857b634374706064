import { isApiError } from '../../gitea/errors.js';
import { apiPath } from '../../gitea/path.js';
import { serverHas, type Availability, type Reading, type ScopeContext } from '../../model/index.js';
import { nameSet } from '../team/fields.js';
import { fields } from './fields.js';
import type { PublicMembershipTypes, ServerPublicMembers } from './types.js';

export { fields } from './fields.js';

/**
 * Releases whose `GET /orgs/{org}/public_members` answers a site administrator every member, private ones
 * too: ListPublicMembers calls listMembers(ctx, false), and FindOrgMembersOpts.PublicOnly() is
 * `Doer == nil || !(IsDoerMember || Doer.IsAdmin)` (Gitea v1.23.8 routers/api/v1/org/member.go l.119,
 * models/organization/org.go l.198–200, from #32234; Forgejo v10.0.0 member.go l.119, org.go l.197–199, v11.0.15
 * l.197–199). Gitea 1.22 and Forgejo 7–9 pass PublicOnly: true (v1.22.6 member.go l.115; Forgejo v9.0.0 l.115).
 */
export const ADMIN_LIST_HAS_ALL: Availability = { gitea: { since: '1.23' }, forgejo: { since: '10' } };

/** The token's own user: its name and whether it is a site administrator (one memoised GET, shared with other kinds). */
export async function tokenUser(ctx: ScopeContext): Promise<{ self: string; admin: boolean }> {
  const me = await ctx.cachedGet<{ login?: string; is_admin?: boolean } | undefined>('user', { object: "the token's own user", shape: { login: 'string', is_admin: 'boolean?' } });
  return { self: String(me?.login ?? '').toLowerCase(), admin: me?.is_admin === true };
}

/** `GET /orgs/{org}/public_members/{user}` (IsPublicMember: 204 public, 404 not): exact for any token. */
async function isPublic(ctx: ScopeContext, org: string, user: string): Promise<boolean> {
  try {
    await ctx.client.get(apiPath('orgs', org, 'public_members', user), { object: `public membership of ${user} in ${org}` });
    return true;
  } catch (e) {
    if (isApiError(e, 404)) return false;
    throw e;
  }
}

function fromServer(r: ServerPublicMembers) {
  return { key: String(r.org), fields: { members: nameSet(r.members) } };
}

export const reading = {
  fields,

  /**
   * One paged list of the organisation's public members. Where a site administrator's list has every
   * member (ADMIN_LIST_HAS_ALL), each listed member is asked about on its own: the list is no answer there.
   */
  async read({ scope, ctx }) {
    const listed = await ctx.client.list<{ login: string }>(apiPath('orgs', scope.name, 'public_members'), { object: `public members of ${scope.name}`, shape: { login: 'string' } });
    let members = listed.map((u) => u.login);
    if (listed.length && ctx.server && serverHas(ctx.server, ADMIN_LIST_HAS_ALL) && (await tokenUser(ctx)).admin) {
      const checked = await Promise.all(members.map(async (m) => ((await isPublic(ctx, scope.name, m)) ? m : undefined)));
      members = checked.filter((m): m is string => m !== undefined);
    }
    return [fromServer({ org: scope.name, members })];
  },

  fromServer,
} satisfies Reading<PublicMembershipTypes>;
