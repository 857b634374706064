import { field, serverFields, type ConfigDoc } from '../fields.js';
import type { EntrySpec, SchemaFragment } from '../../model/index.js';
import { nameSet } from '../team/fields.js';

const DESCRIPTION =
  'The members of the organisation whose membership is public, as a set: members listed are made public, members not listed are made private (one request per member changed). Each must be a member, through one of the organisation\'s teams (this file\'s teams count). Gitea up to 1.23 and every Forgejo let only a member change their own: there, only the token\'s own user can be changed.';

/**
 * The set, as the organisation's config writes it (orgs.NAME.public_members) and as its one field is
 * compared: the same definition (src/kinds/org/fields.ts uses it for the section).
 */
export const section = {
  title: 'Public members',
  description: DESCRIPTION,
  type: 'array',
  uniqueItems: true,
  items: { $ref: '#/definitions/public_member' },
  examples: [['alice', 'bob']],
} satisfies ConfigDoc;

/**
 * The organisation's public members: one object per organisation (its key the organisation's name) with
 * one set. Names are case-insensitive on the server: compared lower-cased, one element per plan line.
 */
export const entries: EntrySpec[] = [field({ name: 'members', type: 'set', answer: 'string[]', normalize: nameSet, perElement: true }, section)];

export const fields = serverFields(entries);

/** One name of the set: a user who is a member of the organisation. */
export const fragment: SchemaFragment = {
  definitions: {
    public_member: { title: 'Public member', description: "The user name of a member of the organisation (through one of its teams).", type: 'string', minLength: 1 },
  },
};
