/** Repository and organisation labels (behavior.md §3), and the label templates (§6). */
import type { SandboxDomain } from '../../core/domain.js';
import { registerLabelRoutes } from './routes.js';
import { orgLabelsSeed, repoLabelsSeed } from './seed.js';

export const labelsDomain: SandboxDomain = {
  name: 'labels',
  routes: registerLabelRoutes,
  seed: { org: [orgLabelsSeed], repo: [repoLabelsSeed] },
  cascade: {
    repo: (state, repoId) => {
      state.data.labels = state.data.labels.filter((l) => l.repoId !== repoId);
    },
    org: (state, orgId) => {
      state.data.labels = state.data.labels.filter((l) => !(l.orgId === orgId && l.repoId === 0));
    },
  },
};
