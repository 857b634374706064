/** Repository and organisation labels (`routers/api/v1/{repo,org}/label.go`), and the label templates. */
import type { SandboxDomain } from '../../core/domain.js';
import { LABELS, emptyLabelsData } from './records.js';
import { registerLabelRoutes } from './routes.js';
import { orgLabelsSeed, repoLabelsSeed } from './seed.js';

export const labelsDomain: SandboxDomain = {
  name: 'labels',
  data: { empty: emptyLabelsData },
  routes: registerLabelRoutes,
  seed: { org: [orgLabelsSeed], repo: [repoLabelsSeed] },
  cascade: {
    repo: (state, repoId) => {
      state.indexes.of(LABELS).removeWhere((l) => l.repoId === repoId);
    },
    org: (state, orgId) => {
      state.indexes.of(LABELS).removeWhere((l) => l.orgId === orgId && l.repoId === 0);
    },
  },
};
