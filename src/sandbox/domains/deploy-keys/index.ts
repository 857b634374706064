/** Deploy keys of repositories (`routers/api/v1/repo/key.go`, `models/asymkey/ssh_key_deploy.go`): every release played. */
import type { SandboxDomain } from '../../core/domain.js';
import { deployKeysOf, emptyDeployKeysData } from './records.js';
import { registerDeployKeyRoutes } from './routes.js';
import { repoDeployKeysSeed } from './seed.js';
import { removeDeployKey } from './service.js';

export const deployKeysDomain: SandboxDomain = {
  name: 'deploy-keys',
  data: { empty: emptyDeployKeysData },
  routes: registerDeployKeyRoutes,
  seed: { repo: [repoDeployKeysSeed] },
  // DeleteRepoDeployKeys (services/asymkey/deploy_key.go Gitea v1.25.4 l.16-28): each as a delete of its own.
  cascade: {
    repo: (state, repoId) => {
      for (const k of deployKeysOf(state, repoId)) removeDeployKey(state, k);
    },
  },
};
