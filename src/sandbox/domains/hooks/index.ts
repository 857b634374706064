/** Admin (system and default) webhooks (`routers/api/v1/admin/hooks.go`), and repository and organisation webhooks (`routers/api/v1/{repo,org}/hook.go`). */
import type { SandboxDomain } from '../../core/domain.js';
import { hashedForFile, sealed, unsealed } from '../../core/state-file.js';
import { registerAdminHookRoutes } from './routes.js';
import { loadHooksSeed, orgHooksSeed, repoHooksSeed } from './seed.js';
import { registerWebhookRoutes } from './webhook-routes.js';
import type { AdminHookRecord } from './records.js';
import { emptyHooksData } from './records.js';

export const hooksDomain: SandboxDomain = {
  name: 'hooks',
  data: {
    empty: emptyHooksData,
    // Secrets no release gives back are hashed; authorization headers, which every release returns,
    // are encrypted (Gitea encrypts them with its SECRET_KEY: models/webhook/webhook.go `HeaderAuthorizationEncrypted`).
    save: (data, key) => ({ adminHooks: data.adminHooks.map((h) => forFile(h, key)), webhooks: data.webhooks.map((h) => forFile(h, key)) }),
    load: (data, key) => (key ? { adminHooks: data.adminHooks.map((h) => fromFile(h, key)), webhooks: data.webhooks.map((h) => fromFile(h, key)) } : {}),
  },
  routes: (r) => {
    registerAdminHookRoutes(r);
    registerWebhookRoutes(r);
  },
  seed: { keys: ['hooks'], load: loadHooksSeed, org: [orgHooksSeed], repo: [repoHooksSeed] },
  cascade: {
    repo: (state, repoId) => {
      state.data.webhooks = state.data.webhooks.filter((h) => h.repoId !== repoId);
    },
    org: (state, orgId) => {
      state.data.webhooks = state.data.webhooks.filter((h) => h.ownerId !== orgId);
    },
  },
};

function forFile<H extends AdminHookRecord>(h: H, key: string): H {
  return { ...h, secret: hashedForFile(h.secret), authorizationHeader: sealed(h.authorizationHeader, key) };
}

function fromFile<H extends AdminHookRecord>(h: H, key: string): H {
  return { ...h, authorizationHeader: unsealed(h.authorizationHeader, key) };
}
