/** Branch protection rules (`routers/api/v1/repo/branch.go`, `models/git/protected_branch.go`). */
import type { SandboxDomain } from '../../core/domain.js';
import { PROTECTIONS, emptyBranchProtectionsData } from './records.js';
import { registerBranchProtectionRoutes } from './routes.js';
import { repoProtectionsSeed } from './seed.js';

export const branchProtectionsDomain: SandboxDomain = {
  name: 'branch-protections',
  data: { empty: emptyBranchProtectionsData },
  routes: registerBranchProtectionRoutes,
  seed: { repo: [repoProtectionsSeed] },
  cascade: {
    repo: (state, repoId) => {
      state.indexes.of(PROTECTIONS).removeWhere((p) => p.repoId === repoId);
    },
  },
};
