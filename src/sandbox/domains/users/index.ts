/**
 * Users: `GET /user`, the admin user routes (create, edit, delete, rename), badges, SSH keys,
 * e-mail rows and login sources (rename redirects are the access model's: core/redirects.ts).
 */
import type { SandboxDomain } from '../../core/domain.js';
import type { SandboxState } from '../../core/state.js';
import { EMAILS } from './accounts.js';
import { registerAdminUserExtraRoutes } from './badges-keys.js';
import { registerEmailRoutes } from './emails.js';
import { registerAdminUserRoutes } from './routes.js';
import { loadUsersSeed } from './seed.js';
import { registerUserRoutes } from './self.js';
import { registerUserInfoRoutes } from './user-info.js';
import { registerTokenRoutes } from './tokens.js';
import { emptyAccountStateData } from './records.js';

const dropUserRows = (state: SandboxState, id: number): void => {
  state.indexes.of(EMAILS).removeWhere((e) => e.userId === id);
  state.data.publicKeys = state.data.publicKeys.filter((k) => k.ownerId !== id);
  state.data.userBadges = state.data.userBadges.filter((b) => b.userId !== id);
};

export const usersDomain: SandboxDomain = {
  name: 'users',
  data: { empty: emptyAccountStateData },
  routes(r) {
    registerUserRoutes(r);
    registerAdminUserRoutes(r);
    registerAdminUserExtraRoutes(r);
    registerEmailRoutes(r);
    registerUserInfoRoutes(r);
    registerTokenRoutes(r);
  },
  seed: { keys: ['users', 'auth_sources', 'badges'], load: loadUsersSeed },
  cascade: {
    user: dropUserRows,
  },
};
