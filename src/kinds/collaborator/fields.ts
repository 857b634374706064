import { field, serverFields } from '../fields.js';
import type { EntrySpec, SchemaFragment } from '../../model/index.js';

/**
 * The permissions a collaborator is given: what `PUT /repos/{o}/{r}/collaborators/{user}` takes as
 * `permission` (AddCollaboratorOption, modules/structs/repo_collaborator.go; perm.ParseAccessMode reads
 * read, write and admin, every release).
 */
export const PERMISSIONS = ['read', 'write', 'admin'] as const;

/**
 * A collaborator's one field. The config writes it as the value of the user's entry
 * (`collaborators: { alice: write }`), the way a team's units_map gives each unit its level: the
 * definition of a collaborator is this field's schema.
 */
export const permission = field(
  { name: 'permission', type: 'scalar', answer: 'string', normalize: (v) => (v === null || v === undefined ? '' : String(v).toLowerCase()) },
  {
    title: 'Permission',
    description:
      'The value of each entry (`alice: write`): read, write or admin. Read back from GET …/collaborators/{user}/permission, which answers the level the user has on the repository (the highest of the collaboration and its teams; owner for site administrators, organisation owners and members of admin teams). A level above the declared one that a team of the user gives is named in the plan, not changed (the collaboration\'s own level cannot be read).',
    enum: [...PERMISSIONS],
  },
);

export const entries: EntrySpec[] = [permission];

export const fields = serverFields(entries);

// The field's own schema object (the schema test finds the very object a field declares).
const { config } = permission;
if (!config) throw new Error('collaborator: the permission field has no config definition');
export const fragment: SchemaFragment = { definitions: { collaborator: config } };
