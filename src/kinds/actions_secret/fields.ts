import { field, inEither, inForgejo, inGitea, objectSchema, serverFields } from '../fields.js';
import { actionsSection, descriptionField } from '../actions-values.js';
import type { ConfigEntry, EntrySpec, SchemaFragment } from '../../model/index.js';

/**
 * A repository's secret list (GET /repos/{o}/{r}/actions/secrets): Gitea 1.22 (#30656), Forgejo 8 (the same
 * commit, 7b456a28d1, after Forgejo 7 branched: Forgejo v8.0.0 routers/api/v1/api.go l.765-770 in addActionsRoutes,
 * registered for repositories l.1035-1039). Gitea 1.21 and Forgejo 7 can PUT and DELETE a repository's
 * secrets but not list them, so nothing could tell a secret to create from one that exists: the kind needs
 * the list. An organisation's secrets are listed by every release (Gitea v1.21.11 routers/api/v1/api.go:1425).
 */
export const REPO_SECRET_ROUTES = inEither(inGitea('1.22'), inForgejo('8'));

/**
 * Releases whose secret lookups match the owner alone when no repository is given (models/secret/secret.go
 * FindSecretsOptions.toConds: Gitea v1.21.11 and v1.22.6 l.84-100, Forgejo v7.0.16 l.84-100), while a repository's
 * secret put through the API carries its owner too (Gitea v1.21.11 routers/api/v1/repo/action.go:61, Forgejo
 * v7.0.16 :61): there an organisation's list, PUT and DELETE also reach such secrets of its repositories. Gitea
 * v1.23.8 (l.95-114) and Forgejo v11.0.15 ask repo_id = 0 too. Forgejo v8.0.0 is still owner-only (secret.go
 * l.84-100, repo/action.go l.125 `CreateOrUpdateSecret(ctx, owner.ID, repo.ID, …)`); v9.0.0 asks repo_id = 0
 * (secret.go l.95-113) and puts a repository's secret with owner 0 (repo/action.go l.124; #31724, 6844258c67).
 */
export const ORG_LOOKUP_REACHES_REPOS = { gitea: { until: '1.22' }, forgejo: { until: '8' } };

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
  descriptionField('Text shown with the secret (Gitea 1.24 and newer; at most 4096 characters). Read back and compared; changing it sends the value again (the server takes both in one request).'),
];

export const fields = serverFields(entries);

/** A scope's `secrets` section (repositories and organisations alike). */
export function secretsEntry(of: 'repository' | 'organisation'): ConfigEntry {
  return actionsSection('secret', of, `; their values come from environment variables.${of === 'repository' ? ' Gitea 1.22+ or Forgejo 8+.' : ''}`);
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
