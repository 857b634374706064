/**
 * Teams of organisations: their table, `GET /orgs/{org}/teams`, the seed's `orgs[].teams`, and what
 * teams add to the access model (organisation owners and members, team access to repositories).
 */
import type { SandboxDomain } from '../../core/domain.js';
import { teamAccess } from './access.js';
import { emptyTeamsData, TEAMS } from './records.js';
import { registerTeamRoutes } from './routes.js';
import { orgTeamsSeed } from './seed.js';

export const teamsDomain: SandboxDomain = {
  name: 'teams',
  data: { empty: emptyTeamsData },
  access: teamAccess,
  routes: registerTeamRoutes,
  seed: { org: [orgTeamsSeed] },
  cascade: {
    repo: (state, repoId) => {
      for (const t of state.data.teams) if (t.repoIds.includes(repoId)) t.repoIds = t.repoIds.filter((x) => x !== repoId);
    },
    org: (state, orgId) => {
      state.indexes.of(TEAMS).removeWhere((t) => t.orgId === orgId);
    },
    user: (state, userId) => {
      for (const team of state.data.teams) team.memberIds = team.memberIds.filter((m) => m !== userId);
    },
  },
};
