/** Branch protection rules (behavior.md §2). */
import type { SandboxDomain } from '../../core/domain.js';
import { PROTECTIONS } from './records.js';
import { registerBranchProtectionRoutes } from './routes.js';
import { repoProtectionsSeed } from './seed.js';

export const branchProtectionsDomain: SandboxDomain = {
  name: 'branch-protections',
  routes: registerBranchProtectionRoutes,
  seed: { repo: [repoProtectionsSeed] },
  cascade: {
    repo: (state, repoId) => {
      state.indexes.of(PROTECTIONS).removeWhere((p) => p.repoId === repoId);
    },
  },
};
