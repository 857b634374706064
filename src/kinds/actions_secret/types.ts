// The types the Actions secret kinds are defined with (defineKind), apart from their modules so that each imports them without a cycle.
import type { OrgConfig, RepoConfig } from '../../config/types.js';
import type { KindTypes } from '../../model/index.js';
import type { UnitOff, UnitOffRun } from '../actions-unit.js';

/** A secret as the server lists it (api.Secret: name, created_at, and description from Gitea 1.24): never its value. */
export type ServerActionsSecret = Record<string, unknown> & { name: string };

/** What a repository's or an organisation's config says of secrets (the two sections are alike). */
export type SecretSection = Pick<RepoConfig & OrgConfig, 'secrets'>;

/** What the secret kinds are typed by: the secrets section of their scope, a secret as listed, a repository's Actions unit found off (prepare) and the answers that said so (per run). */
export type ActionsSecretTypes = KindTypes<SecretSection, ServerActionsSecret, UnitOff | undefined, UnitOffRun>;
