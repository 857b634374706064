/** Rendering and file templates: `/markdown`, `/markdown/raw`, `/markup`, `/gitignore/templates`, `/licenses`. */
import type { SandboxDomain } from '../../core/domain.js';
import { registerMarkupRoutes } from './routes.js';

export const markupDomain: SandboxDomain = { name: 'markup', routes: registerMarkupRoutes };
