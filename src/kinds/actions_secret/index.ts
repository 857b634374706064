import { defineKind, type Kind } from '../../model/index.js';
import { unitOffRun } from '../actions-unit.js';
import { repoSettingsKind } from '../repo_settings/index.js';
import { exporting } from './export.js';
import { REPO_SECRET_ROUTES } from './fields.js';
import { writing } from './ops.js';
import { planning } from './plan.js';
import { reading } from './read.js';
import type { ActionsSecretTypes } from './types.js';

/**
 * Actions secrets of a repository or an organisation (repos.NAME.secrets, orgs.NAME.secrets): one family of
 * two kinds, alike but for their scope type. The value is write-only (from an environment variable, shown
 * as (sensitive), never read back): a secret is created when its name is missing, its description (Gitea
 * 1.24+) compared, and its value sent again only with --rotate-secrets or a description change. read.ts
 * reads the names (one list per scope), plan.ts takes the values from the environment, ops.ts writes them,
 * export.ts exports each as a ${NAME} reference.
 */
function actionsSecretKind(scopeType: 'repo' | 'org', title: string): Kind {
  return defineKind<ActionsSecretTypes['config'], ActionsSecretTypes['server'], ActionsSecretTypes['prepared'], ActionsSecretTypes['run']>({
    name: `${scopeType}_actions_secret`,
    title,
    configKey: 'secrets',
    sends: [{ struct: 'CreateOrUpdateSecretOption', as: { value: 'data' } }],
    pruneKey: 'secrets',
    scopeType,
    actions: ['create', 'update', 'delete'],
    // A repository's Actions unit turned on by its settings in the same plan comes first (src/kinds/actions-unit.ts).
    ...(scopeType === 'repo' ? { after: [repoSettingsKind.name] } : {}),
    runState: unitOffRun,
    // Every release lists an organisation's secrets; a repository's only from Gitea 1.22 and Forgejo 8.
    ...(scopeType === 'repo' ? { availability: REPO_SECRET_ROUTES } : {}),
    // One PUT creates or replaces by name: there is never a second secret of one name.
    uniqueNames: true,
    ...reading,
    ...planning,
    ...writing,
    ...exporting,
  });
}

export const repoActionsSecretKind = actionsSecretKind('repo', 'Actions secret');
export const orgActionsSecretKind = actionsSecretKind('org', 'organisation Actions secret');
