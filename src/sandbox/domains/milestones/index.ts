/** Repository milestones. */
import type { SandboxDomain } from '../../core/domain.js';
import { registerMilestoneRoutes } from './routes.js';
import { repoMilestonesSeed } from './seed.js';
import { emptyMilestonesData } from './records.js';

export const milestonesDomain: SandboxDomain = {
  name: 'milestones',
  data: { empty: emptyMilestonesData },
  routes: registerMilestoneRoutes,
  seed: { repo: [repoMilestonesSeed] },
  cascade: {
    repo: (state, repoId) => {
      state.data.milestones = state.data.milestones.filter((m) => m.repoId !== repoId);
    },
  },
};
