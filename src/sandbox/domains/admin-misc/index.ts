/** The other admin endpoints: cron tasks, packages, unadopted repository directories. */
import type { SandboxDomain } from '../../core/domain.js';
import type { SandboxState } from '../../core/state.js';
import { registerAdminMiscRoutes } from './routes.js';
import { loadAdminMiscSeed } from './seed.js';
import { emptyAdminMiscData } from './records.js';

const dropPackages = (state: SandboxState, ownerId: number): void => {
  state.data.packages = state.data.packages.filter((p) => p.ownerId !== ownerId);
};

export const adminMiscDomain: SandboxDomain = {
  name: 'admin-misc',
  data: { empty: emptyAdminMiscData },
  routes: registerAdminMiscRoutes,
  seed: { keys: ['cron', 'packages', 'unadopted'], load: loadAdminMiscSeed },
  cascade: {
    // A package outlives its repository: only the link goes.
    repo: (state, repoId) => {
      for (const p of state.data.packages) if (p.repoId === repoId) p.repoId = 0;
    },
    org: dropPackages,
    purgeUser: dropPackages,
    blocksUserDelete: (state, userId) => (state.data.packages.some((p) => p.ownerId === userId) ? `user still has ownership of packages [uid: ${userId}]` : undefined),
  },
};
