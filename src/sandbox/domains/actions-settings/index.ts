/**
 * Actions secrets and variables of organisations and repositories: their tables, routes, the seed's
 * `orgs[].secrets|variables` and `repos[].secrets|variables`, and their deletion with their organisation
 * or repository (`DeleteOrganization` and `DeleteRepository` delete the owner's secrets and variables).
 */
import type { SandboxDomain } from '../../core/domain.js';
import { sealed, unsealed } from '../../core/state-file.js';
import { emptyActionsSettingsData } from './records.js';
import { registerActionsSettingsRoutes } from './routes.js';
import { orgActionsSettingsSeed, repoActionsSettingsSeed } from './seed.js';

export const actionsSettingsDomain: SandboxDomain = {
  name: 'actions-settings',
  data: {
    empty: emptyActionsSettingsData,
    // Gitea keeps secrets encrypted with its SECRET_KEY (models/secret/secret.go InsertEncryptedSecret): so does the state file.
    save: (data, key) => ({ actionSecrets: data.actionSecrets.map((s) => ({ ...s, data: sealed(s.data, key) })) }),
    load: (data, key) => (key ? { actionSecrets: data.actionSecrets.map((s) => ({ ...s, data: unsealed(s.data, key) })) } : {}),
  },
  routes: registerActionsSettingsRoutes,
  seed: { org: [orgActionsSettingsSeed], repo: [repoActionsSettingsSeed] },
  cascade: {
    repo: (state, repoId) => {
      state.data.actionSecrets = state.data.actionSecrets.filter((s) => s.repoId !== repoId);
      state.data.actionVariables = state.data.actionVariables.filter((v) => v.repoId !== repoId);
    },
    org: (state, orgId) => {
      state.data.actionSecrets = state.data.actionSecrets.filter((s) => s.ownerId !== orgId);
      state.data.actionVariables = state.data.actionVariables.filter((v) => v.ownerId !== orgId);
    },
  },
};
