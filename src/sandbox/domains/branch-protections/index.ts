/** Branch protection rules (behavior.md §2). */
import type { SandboxDomain } from '../../core/domain.js';
import { registerBranchProtectionRoutes } from './routes.js';
import { repoProtectionsSeed } from './seed.js';

export const branchProtectionsDomain: SandboxDomain = {
  name: 'branch-protections',
  routes: registerBranchProtectionRoutes,
  seed: { repo: [repoProtectionsSeed] },
  cascade: {
    repo: (state, repoId) => {
      state.data.branchProtections = state.data.branchProtections.filter((p) => p.repoId !== repoId);
    },
  },
};
