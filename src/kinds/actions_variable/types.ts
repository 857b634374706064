// The types the Actions variable kinds are defined with (defineKind), apart from their modules so that each imports them without a cycle.
import type { OrgConfig, RepoConfig } from '../../config/types.js';
import type { KindTypes } from '../../model/index.js';
import type { UnitOff, UnitOffRun } from '../actions-unit.js';

/** A variable as the server answers it (api.ActionVariable: owner_id, repo_id, name, data, description). */
export type ServerActionsVariable = Record<string, unknown> & { name: string };

/** What a repository's or an organisation's config says of variables (the two sections are alike). */
export type VariableSection = Pick<RepoConfig & OrgConfig, 'variables'>;

/** What the variable kinds are typed by: the variables section of their scope, a variable as answered, a repository's Actions unit found off (prepare) and the answers that said so (per run). */
export type ActionsVariableTypes = KindTypes<VariableSection, ServerActionsVariable, UnitOff | undefined, UnitOffRun>;
