/**
 * Organisation members and their public membership (`routers/api/v1/org/member.go`):
 *
 * - `GET /orgs/{org}/members` (token): every member for a member or a site administrator, the public
 *   ones otherwise; paged, `X-Total-Count`;
 * - `GET /orgs/{org}/public_members` (no token needed): the public members, but every member for a site
 *   administrator from Gitea 1.23 and Forgejo 10 (`PublicOnly()` of FindOrgMembersOpts); paged;
 * - `GET /orgs/{org}/public_members/{user}`: 204 public, 404 not;
 * - `PUT`/`DELETE …/public_members/{user}` (token, `reqOrgMembership`: a member or a site administrator,
 *   else 403): only the user themself (403 "Cannot publicize another member"), or from Gitea 1.24 also a
 *   site administrator or an owner (403 "Cannot change member visibility"); a user who is no member: 204,
 *   nothing changed (`ChangeOrgUserStatus` finds no row).
 */
import { reqToken, scope } from '../../http/auth.js';
import { notFound, orgAssignment, reqOrgMembership, userAssignment } from '../../http/checks.js';
import { type ApiContext, inOrg, type OrgContext, type SignedInContext, signedIn, type Step } from '../../http/context.js';
import { listOptions, paginate, setTotalCountHeader } from '../../http/paging.js';
import { apiError, empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { isOrgMember, isOrgOwner } from '../../core/permissions.js';
import type { UserRecord } from '../../core/state.js';
import { hasQuirk } from '../../flavours/releases.js';
import { toUser } from '../users/convert.js';
import { isPublicMember, orgMembers, setPublic } from './records.js';

/** `listMembers`: the members, all or the public ones, paged, with the total. */
function list(ctx: OrgContext, publicOnly: boolean): Response {
  const org = ctx.org;
  const members = orgMembers(ctx.state, org).filter((u) => !publicOnly || isPublicMember(ctx.state, org, u.id));
  setTotalCountHeader(ctx, members.length);
  return json(200, paginate(members, listOptions(ctx)).map((u) => toUser(ctx, u, ctx.doer)));
}

/** The `{username}` of the route as a user (`GetUserByParams`). */
function target(ctx: ApiContext): UserRecord | Response {
  const owner = ctx.contextUser;
  return owner?.kind === 'user' ? owner.user : notFound(ctx);
}

/** Who may change the target's flag, as the release checks it. */
function mayChange(ctx: OrgContext & SignedInContext, user: UserRecord, verb: 'publicize' | 'conceal'): Response | undefined {
  const doer = ctx.doer;
  if (user.id === doer.id) return undefined;
  if (!hasQuirk(ctx.flavour, 'orgMemberStatusByAdmins')) return apiError(ctx.root, 403, `Cannot ${verb} another member`);
  if (doer.isAdmin || isOrgOwner(ctx.state, ctx.org, doer.id)) return undefined;
  return apiError(ctx.root, 403, 'Cannot change member visibility');
}

function change(value: boolean): Step {
  return inOrg(
    signedIn((ctx): Response => {
      const user = target(ctx);
      if (user instanceof Response) return user;
      const refused = mayChange(ctx, user, value ? 'publicize' : 'conceal');
      if (refused) return refused;
      setPublic(ctx.state, ctx.org, user.id, value);
      return empty(204);
    }),
  );
}

export function registerOrgMemberRoutes(r: ApiRouter): void {
  const org = [scope('organization'), orgAssignment];
  r.on('GET', '/orgs/:org/members', ...org, reqToken, inOrg((ctx) => list(ctx, !ctx.doer || !(ctx.doer.isAdmin || isOrgMember(ctx.state, ctx.org, ctx.doer.id)))));
  r.on('GET', '/orgs/:org/public_members', ...org, inOrg((ctx) => list(ctx, !hasQuirk(ctx.flavour, 'adminListsAllAsPublicMembers') || !ctx.doer?.isAdmin)));
  r.on('GET', '/orgs/:org/public_members/:username', ...org, userAssignment, inOrg((ctx) => {
    const user = target(ctx);
    if (user instanceof Response) return user;
    return isPublicMember(ctx.state, ctx.org, user.id) ? empty(204) : notFound(ctx);
  }));
  r.on('PUT', '/orgs/:org/public_members/:username', ...org, reqToken, reqOrgMembership, userAssignment, change(true));
  r.on('DELETE', '/orgs/:org/public_members/:username', ...org, reqToken, reqOrgMembership, userAssignment, change(false));
}
