/**
 * `GET /users/{username}` (one account: what a client needs to check names in branch-protection
 * lists before it writes them; teams: domains/teams/) and `GET /user/orgs`. Upstream:
 * `routers/api/v1/user/user.go` GetInfo (404 for an account the caller may not see) and
 * `org.ListMyOrgs` (the organisations the caller is a member of, private ones included), which a
 * client without site-admin rights uses to find what it can read.
 */
import { reqToken, scope } from '../../http/auth.js';
import { notFound, userAssignment } from '../../http/checks.js';
import { forUser, type SignedInContext, signedIn } from '../../http/context.js';
import { listOptions, paginate, setLinkHeader, setTotalCountHeader } from '../../http/paging.js';
import { json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { isOrgMember, orgVisibleTo, userVisibleTo } from '../../core/permissions.js';
import { orgAsUser, toOrganization } from '../orgs/convert.js';
import { toUser } from './convert.js';

function listMyOrgs(ctx: SignedInContext): Response {
  const doer = ctx.doer;
  const orgs = ctx.state.data.orgs.filter((o) => isOrgMember(ctx.state, o, doer.id)).sort((a, b) => a.id - b.id);
  const opts = listOptions(ctx);
  setLinkHeader(ctx, orgs.length, opts.pageSize);
  setTotalCountHeader(ctx, orgs.length);
  return json(200, paginate(orgs, opts).map((o) => toOrganization(ctx, o)));
}

export function registerUserInfoRoutes(r: ApiRouter): void {
  r.on('GET', '/user/orgs', scope('organization'), reqToken, signedIn(listMyOrgs));
  r.on('GET', '/users/:username', scope('user'), userAssignment, forUser((ctx) => {
    const owner = ctx.contextUser;
    if (owner.kind === 'user') return userVisibleTo(owner.user, ctx.doer) ? json(200, toUser(ctx, owner.user, ctx.doer)) : notFound(ctx);
    return orgVisibleTo(ctx.state, owner.org, ctx.doer) ? json(200, orgAsUser(ctx, owner.org, ctx.doer !== null)) : notFound(ctx);
  }));
}
