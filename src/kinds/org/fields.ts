import { byName, configEntry, objectSchema, serverFields, str, text } from '../fields.js';
import { labelTemplateEntry } from '../label/fields.js';
import { section as publicMembersSection } from '../public_membership/fields.js';
import { secretsEntry } from '../actions_secret/fields.js';
import { variablesEntry } from '../actions_variable/fields.js';
import { webhooksSection } from '../webhook/fields.js';
import type { EntrySpec, SchemaFragment } from '../../model/index.js';

/** An organisation's config: `owner` (to create it), its fields, then the labels it holds. */
export const entries: EntrySpec[] = [
  configEntry('owner', {
    title: 'Owner (creates the organisation)',
    description: 'User who owns the organisation when forgeform creates it (POST /admin/users/{owner}/orgs; needs a site administrator\'s token). Only used when the organisation is missing; never compared. Without it, a missing organisation is an error.',
    type: 'string',
    minLength: 1,
  }),
  str('full_name', {
    title: 'Full name',
    description: 'Display name of the organisation.',
  }),
  text('description', {
    title: 'Description',
    description: 'Description of the organisation.',
  }),
  str('visibility', {
    title: 'Visibility',
    description: 'public: everyone; limited: signed-in users; private: members only.',
    enum: ['public', 'limited', 'private'],
  }),
  str('website', {
    title: 'Website',
    description: 'An http(s) URL, or "" for none.',
  }),
  str('location', {
    title: 'Location',
    description: 'Where the organisation is.',
  }),
  str('email', {
    title: 'E-mail',
    description: 'Public e-mail address of the organisation, or "" for none. Gitea ≤ 1.25 and Forgejo ≤ 9 cannot clear it through the API: "" is then a plan error while the organisation has one.',
  }),
  labelTemplateEntry,
  configEntry(
    'labels',
    byName(
      {
        title: 'Labels',
        description: 'Labels of the organisation, by name. With policy.prune containing "labels", labels of the organisation not listed here (nor in label_template) are deleted.',
      },
      { type: 'string', minLength: 1, errorMessage: 'must be a non-empty label name' },
      'label',
    ),
  ),
  configEntry(
    'teams',
    byName(
      {
        title: 'Teams',
        description: 'Teams of the organisation, by name, with their members and repositories. With policy.prune containing "teams", teams of the organisation not listed here are deleted (never the Owners team).',
      },
      { type: 'string', pattern: '^[A-Za-z0-9_.-]+$', patternErrorMessage: 'must be a team name (letters, digits, "-", "_" and ".")' },
      'team',
    ),
  ),
  configEntry('public_members', publicMembersSection),
  secretsEntry('organisation'),
  variablesEntry('organisation'),
  configEntry('webhooks', webhooksSection('organisation')),
  // npm run new-kind adds the section of a new organisation kind here.
];

export const fields = serverFields(entries);

/** The `orgs` section and the organisation definition. */
export const fragment: SchemaFragment = {
  properties: {
    orgs: byName(
      { title: 'Organisations', description: 'Organisations, by name.' },
      { type: 'string', pattern: '^[A-Za-z0-9_.-]+$', patternErrorMessage: 'must be an organisation name (letters, digits, "-", "_" and ".")' },
      'org',
    ),
  },
  definitions: {
    org: objectSchema(
      {
        title: 'Organisation',
        description: 'Settings of one organisation. owner creates it when it is missing; full_name, description, visibility, website, location and email are managed when written.',
      },
      entries,
    ),
  },
};
