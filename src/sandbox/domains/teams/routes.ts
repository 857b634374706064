/**
 * `GET /orgs/{org}/teams`: an organisation's teams, for its members (what a client needs to check
 * team names in branch-protection lists before it writes them). Upstream: `routers/api/v1/org/team.go`
 * ListTeams (reqToken, reqOrgMembership; paged, X-Total-Count).
 */
import { reqToken, scope } from '../../http/auth.js';
import { orgAssignment } from '../../http/checks.js';
import type { ApiContext } from '../../http/context.js';
import { listOptions, paginate, setLinkHeader, setTotalCountHeader } from '../../http/paging.js';
import { apiError, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { isOrgMember } from '../../core/permissions.js';
import { teamsOfOrg, type TeamRecord } from './records.js';

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
  const teams = teamsOfOrg(ctx.state, org.id).sort((a, b) => a.name.localeCompare(b.name));
  const opts = listOptions(ctx);
  setLinkHeader(ctx, teams.length, opts.pageSize);
  setTotalCountHeader(ctx, teams.length);
  return json(200, paginate(teams, opts).map(toTeam));
}

export function registerTeamRoutes(r: ApiRouter): void {
  r.on('GET', '/orgs/:org/teams', scope('organization'), reqToken, orgAssignment, listTeams);
}
