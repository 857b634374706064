/** Admin (system and default) webhooks (`routers/api/v1/admin/hooks.go`). */
import type { SandboxDomain } from '../../core/domain.js';
import { registerAdminHookRoutes } from './routes.js';
import { loadHooksSeed } from './seed.js';

export const hooksDomain: SandboxDomain = {
  name: 'hooks',
  routes: registerAdminHookRoutes,
  seed: { keys: ['hooks'], load: loadHooksSeed },
};
