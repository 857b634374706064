/** Issues (list, search, create, edit), their labels, and projects (seeded only). */
import type { SandboxDomain } from '../../core/domain.js';
import { ISSUES, emptyIssuesData } from './records.js';
import { registerIssueCommentRoutes } from './comments.js';
import { registerPullRoutes } from './pulls.js';
import { registerIssueRoutes, registerIssueSearchRoute } from './routes.js';
import { repoIssuesSeed, repoProjectsSeed } from './seed.js';

export const issuesDomain: SandboxDomain = {
  name: 'issues',
  data: { empty: emptyIssuesData },
  routes(r) {
    registerIssueSearchRoute(r);
    registerIssueRoutes(r);
    registerIssueCommentRoutes(r);
    registerPullRoutes(r);
  },
  seed: { repo: [repoProjectsSeed, repoIssuesSeed] },
  cascade: {
    repo: (state, repoId) => {
      const gone = new Set(state.indexes.of(ISSUES).removeWhere((i) => i.repoId === repoId).map((i) => i.id));
      state.data.comments = (state.data.comments ?? []).filter((c) => !gone.has(c.issueId));
      state.data.pulls = (state.data.pulls ?? []).filter((p) => !gone.has(p.issueId));
      state.data.projects = state.data.projects.filter((p) => p.repoId !== repoId);
    },
    org: (state, orgId) => {
      state.data.projects = state.data.projects.filter((p) => p.ownerId !== orgId);
    },
    // Issues the user wrote stay; they are no longer assigned anything.
    user: (state, userId) => {
      for (const issue of state.data.issues) issue.assigneeIds = issue.assigneeIds.filter((a) => a !== userId);
      state.data.projects = state.data.projects.filter((p) => p.ownerId !== userId);
    },
  },
};
