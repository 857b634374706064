import { bool, byName, configEntry, field, objectSchema, serverFields, set, str, text } from '../fields.js';
import { durationString } from '../../go-duration.js';
import { labelTemplateEntry } from '../label/fields.js';
import { secretsEntry } from '../actions_secret/fields.js';
import { variablesEntry } from '../actions_variable/fields.js';
import { webhooksSection } from '../webhook/fields.js';
import type { EntrySpec, SchemaFragment } from '../../model/index.js';

/**
 * A repository's fields: what `create` sends when the repository is missing (never compared with an
 * existing one, see read.ts).
 */
export const entries: EntrySpec[] = [
  bool('private', {
    title: 'Private',
    description: 'Create the repository private (Gitea\'s default: public, unless the server forces private).',
  }),
  text('description', {
    title: 'Description',
    description: 'Description of the new repository.',
  }),
  bool('auto_init', {
    title: 'Initialise',
    description: 'Create a first commit with the readme, .gitignore and license below (otherwise the repository is empty).',
  }),
  str('default_branch', {
    title: 'Default branch',
    description: 'Name of the default branch (Gitea\'s default: the server\'s setting, usually main).',
    minLength: 1,
  }),
  set('gitignores', {
    title: '.gitignore templates',
    description: 'Names of the server\'s .gitignore templates (GET /gitignore/templates), e.g. [Go, Node]; checked when the plan is made. Used with auto_init.',
  }),
  str('license', {
    title: 'License',
    description: 'Name of one of the server\'s license templates (GET /licenses), e.g. MIT; checked when the plan is made. Used with auto_init.',
    minLength: 1,
  }),
  str('readme', {
    title: 'Readme template',
    description: 'Name of a readme template of the server: a built-in one (every release ships "Default" only) or one of its custom/options/readme declared in policy.readme_templates (no API lists them); checked when the plan is made, case-sensitively. Used with auto_init (default "Default").',
    minLength: 1,
  }),

];

/**
 * A pull mirror's fields (`mirror:`): what `POST /repos/migrate` sends when the repository is missing; of an
 * existing mirror only the interval is compared (and changed with PATCH /repos/{o}/{r} mirror_interval).
 */
export const mirrorEntries: EntrySpec[] = [
  // Sent as clone_addr; compared with no server value (the API cannot change a mirror's remote: see notices in plan.ts).
  field({ name: 'from', type: 'scalar', normalize: (v) => (v === null || v === undefined ? '' : String(v).trim()) }, {
    title: 'Mirrored from',
    description: 'The repository mirrored: an http(s) or git URL without credentials (declare username and password instead). Used when the mirror is created; the API cannot change it afterwards (the plan warns when the mirror\'s source differs).',
    type: 'string',
    pattern: '^(https?|git)://[^\\s]+$',
    patternErrorMessage: 'must be an http://, https:// or git:// URL without spaces',
  }),
  field({ name: 'username', type: 'scalar', writeOnly: true, createOnly: true }, {
    title: 'User name (write-only)',
    description: 'The user name the mirror fetches as. Sent when the mirror is created; the server never answers it and its API cannot change it.',
    type: 'string',
    minLength: 1,
  }),
  field({ name: 'password', type: 'scalar', writeOnly: true, sensitive: true, createOnly: true }, {
    title: 'Password or token (write-only, secret)',
    description: 'The password or token the mirror fetches with. Must come from an environment variable ("${NAME}"): never printed nor saved in a plan file. Sent when the mirror is created; the server never answers it and its API cannot change it (change it in the web UI: Settings → Mirror settings).',
    type: 'string',
    minLength: 1,
  }),
  field({ name: 'interval', type: 'scalar', normalize: durationString }, {
    title: 'Interval',
    description: 'How often the mirror fetches, as a Go duration ("8h", "1h30m"); "0" turns the periodic sync off. Compared as the server answers it ("8h" is "8h0m0s") and changed in place. The server refuses an interval below its [mirror] MIN_INTERVAL (10m by default) other than 0. Default on create: the server\'s DEFAULT_INTERVAL (8h).',
    type: 'string',
    pattern: '^[+]?((\\d+(\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h))+$|^0$',
    patternErrorMessage: 'must be a duration like "8h", "1h30m" or "10m", or "0"',
  }),
  bool('private', { title: 'Private', description: 'Create the mirror private (or the server forces private).' }),
  text('description', { title: 'Description', description: 'Description of the new mirror.' }),
];

