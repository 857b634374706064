/**
 * Mirrors: the push mirrors of repositories (`/repos/{o}/{r}/push_mirrors`), the server's `[mirror]`
 * settings (seed key `mirror:`), and the seed's `repos[].push_mirrors`.
 */
import type { SandboxDomain } from '../../core/domain.js';
import { DEFAULT_MIRROR_SETTINGS, emptyMirrorsData } from './records.js';
import { registerMirrorRoutes } from './routes.js';
import { loadMirrorSettings, repoPushMirrorsSeed } from './seed.js';

export const mirrorsDomain: SandboxDomain = {
  name: 'mirrors',
  data: {
    empty: emptyMirrorsData,
    // A state file written before the settings existed: the defaults.
    load: (data) => ({ mirrorSettings: data.mirrorSettings ?? { ...DEFAULT_MIRROR_SETTINGS } }),
  },
  routes: registerMirrorRoutes,
  seed: { keys: ['mirror'], load: loadMirrorSettings, repo: [repoPushMirrorsSeed] },
  cascade: {
    repo: (state, repoId) => {
      state.data.pushMirrors = state.data.pushMirrors.filter((m) => m.repoId !== repoId);
    },
  },
};
