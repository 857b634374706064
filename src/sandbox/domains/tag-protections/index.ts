/** Tag protections (`routers/api/v1/repo/tag.go`, `models/git/protected_tag.go`): Gitea 1.23+, Forgejo 8+ (the swagger tables decide per flavour). */
import type { SandboxDomain } from '../../core/domain.js';
import { emptyTagProtectionsData, TAG_PROTECTIONS } from './records.js';
import { registerTagProtectionRoutes } from './routes.js';
import { repoTagProtectionsSeed } from './seed.js';

export const tagProtectionsDomain: SandboxDomain = {
  name: 'tag-protections',
  data: { empty: emptyTagProtectionsData },
  routes: registerTagProtectionRoutes,
  seed: { repo: [repoTagProtectionsSeed] },
  cascade: {
    repo: (state, repoId) => {
      state.indexes.of(TAG_PROTECTIONS).removeWhere((p) => p.repoId === repoId);
    },
  },
};
