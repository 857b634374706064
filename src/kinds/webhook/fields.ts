import type { ConfigDoc } from '../fields.js';
import { hookDefinition, hookEntries, urlEntry } from '../hook/fields.js';
import type { EntrySpec, SchemaFragment } from '../../model/index.js';

export { fields, SLACK_KEYS } from '../hook/fields.js';

/**
 * A repository's or an organisation's webhook: an admin hook without a scope (the same
 * `CreateHookOption` and `EditHookOption`, `routers/api/v1/utils/hook.go`). Identity: type + url.
 */
export const entries: EntrySpec[] = [urlEntry, ...hookEntries];

/** The `webhooks` section of a repository (`repos.<name>.webhooks`) or an organisation (`orgs.<name>.webhooks`). */
export function webhooksSection(of: 'repository' | 'organisation'): ConfigDoc {
  return {
    title: 'Webhooks',
    description: `Webhooks of the ${of}, a list: a hook has no name on the server, its identity is type + url (changing either is a delete and a create). With policy.prune containing "webhooks", webhooks of the ${of} not listed here are deleted. See docs/kinds/webhooks.md.`,
    type: 'array',
    items: { $ref: '#/definitions/webhook' },
  };
}

/** The webhook definition; the sections that hold webhooks (repos.*.webhooks, orgs.*.webhooks) belong to their scopes' kinds. */
export const fragment: SchemaFragment = {
  definitions: {
    webhook: hookDefinition(
      {
        title: 'Webhook',
        description:
          "A repository's or an organisation's webhook. Identity: type + url. A field that is not written is not managed, except that every edit sends the hook's whole state (Gitea resets what an edit omits). Slack hooks need channel.",
      },
      entries,
    ),
  },
};
