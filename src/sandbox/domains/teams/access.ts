/**
 * What teams add to the access model (core/permissions.ts): the Owners team's members own the
 * organisation, team members are its members, and a team gives its permission on the repositories
 * it includes (`models/perm/access`: the access table is built from collaborations and teams).
 */
import { hasMember, type DomainAccess } from '../../core/permissions.js';
import { AccessMode } from '../../core/state.js';
import { isAdminTeam, teamAccessTableMode, teamHasRepo, teamMode, teamsOfOrg, unitsOf } from './records.js';

const LEVEL_OF: Record<string, number> = { none: AccessMode.None, read: AccessMode.Read, write: AccessMode.Write, admin: AccessMode.Admin, owner: AccessMode.Owner };

export const teamAccess: DomainAccess = {
  isOrgOwner: (state, org, userId) => teamsOfOrg(state, org.id).some((t) => t.permission === 'owner' && hasMember(t.memberIds, userId)),
  isOrgMember: (state, org, userId) => teamsOfOrg(state, org.id).some((t) => hasMember(t.memberIds, userId)),
  repoMode: (state, repo, org, userId) => {
    let mode: number = AccessMode.None;
    for (const team of teamsOfOrg(state, org.id)) {
      if (teamHasRepo(team, repo) && hasMember(team.memberIds, userId)) mode = Math.max(mode, teamMode(team));
    }
    return mode;
  },
  // A row at the team's stored mode, or its pull-request unit (readersFromTeamUnits): see core/permissions.ts ReaderRules.
  makesReader: (state, repo, org, userId, rules) =>
    teamsOfOrg(state, org.id).some(
      (t) =>
        teamHasRepo(t, repo) &&
        hasMember(t.memberIds, userId) &&
        (teamAccessTableMode(t) >= AccessMode.Read || (rules.teamUnits && (isAdminTeam(t) || t.permission === 'owner' || (LEVEL_OF[unitsOf(t)['repo.pulls'] ?? 'none'] ?? 0) >= AccessMode.Read))),
    ),
  repoUsers: (state, repo, org) => teamsOfOrg(state, org.id).flatMap((t) => (teamHasRepo(t, repo) ? t.memberIds : [])),
};
