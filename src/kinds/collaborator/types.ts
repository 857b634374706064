// The types the collaborator kind is defined with (defineKind), apart from its modules so that each imports them without a cycle.
import type { RepoConfig } from '../../config/types.js';
import type { KindTypes } from '../../model/index.js';
import type { AccountState } from '../user/accounts.js';

/** A collaborator as the list answers it (api.User of modules/structs/user.go): who, not with which permission. */
export type ServerCollaborator = Record<string, unknown> & { id: number; login: string };

/** What prepare learns: whether each collaborator to add exists as a user (lower-cased name → state; absent: not asked). */
export interface CollaboratorFacts {
  users: Map<string, AccountState>;
}

/** What the kind is typed by: a repository's collaborators section, a collaborator as listed, the users looked up, no state per run. */
export type CollaboratorTypes = KindTypes<Pick<RepoConfig, 'collaborators'>, ServerCollaborator, CollaboratorFacts, undefined>;
