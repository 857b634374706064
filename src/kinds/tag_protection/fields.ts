import { field, formerNames, objectSchema, serverFields } from '../fields.js';
import type { EntrySpec, SchemaFragment } from '../../model/index.js';
import { nameSet } from '../team/fields.js';

const names = (what: string, example: string[]) => ({ type: 'array', uniqueItems: true, items: { type: 'string', minLength: 1 }, examples: [example], description: what });

/**
 * A tag protection's allowlists (CreateTagProtectionOption / EditTagProtectionOption of
 * modules/structs/repo_tag.go, Gitea 1.23+ and Forgejo 8+). Its name pattern is its key. Names are
 * case-insensitive on the server (GetUserIDsByNames, GetTeamIDsByNames look them up lower-cased):
 * compared lower-cased, as sorted sets, one element per plan line.
 */
export const entries: EntrySpec[] = [
  field(
    { name: 'whitelist_usernames', type: 'set', answer: 'string[]', normalize: nameSet, perElement: true },
    {
      title: 'Users allowed',
      ...names(
        'Users who may create, move and delete tags matching the pattern. Each must exist, and be able to read the repository (a collaborator, a member of a team that has it, or its owner): Gitea answers only such users, so another would be planned again on every run.',
        ['alice'],
      ),
    },
  ),
  field(
    { name: 'whitelist_teams', type: 'set', answer: 'string[]', normalize: nameSet, perElement: true },
    {
      title: 'Teams allowed',
      ...names(
        "Teams of the repository's organisation whose members may create, move and delete tags matching the pattern. Organisation repositories only (Gitea ignores team lists on a user's repository). Each team must exist (teams the same plan creates do) and have the repository.",
        ['releasers'],
      ),
    },
  ),
  formerNames('Former patterns of this protection: a protection with one of these patterns gets this one instead (the same protection, edited in place: EditTagProtection takes a new name_pattern) of a new one being created.'),
];

export const fields = serverFields(entries);

export const fragment: SchemaFragment = {
  definitions: {
    tag_protection: objectSchema(
      {
        title: 'Tag protection',
        description:
          'Who may push tags whose names match the key: a glob ("v*", "release-{a,b}") or, between slashes, a regular expression ("/^v[0-9]+$/"). Only the users and teams listed may create, move or delete such tags; a new protection needs at least one of them. A field that is not written is not managed.',
      },
      entries,
    ),
  },
};
