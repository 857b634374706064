/** Repositories: get, edit, create for an owner, lists of an organisation or user. */
import type { SandboxDomain } from '../../core/domain.js';
import { registerRepoRoutes } from './routes.js';
import { loadReposSeed } from './seed.js';
import { loadCustomTemplates } from './readmes.js';

export const reposDomain: SandboxDomain = {
  name: 'repos',
  routes: registerRepoRoutes,
  seed: {
    keys: ['repos', 'custom_templates'],
    load(cx) {
      loadCustomTemplates(cx);
      loadReposSeed(cx);
    },
  },
};
