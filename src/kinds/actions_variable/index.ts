import { defineKind, type Kind } from '../../model/index.js';
import { unitOffRun } from '../actions-unit.js';
import { repoSettingsKind } from '../repo_settings/index.js';
import { exporting } from './export.js';
import { features, VARIABLE_ROUTES } from './fields.js';
import { writing } from './ops.js';
import { planning } from './plan.js';
import { reading } from './read.js';
import type { ActionsVariableTypes } from './types.js';

/**
 * Actions variables of a repository or an organisation (repos.NAME.variables, orgs.NAME.variables): one
 * family of two kinds, alike but for their scope type. Their value (and description, Gitea 1.24+) is read
 * back and compared. read.ts reads them (one list per scope), plan.ts checks their names against the
 * release, ops.ts writes them, export.ts exports them. Gitea 1.22+ and Forgejo 8+ (VARIABLE_ROUTES).
 */
function actionsVariableKind(scopeType: 'repo' | 'org', title: string): Kind {
  return defineKind<ActionsVariableTypes['config'], ActionsVariableTypes['server'], ActionsVariableTypes['prepared'], ActionsVariableTypes['run']>({
    name: `${scopeType}_actions_variable`,
    title,
    configKey: 'variables',
    sends: [{ struct: 'CreateVariableOption' }, { struct: 'UpdateVariableOption' }],
    pruneKey: 'variables',
    scopeType,
    actions: ['create', 'update', 'delete'],
    // A repository's Actions unit turned on by its settings in the same plan comes first (src/kinds/actions-unit.ts).
    ...(scopeType === 'repo' ? { after: [repoSettingsKind.name] } : {}),
    runState: unitOffRun,
    availability: VARIABLE_ROUTES,
    // Only a repository's list lacks values on some releases.
    ...(scopeType === 'repo' ? { features } : {}),
    // A second variable of one name is refused (409 variable name … already exists).
    uniqueNames: true,
    ...reading,
    ...planning,
    ...writing,
    ...exporting,
  });
}

export const repoActionsVariableKind = actionsVariableKind('repo', 'Actions variable');
export const orgActionsVariableKind = actionsVariableKind('org', 'organisation Actions variable');
