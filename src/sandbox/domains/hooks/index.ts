/** Admin (system and default) webhooks (`routers/api/v1/admin/hooks.go`). */
import type { SandboxDomain } from '../../core/domain.js';
import { hashedForFile, sealed, unsealed } from '../../core/state-file.js';
import { registerAdminHookRoutes } from './routes.js';
import { loadHooksSeed } from './seed.js';
import { emptyHooksData } from './records.js';

export const hooksDomain: SandboxDomain = {
  name: 'hooks',
  data: {
    empty: emptyHooksData,
    // Secrets no release gives back are hashed; authorization headers, which every release returns,
    // are encrypted (Gitea encrypts them with its SECRET_KEY: models/webhook/webhook.go `HeaderAuthorizationEncrypted`).
    save: (data, key) => ({ adminHooks: data.adminHooks.map((h) => ({ ...h, secret: hashedForFile(h.secret), authorizationHeader: sealed(h.authorizationHeader, key) })) }),
    load: (data, key) => (key ? { adminHooks: data.adminHooks.map((h) => ({ ...h, authorizationHeader: unsealed(h.authorizationHeader, key) })) } : {}),
  },
  routes: registerAdminHookRoutes,
  seed: { keys: ['hooks'], load: loadHooksSeed },
};
