/** Organisations: create (admin), list (admin), get, edit; teams and membership. */
import type { SandboxDomain } from '../../core/domain.js';
import { registerOrgRoutes } from './routes.js';
import { loadOrgsSeed } from './seed.js';

export const orgsDomain: SandboxDomain = {
  name: 'orgs',
  routes: registerOrgRoutes,
  seed: { keys: ['orgs'], load: loadOrgsSeed },
};
