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

/**
 * What a read learns beside the permission: the team of the user that gives the level read, where that
 * level is higher than declared (read.ts explainByTeams). The collaboration's own level is then unknown.
 */
export interface CollaboratorMeta {
  through?: { team: string; permission: string };
  /** The list says the user is a site administrator (is_admin): the server answers owner for it whatever its teams. */
  siteAdmin?: boolean;
}

/** What the kind is typed by: a repository's collaborators section, a collaborator as listed, the users looked up, no state per run, the team that explains a level. */
export type CollaboratorTypes = KindTypes<Pick<RepoConfig, 'collaborators'>, ServerCollaborator, CollaboratorFacts, undefined, CollaboratorMeta>;
