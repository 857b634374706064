import { defineKind, type Kind } from '../../model/index.js';
import { hookMeta } from '../hook/events.js';
import { exporting } from './export.js';
import { writing } from './ops.js';
import { planning, safety } from './plan.js';
import { reading } from './read.js';
import type { WebhookTypes } from './types.js';

/**
 * Webhooks of a repository or an organisation: one family of two kinds, alike but for their scope
 * type (src/kinds/webhook holds both), built on the admin hooks' code (src/kinds/hook: the same
 * create and edit handlers, `routers/api/v1/utils/hook.go`). A hook has no name: its identity is type +
 * url, and the change key reads e.g. "gitea https://ci.example.com/hook". read.ts reads them, plan.ts
 * checks them, ops.ts writes them, export.ts exports them.
 */
function webhookKind(scopeType: 'repo' | 'org', title: string): Kind {
  return defineKind<WebhookTypes['config'], WebhookTypes['server'], WebhookTypes['prepared'], WebhookTypes['run']>({
    name: `${scopeType}_webhook`,
    title,
    pruneKey: 'webhooks',
    configKey: 'webhooks',
    sends: [{ struct: 'CreateHookOption' }, { struct: 'EditHookOption' }],
    scopeType,
    ...hookMeta,
    ...reading,
    ...planning,
    ...safety,
    ...writing,
    ...exporting,
  });
}

export const repoWebhookKind = webhookKind('repo', 'repository webhook');
export const orgWebhookKind = webhookKind('org', 'organisation webhook');
