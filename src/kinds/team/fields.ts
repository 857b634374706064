import { bool, configEntry, field, objectSchema, serverFields, text, formerNames } from '../fields.js';
import type { EntrySpec, SchemaFragment } from '../../model/index.js';
import { comparableUnits, PERMISSIONS, UNIT_KEYS, UNIT_LEVELS } from './units.js';

/** Names of accounts and repositories are case-insensitive on the server: compared lower-cased, as a sorted set. */
export function nameSet(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return [...new Set(list.map((v) => String(v).toLowerCase()))].sort();
}

const namesSchema = (what: string) => ({ type: 'array', uniqueItems: true, items: { type: 'string', minLength: 1 }, examples: [what === 'user' ? ['alice', 'bob'] : ['widgets']] });

/** A team's config, in the order the schema and the docs list it: its server fields, then the entries that are not. */
export const entries: EntrySpec[] = [
  text('description', { title: 'Description', description: 'Text shown with the team (the server keeps 255 bytes of it).', maxLength: 255 }),
  field(
    { name: 'permission', type: 'scalar', answer: 'string', normalize: (v) => (v === null || v === undefined ? '' : String(v)) },
    {
      title: 'Permission',
      description:
        'admin: the team administers every repository it has (units are not managed then). read or write: the level each unit listed in units is given. Below admin only "admin or not" is compared: Gitea 1.24+ stores a non-admin team\'s own permission as none, older releases and Forgejo as its lowest unit level.',
      enum: [...PERMISSIONS],
    },
  ),
  field(
    { name: 'units_map', type: 'scalar', answer: 'object', normalize: comparableUnits },
    {
      title: 'Units and their levels',
      description: 'Each repository unit the team has, with its level (none, read, write or admin); units listed in units are added at the permission. A unit at none and a unit not listed are the same. Needed (or units) to create a team below admin.',
      type: 'object',
      propertyNames: { enum: [...UNIT_KEYS] },
      additionalProperties: { enum: [...UNIT_LEVELS] },
      examples: [{ 'repo.code': 'write', 'repo.issues': 'read' }],
    },
  ),
  bool('includes_all_repositories', { title: 'Every repository', description: 'The team has every repository of the organisation, new ones included (then repositories cannot be listed). Turning it off keeps the repositories the team has.' }),
  bool('can_create_org_repo', { title: 'May create repositories', description: "Members may create repositories in the organisation (always true for the Owners team)." }),
  field({ name: 'members', type: 'set', answer: 'string[]', normalize: nameSet, perElement: true }, { title: 'Members', description: 'User names, as a set: users not listed are removed from the team (one request per user added or removed). Adding a user makes it a member of the organisation; removing one from its last team removes it from the organisation.', ...namesSchema('user') }),
  field({ name: 'repositories', type: 'set', answer: 'string[]', normalize: nameSet, perElement: true }, { title: 'Repositories', description: "Names of the organisation's repositories the team has, as a set (one request per repository added or removed). Not with includes_all_repositories.", ...namesSchema('repo') }),
  configEntry('units', {
    title: 'Units',
    description: 'Repository units the team has, each at the permission (shorthand for units_map).',
    type: 'array',
    uniqueItems: true,
    items: { enum: [...UNIT_KEYS] },
  }),
  formerNames('Former names of this team: a team with one of these names is renamed (it keeps its members and repositories) instead of a new team being created.'),
];

/** Server fields: compared and written. */
export const fields = serverFields(entries);

/** The team definition; the section that holds teams (orgs.*.teams) belongs to the organisation's kind. */
export const fragment: SchemaFragment = {
  definitions: {
    team: objectSchema({ title: 'Team', description: 'A team of the organisation, keyed by its name (letters, digits, "-", "_" and "."). A field that is not written is not managed.' }, entries),
  },
};
