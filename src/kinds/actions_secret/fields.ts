import { byName, configEntry, field, inEither, inForgejo, inGitea, objectSchema, only, serverFields, text } from '../fields.js';
import { actionsNameSchema, DESCRIPTIONS } from '../actions_variable/fields.js';
import type { ConfigEntry, EntrySpec, SchemaFragment } from '../../model/index.js';

/**
 * A repository's secret list (GET /repos/{o}/{r}/actions/secrets): Gitea 1.22 (#30656), Forgejo 8 (the same
 * commit, 7b456a28d1, after Forgejo 7 branched). Gitea 1.21 and Forgejo 7 can PUT and DELETE a repository's
 * secrets but not list them, so nothing could tell a secret to create from one that exists: the kind needs
 * the list. An organisation's secrets are listed by every release (Gitea v1.21.11 routers/api/v1/api.go:1425).
 */
export const REPO_SECRET_ROUTES = inEither(inGitea('1.22'), inForgejo('8'));

/** A secret's config: its value (write-only, from the environment) and, where the release has it, its description. */
export const entries: EntrySpec[] = [
  // Never answered (api.Secret is name, description, created_at); a PUT needs it (binding Required), so it rides along with every edit.
  field(
    { name: 'value', type: 'scalar', writeOnly: true, sensitive: true, resendOnEdit: true },
    {
      title: 'Value (write-only, secret)',
      description:
        'The value workflows read as ${{ secrets.NAME }}. Must come from an environment variable ("${DEPLOY_TOKEN}"): it is never printed nor saved in a plan file. The server never returns it, so a changed value cannot be seen: it is sent when the secret is created, with any edit of its description, and to every declared secret with --rotate-secrets.',
      type: 'string',
      minLength: 1,
    },
  ),
  only(
    DESCRIPTIONS,
    text('description', {
      title: 'Description',
      description: 'Text shown with the secret (Gitea 1.24 and newer; at most 4096 characters). Read back and compared; changing it sends the value again (the server takes both in one request).',
      maxLength: 4096,
    }),
  ),
];

export const fields = serverFields(entries);

/** A scope's `secrets` section (repositories and organisations alike). */
export function secretsEntry(of: 'repository' | 'organisation'): ConfigEntry {
  return configEntry(
    'secrets',
    byName(
      {
        title: 'Actions secrets',
        description: `Actions secrets of the ${of}, by name (upper-case); their values come from environment variables.${of === 'repository' ? ' Gitea 1.22+ or Forgejo 8+.' : ''} With policy.prune containing "secrets", secrets of the ${of} not listed here are deleted. See docs/kinds/secrets.md.`,
      },
      actionsNameSchema('secret'),
      'actions_secret',
    ),
  );
}

/** The secret definition; the sections that hold secrets (repos.*.secrets, orgs.*.secrets) belong to their scopes' kinds. */
export const fragment: SchemaFragment = {
  definitions: {
    actions_secret: objectSchema(
      { title: 'Actions secret', description: 'An Actions secret, keyed by its name (upper-case). Its value is write-only: never read back, never printed.', required: ['value'] },
      entries,
    ),
  },
};
