/** Organisation members and public membership (`routers/api/v1/org/member.go`, `models/organization/org.go` ChangeOrgUserStatus). */
import type { SandboxDomain } from '../../core/domain.js';
import { emptyOrgMembersData } from './records.js';
import { registerOrgMemberRoutes } from './routes.js';
import { orgPublicMembersSeed } from './seed.js';

export const orgMembersDomain: SandboxDomain = {
  name: 'org-members',
  data: { empty: emptyOrgMembersData },
  routes: registerOrgMemberRoutes,
  seed: { org: [orgPublicMembersSeed] },
  cascade: {
    org: (state, orgId) => {
      state.data.publicMembers = state.data.publicMembers.filter((p) => p.orgId !== orgId);
    },
    user: (state, userId) => {
      state.data.publicMembers = state.data.publicMembers.filter((p) => p.userId !== userId);
    },
  },
};
