import { bool, configEntry, field, inGitea, objectSchema, only, serverFields, str } from '../fields.js';
import type { ConfigSchema, EntrySpec, SchemaFragment } from '../../model/index.js';
import { normalizeEvents } from './events.js';

/** A Slack hook's own settings (in its `config` on the server); no other type has them. */
export const SLACK_KEYS = ['channel', 'username', 'icon_url', 'color'];

/** A hook's URL: part of the identity of every hook (admin, repository and organisation ones). */
export const urlEntry = configEntry('url', {
  title: 'URL',
  description: 'Where deliveries are sent: an absolute http(s) URL. Part of the identity.',
  type: 'string',
  pattern: '^https?://',
  patternErrorMessage: 'must be an http:// or https:// URL',
});

/** The hook types, as `type` takes them; `forgejo` and `sourcehut_builds` are Forgejo's (src/kinds/hook/events.ts hookFeatures). */
export const HOOK_TYPES = ['gitea', 'forgejo', 'gogs', 'slack', 'discord', 'dingtalk', 'telegram', 'msteams', 'feishu', 'matrix', 'wechatwork', 'packagist', 'sourcehut_builds'];

/**
 * What every hook declares beside its identity (its type, then its fields and secrets): admin hooks add
 * their scope, repository and organisation webhooks use these as they are.
 */
