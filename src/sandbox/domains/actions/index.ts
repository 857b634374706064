/** Actions admin endpoints: runners, the registration token, workflow runs and jobs (seeded only). */
import type { SandboxDomain } from '../../core/domain.js';
import type { SandboxState } from '../../core/state.js';
import { registerAdminActionRoutes } from './routes.js';
import { loadActionsSeed } from './seed.js';
import { emptyActionsData } from './records.js';

const dropOwned = (state: SandboxState, ownerId: number): void => {
  state.data.runners = state.data.runners.filter((r) => r.ownerId !== ownerId);
  state.data.runnerTokens = state.data.runnerTokens.filter((t) => t.ownerId !== ownerId);
};

export const actionsDomain: SandboxDomain = {
  name: 'actions',
  data: { empty: emptyActionsData },
  routes: registerAdminActionRoutes,
  seed: { keys: ['actions'], load: loadActionsSeed },
  cascade: {
    repo: (state, repoId) => {
      state.data.runners = state.data.runners.filter((r) => r.repoId !== repoId);
      state.data.runnerTokens = state.data.runnerTokens.filter((t) => t.repoId !== repoId);
      state.data.actionRuns = state.data.actionRuns.filter((r) => r.repoId !== repoId);
      state.data.actionJobs = state.data.actionJobs.filter((j) => j.repoId !== repoId);
    },
    org: dropOwned,
    user: dropOwned,
  },
};