/** The fields of both ways of creating a repository (private and description are the same field in both). */
export const fields = [...serverFields(entries), ...serverFields(mirrorEntries).filter((f) => !serverFields(entries).some((e) => e.name === f.name))];

/** What a repository entry holds: `create`, and the sections of the kinds that live in a repository. */
export const scopeEntries: EntrySpec[] = [
  configEntry(
    'create',
    objectSchema(
      {
        title: 'Create the repository',
        description:
          "Create the repository when it is missing (POST /admin/users/{owner}/repos, on behalf of its owner, a user or an organisation; needs a site administrator's token). Only used for creation: these values are never compared with an existing repository, and forgeform never deletes repositories. Not allowed on globs. Write create: {} for a repository with Gitea's defaults.",
      },
      entries,
    ),
  ),
  configEntry(
    'mirror',
    objectSchema(
      {
        title: 'Pull mirror',
        description:
          "Create the repository, when it is missing, as a mirror of another repository (POST /repos/migrate with mirror: true, on behalf of its owner). Of an existing mirror only the interval is managed; an existing repository that is not a mirror cannot be made one. Not with create:, not allowed on globs. See docs/kinds/repositories.md.",
        required: ['from'],
      },
      mirrorEntries,
    ),
  ),
  configEntry('exclude', {
    title: 'Excluded repositories',
    description:
      'On a glob entry only: repositories it does not apply to, by full name or glob ("acme/legacy", "acme/archive-*"; a name without "/" is one of the glob\'s owner). Compared as the server compares names (case-insensitively). An exact entry for an excluded repository still applies to it.',
    type: 'array',
    uniqueItems: true,
    items: { type: 'string', minLength: 1 },
  }),
  configEntry('inherit', {
    title: 'Inherit from globs',
    description:
      'On an exact entry only: false takes nothing from the globs that match the repository (their exclude: is the other way). To drop one object a glob gives, write its name with null instead: `branch_protections: { main: null }` (labels, branch_protections, tag_protections, collaborators, secrets, variables).',
    type: 'boolean',
  }),
  labelTemplateEntry,
  configEntry(
    'labels',
    byName(
      {
        title: 'Labels',
        description: 'Labels of the repository, by name. With policy.prune containing "labels", labels of the repository not listed here (nor in label_template) are deleted.',
      },
      { type: 'string', minLength: 1, errorMessage: 'must be a non-empty label name' },
      'label',
      { droppable: true },
    ),
  ),
  configEntry(
    'branch_protections',
    byName(
      {
        title: 'Branch protections',
        description: 'Branch protection rules, by rule name: a branch name or a glob such as "release/*". With policy.prune containing "branch_protections", rules not listed here are deleted.',
      },
      { type: 'string', minLength: 1, errorMessage: 'must be a non-empty rule name' },
      'branch_protection',
      { droppable: true },
    ),
  ),
  configEntry(
    'issues',
    byName(
      {
        title: 'Issues',
        description: "Chosen issues of the repository, by index (the number in the issue's URL). Only the fields written here are managed; issues are never created or deleted.",
      },
      { type: 'string', pattern: '^[1-9][0-9]*$', errorMessage: 'must be an issue index (a positive number)' },
      'issue',
    ),
  ),
  configEntry('settings', {
    title: 'Repository settings',
    description:
      'Settings of the existing repository (description, visibility, units, merge styles, topics…): only the fields written are managed. See docs/kinds/settings.md.',
    $ref: '#/definitions/repo_settings',
  }),
  secretsEntry('repository'),
  variablesEntry('repository'),
  configEntry(
    'collaborators',
    byName(
      {
        title: 'Collaborators',
        description:
          'Users with access to the repository, each with its permission: read, write or admin (`alice: write`). Users not listed are left alone, unless policy.prune contains "collaborators": then they are removed. The owner and the members of the organisation\'s teams are not collaborators. See docs/kinds/collaborators.md.',
      },
      { type: 'string', minLength: 1, pattern: '^[A-Za-z0-9_.-]+$', errorMessage: 'must be a user name (letters, digits, "-", "_" and ".")' },
      'collaborator',
      { droppable: true },
    ),
  ),
  configEntry(
    'tag_protections',
    byName(
      { title: 'Tag protections', description: 'Tag protections of the repository, by name pattern (a glob such as "v*", or a regular expression between slashes): who may push matching tags. Gitea 1.23 and newer, Forgejo 8 and newer. With policy.prune containing "tag_protections", tag protections not listed here are deleted. See docs/kinds/tag-protections.md.' },
      { type: 'string', minLength: 1, errorMessage: 'must be a non-empty tag name pattern' },
      'tag_protection',
      { droppable: true },
    ),
  ),
  configEntry('push_mirrors', {
    title: 'Push mirrors',
    description:
      'Remotes this repository is pushed to, as a list identified by remote_address. The server cannot edit a push mirror: a change is a delete and a create. With policy.prune containing "push_mirrors", push mirrors not listed here are deleted. See docs/kinds/push-mirrors.md.',
    type: 'array',
    items: { $ref: '#/definitions/push_mirror' },
  }),
  configEntry('webhooks', webhooksSection('repository')),
  configEntry(
    'deploy_keys',
    byName(
      {
        title: 'Deploy keys',
        description:
          'SSH keys with access to this repository alone, by title (a title is one key; one key is one title per repository). The server cannot edit a deploy key: a changed key or read_only is a delete and a create. With policy.prune containing "deploy_keys", deploy keys not listed here are deleted. See docs/kinds/deploy-keys.md.',
      },
      { type: 'string', minLength: 1, errorMessage: 'must be a non-empty deploy key title' },
      'deploy_key',
      { droppable: true },
    ),
  ),
  // npm run new-kind adds the section of a new repository kind here.
];

