import { bool, inForgejo, inGitea, objectSchema, only, serverFields } from '../fields.js';
import type { EntrySpec, KindFeature, SchemaFragment } from '../../model/index.js';

export const features = {
  /** PATCH /admin/actions/runners/{id} {disabled}: Gitea 1.26 (#36776); no Forgejo (routers/api/v1/api.go of each tag). */
  edit: { availability: inGitea('1.26') },
  /**
   * Forgejo's list answers a bare array with X-Total-Count (Gitea: {runners, total_count}), and has
   * only the instance's own runners unless visible=true (routers/api/v1/shared/runners.go,
   * models/actions/runner.go FindRunnerOptions.ToConds, v15.0.3).
   */
  bareList: { availability: inForgejo('15') },
} satisfies Record<string, KindFeature>;

/** A runner's config: its one editable field, where the release can edit it. */
export const entries: EntrySpec[] = [
  only(
    features.edit.availability,
    bool('disabled', {
      title: 'Disabled',
      description: 'A disabled runner takes no new jobs. Gitea 1.26 and newer only (no other release can change it through the API: forgeform refuses it there).',
    }),
  ),
];

export const fields = serverFields(entries);

/** The `actions` section (its `runners`) and the runner definition. */
export const fragment: SchemaFragment = {
  properties: {
    actions: {
      title: 'Actions',
      description: 'Gitea Actions settings of the server.',
      type: 'object',
      additionalProperties: false,
      properties: {
        runners: {
          title: 'Runners',
          description:
            "The server's own (global) Actions runners, by name (needs a site administrator's token with the write:admin scope, and Gitea 1.24 or newer, or Forgejo 15 or newer: older releases have no runner API; on Gitea also read access to organisations, repositories and users, whose runner lists tell a global runner from the others). forgeform cannot register runners: a declared runner must exist as a global runner. A runner registered for a repository, an organisation or a user is never matched, changed, pruned or exported, whatever its name. With policy.prune containing runners, global runners not listed here are deleted.",
          type: 'object',
          propertyNames: { type: 'string', minLength: 1, errorMessage: 'must be a non-empty runner name' },
          additionalProperties: { $ref: '#/definitions/runner' },
        },
      },
    },
  },
  definitions: {
    runner: objectSchema({ title: 'Runner', description: 'One registered Actions runner, by name.' }, entries),
  },
};
