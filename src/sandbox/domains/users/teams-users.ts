/**
 * `GET /orgs/{org}/teams` (an organisation's teams, members only) and `GET /users/{username}` (one
 * account): what a client needs to check names in branch-protection lists before it writes them.
 * Upstream: `routers/api/v1/org/team.go` ListTeams (reqToken, reqOrgMembership; paged, X-Total-Count)
 * and `routers/api/v1/user/user.go` GetInfo (404 for an account the caller may not see); `GET /user/orgs`
 * (`org.ListMyOrgs`: the organisations the caller is a member of, private ones included), which a
 * client without site-admin rights uses to find what it can read.
 */
import { reqToken, scope } from '../../http/auth.js';
import { notFound, orgAssignment, userAssignment } from '../../http/checks.js';
import type { ApiContext } from '../../http/context.js';
import { listOptions, paginate, setLinkHeader, setTotalCountHeader } from '../../http/paging.js';
import { apiError, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { isOrgMember, orgVisibleTo, userVisibleTo } from '../../core/permissions.js';
import type { TeamRecord } from '../../core/state.js';
import { orgAsUser, toOrganization } from '../orgs/convert.js';
import { toUser } from './convert.js';

/** `convert.ToTeams(…, false)`: without the organisation object. */
function toTeam(team: TeamRecord): Record<string, unknown> {
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    organization: null,
    includes_all_repositories: team.includesAllRepositories,
    permission: team.permission,
    can_create_org_repo: team.permission === 'owner',
  };
}

function listTeams(ctx: ApiContext): Response {
  const org = ctx.org!;
  // reqOrgMembership: site admins pass, everyone else must be a member.
  if (!ctx.doer?.isAdmin && !(ctx.doer && isOrgMember(ctx.state, org, ctx.doer.id))) return apiError(ctx.root, 403, 'Must be an organization member');
  const teams = ctx.state.teamsOfOrg(org.id).sort((a, b) => a.name.localeCompare(b.name));
  const opts = listOptions(ctx);
  setLinkHeader(ctx, teams.length, opts.pageSize);
  setTotalCountHeader(ctx, teams.length);
  return json(200, paginate(teams, opts).map(toTeam));
}

function listMyOrgs(ctx: ApiContext): Response {
  const doer = ctx.doer!;
  const orgs = ctx.state.data.orgs.filter((o) => isOrgMember(ctx.state, o, doer.id)).sort((a, b) => a.id - b.id);
  const opts = listOptions(ctx);
  setLinkHeader(ctx, orgs.length, opts.pageSize);
  setTotalCountHeader(ctx, orgs.length);
  return json(200, paginate(orgs, opts).map((o) => toOrganization(ctx, o)));
}

export function registerTeamUserRoutes(r: ApiRouter): void {
  r.on('GET', '/user/orgs', scope('organization'), reqToken, listMyOrgs);
  r.on('GET', '/orgs/:org/teams', scope('organization'), reqToken, orgAssignment, listTeams);
  r.on('GET', '/users/:username', scope('user'), userAssignment, (ctx) => {
    const owner = ctx.contextUser!;
    if (owner.kind === 'user') return userVisibleTo(owner.user, ctx.doer) ? json(200, toUser(ctx, owner.user, ctx.doer)) : notFound(ctx);
    return orgVisibleTo(ctx.state, owner.org, ctx.doer) ? json(200, orgAsUser(ctx, owner.org, ctx.doer !== null)) : notFound(ctx);
  });
}
