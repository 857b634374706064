/**
 * Mirrors: the push mirrors of repositories (`/repos/{o}/{r}/push_mirrors`), pull mirrors made by
 * `POST /repos/migrate` (pull.ts), the server's `[mirror]` and migration settings (seed keys `mirror:`,
 * `migrations:`), and the seed's `repos[].push_mirrors` and `repos[].mirror`.
 */
import type { SandboxDomain } from '../../core/domain.js';
import { emptyMirrorsData } from './records.js';
import { registerMigrateRoute } from './pull.js';
import { registerMirrorRoutes } from './routes.js';
import { loadMirrorSettings, repoPushMirrorsSeed } from './seed.js';

export const mirrorsDomain: SandboxDomain = {
  name: 'mirrors',
  data: { empty: emptyMirrorsData },
  routes: (r) => {
    registerMigrateRoute(r);
    registerMirrorRoutes(r);
  },
  seed: { keys: ['mirror', 'migrations'], load: loadMirrorSettings, repo: [repoPushMirrorsSeed] },
  cascade: {
    repo: (state, repoId) => {
      state.data.pushMirrors = state.data.pushMirrors.filter((m) => m.repoId !== repoId);
      state.data.pullMirrors = state.data.pullMirrors.filter((m) => m.repoId !== repoId);
    },
  },
};
