/** `/version`, `/settings/api`: public server facts. */
import type { SandboxDomain } from '../../core/domain.js';
import { registerMiscRoutes } from './routes.js';

export const metaDomain: SandboxDomain = { name: 'meta', routes: registerMiscRoutes };