/** The `repos` section, the repositories' policy entries (mirror-interval.ts, templates.ts) and the repository definition. */
export const fragment: SchemaFragment = {
  policy: {
    mirror_min_interval: {
      title: 'Minimum mirror interval',
      description:
        'The server\'s [mirror] MIN_INTERVAL (app.ini), which its API does not report: a pull mirror\'s interval below it, other than 0, is refused at plan time (the server would refuse it). Default 10m, the server\'s default; set it when the server allows less (never below 1m).',
      type: 'string',
      pattern: '^[+]?((\\d+(\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h))+$',
      patternErrorMessage: 'must be a duration like "10m" or "1m"',
      default: '10m',
    },
    readme_templates: {
      title: 'Custom readme templates',
      description:
        'Names of the readme templates the administrator added under the server\'s custom/options/readme, which its API does not list. A repository to create whose readme is neither one of these nor a built-in template of the release ("Default") is refused at plan time (the server would answer 400 "readme template does not exist"). Names are case-sensitive.',
      type: 'array',
      uniqueItems: true,
      items: { type: 'string', minLength: 1 },
      default: [],
    },
  },
  properties: {
    repos: byName(
      {
        title: 'Repositories',
        description: 'Repositories, by "owner/name", or a glob over an owner\'s repositories such as "acme/*" (exact entries are merged over the globs that match them).',
      },
      {
        type: 'string',
        pattern: '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.*?\\-\\[\\]{},]+$',
        patternErrorMessage: 'must be "owner/name" or a glob over an owner\'s repositories like "acme/*"',
      },
      'repo',
    ),
  },
  definitions: {
    repo: objectSchema({ title: 'Repository', description: 'Settings of one repository, or of every repository matching a glob.' }, scopeEntries),
  },
};