export const hookEntries: EntrySpec[] = [
  configEntry('type', {
    title: 'Type',
    description: 'Kind of receiver. Part of the identity. Default: gitea. forgejo and sourcehut_builds exist on Forgejo only. The API cannot set the room of matrix hooks, the package of packagist hooks nor the manifest of sourcehut_builds hooks, so forgeform only manages such hooks when they already exist.',
    type: 'string',
    enum: HOOK_TYPES,
    default: 'gitea',
  }),
  str('content_type', {
    title: 'Content type',
    description: 'json or form. Default on create: json.',
    enum: ['json', 'form'],
  }),
  // Kept as written in the config (what is sent and shown); compared after Gitea's expansion (see compare in read.ts).
  field({ name: 'events', type: 'set', normalize: normalizeEvents }, {
    title: 'Events',
    description: 'Events that trigger a delivery, as a set. issues stands for issues and its issue_* events, pull_request for pull_request and its pull_request_* events (issues_only / pull_request_only select just the one); compared after that expansion, as Gitea stores it. Empty or omitted on create: [push]. Some events exist only in some releases (package: Gitea 1.23+ and Forgejo 14+; status: Gitea 1.23+; workflow_job: Gitea 1.24+; workflow_run: Gitea 1.25+; action_run_failure, action_run_recover, action_run_success: Forgejo 14+), and Gitea before 1.24 and Forgejo cannot add or remove package, status or action_run_* events of an existing hook (its edit leaves them as they are): the plan says so.',
    items: { type: 'string', enum: ['create', 'delete', 'fork', 'push', 'repository', 'wiki', 'release', 'package', 'status', 'workflow_run', 'workflow_job', 'action_run_failure', 'action_run_recover', 'action_run_success', 'issues', 'issues_only', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment', 'pull_request', 'pull_request_only', 'pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment', 'pull_request_review', 'pull_request_review_request', 'pull_request_sync'] },
  }),
  str('branch_filter', {
    title: 'Branch filter',
    description: 'Glob of the branches whose push, create and delete events are delivered (e.g. "main" or "{main,release/*}"); "" or "*": all.',
  }),
  bool('active', {
    title: 'Active',
    description: 'Whether deliveries are sent. forgeform creates hooks active unless this is false (Gitea\'s own default is inactive).',
  }),
  // Gitea 1.26 (#37025, modules/structs/hook.go); no Forgejo: elsewhere ignored, never converges.
  only(inGitea('1.26'), str('name', {
    title: 'Name',
    description: 'Display name of the hook (Gitea 1.26 and newer).',
  })),
  str('channel', {
    title: 'Slack channel',
    description: 'Slack only, and required there: the channel, e.g. "#ci".',
    pattern: '^#?[a-z0-9_-]{1,80}$',
    patternErrorMessage: 'must be a Slack channel like "#ci" (lower-case letters, digits, "-" and "_")',
  }),
  str('username', {
    title: 'Slack user name',
    description: 'Slack only: the name the messages are posted as.',
  }),
  str('icon_url', {
    title: 'Slack icon URL',
    description: 'Slack only: the icon the messages are posted with.',
  }),
  str('color', {
    title: 'Slack colour',
    description: 'Slack only: the colour of the message attachment.',
  }),
  // Never returned; Gitea cannot change the secret in place.
  field({ name: 'secret', type: 'scalar', writeOnly: true, sensitive: true }, {
    title: 'Secret (write-only, secret)',
    description: 'Secret that signs deliveries. Must come from an environment variable: never printed nor saved in a plan file. Gitea never returns it and cannot change it in place: it is sent when the hook is created, and --rotate-secrets replaces the hook (delete + create) to change it.',
    type: 'string',
    minLength: 1,
  }),
  // Write-only where the server hides it (Gitea 1.27), and cleared on an edit without it; released servers
  // return it, and read() then gives it to the diff.
  field({ name: 'authorization_header', type: 'scalar', writeOnly: true, sensitive: true, resendOnEdit: true }, {
    title: 'Authorization header (write-only, secret)',
    description: 'Value of the Authorization header of deliveries, e.g. "Bearer ${CI_TOKEN}". Must use an environment variable: never printed nor saved in a plan file. Gitea does not return it and clears it on any edit that omits it, so forgeform sends it with every edit of the hook.',
    type: 'string',
    minLength: 1,
  }),
];

/** An admin hook's config: its identity (url, scope, type: not fields), its fields, then its secrets. */
export const entries: EntrySpec[] = [
  urlEntry,
  configEntry('scope', {
    title: 'Scope',
    description: 'system: fires for every repository of the server; default: copied into every repository created afterwards. Part of the identity. Default: system.',
    type: 'string',
    enum: ['system', 'default'],
    default: 'system',
  }),
  ...hookEntries,
];

/** The server fields of every hook (the identity entries are config only). */
export const fields = serverFields(entries);

/** A config that holds a key (of type string). */
const holds = (key: string): ConfigSchema => ({ properties: { [key]: { type: 'string' } }, required: [key] });

/** A hook's definition: url required; Slack hooks need a channel, other types take no Slack key. */
export function hookDefinition(doc: { title: string; description: string }, of: EntrySpec[]): ConfigSchema {
  return objectSchema(
    {
      ...doc,
      required: ['url'],
      if: { properties: { type: { const: 'slack' } }, required: ['type'] },
      then: holds('channel'),
      else: {
        not: { anyOf: SLACK_KEYS.map(holds) },
        errorMessage: `${SLACK_KEYS.slice(0, -1).join(', ')} and ${SLACK_KEYS.at(-1)} are Slack settings: they need type: slack`,
      },
    },
    of,
  );
}

/** The `hooks` section and the hook definition: Slack hooks need a channel, other types take no Slack key. */
export const fragment: SchemaFragment = {
  properties: {
    hooks: {
      title: 'Admin webhooks',
      description:
        "System and default webhooks of the server (needs a site administrator's token with the write:admin scope). A hook has no name on the server: its identity is scope + type + url, and changing any of the three is a delete and a create. Lists from several files are concatenated; the same identity twice is an error.",
      type: 'array',
      items: { $ref: '#/definitions/hook' },
    },
  },
  definitions: {
    hook: hookDefinition(
      {
        title: 'Admin webhook',
        description:
          "A system or default webhook. Identity: scope + type + url. A field that is not written is not managed, except that every edit sends the hook's whole state (Gitea resets what an edit omits). Slack hooks need channel.",
      },
      entries,
    ),
  },
};
