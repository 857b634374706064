/** Organisations: `GET /admin/orgs`, `GET`/`PATCH /orgs/{org}`, teams and membership; `GET /admin/emails` (for now). */
import type { SandboxDomain } from '../../core/domain.js';
import { registerAdminOrgEmailRoutes } from './routes.js';
import { loadOrgsSeed } from './seed.js';

export const orgsDomain: SandboxDomain = {
  name: 'orgs',
  routes: registerAdminOrgEmailRoutes,
  seed: { keys: ['orgs'], load: loadOrgsSeed },
};
