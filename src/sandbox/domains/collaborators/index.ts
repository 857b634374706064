/**
 * Collaborators of repositories: the routes of `routers/api/v1/repo/collaborators.go`. The records are the
 * repositories' own (`RepoRecord.collaborators`, seeded by `repos[].collaborators`), dropped with their
 * repository and with their user (core/cascade.ts).
 */
import type { SandboxDomain } from '../../core/domain.js';
import { registerCollaboratorRoutes } from './routes.js';

export const collaboratorsDomain: SandboxDomain = {
  name: 'collaborators',
  routes: registerCollaboratorRoutes,
};
