import { branchProtectionKind } from './branch_protection/index.js';
import { hookKind } from './hook/index.js';
import { issueKind } from './issue/index.js';
import { orgLabelKind, repoLabelKind } from './label/index.js';
import { orgKind } from './org/index.js';
import { repoKind } from './repo/index.js';
import { runnerKind } from './runner/index.js';
import { teamKind } from './team/index.js';
import { userKind } from './user/index.js';
import { repoSettingsKind } from './repo_settings/index.js';
import { orgActionsSecretKind, repoActionsSecretKind } from './actions_secret/index.js';
import { orgActionsVariableKind, repoActionsVariableKind } from './actions_variable/index.js';
import { collaboratorKind } from './collaborator/index.js';
import { tagProtectionKind } from './tag_protection/index.js';
import { publicMembershipKind } from './public_membership/index.js';
import { pushMirrorKind } from './push_mirror/index.js';
import { orgWebhookKind, repoWebhookKind } from './webhook/index.js';
import { deployKeyKind } from './deploy_key/index.js';
import { kindNamed, kindsByName, type Kind } from '../model/index.js';

/**
 * Every kind forgeform manages, in the order they are planned and their changes listed. Users come
 * first (a new organisation or repository may be owned by a new user), then the organisations and
 * repositories that other kinds' scopes may wait for, then the rest.
 */
export const kinds: Kind[] = [userKind, orgKind, repoKind, repoSettingsKind, hookKind, runnerKind, orgLabelKind, repoLabelKind, teamKind, publicMembershipKind, collaboratorKind, orgActionsSecretKind, orgActionsVariableKind, repoActionsSecretKind, repoActionsVariableKind, branchProtectionKind, tagProtectionKind, issueKind, pushMirrorKind, orgWebhookKind, repoWebhookKind, deployKeyKind];

/** The same kinds by name (in the same order): what a change's kind name is looked up in. */
export const registry: ReadonlyMap<string, Kind> = kindsByName(kinds);

export function kindByName(name: string): Kind {
  return kindNamed(registry, name);
}
