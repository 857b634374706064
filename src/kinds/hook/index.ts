import { defineKind } from '../../model/index.js';
import { exporting } from './export.js';
import { hookMeta } from './events.js';
import { writing } from './ops.js';
import { planning, safety } from './plan.js';
import { identityOf, reading, type HookTypes } from './read.js';

export { eventsToConfig, expandEvents, normalizeEvents } from './events.js';
export { hookKey } from './read.js';

/**
 * Admin webhooks (system and default). The server gives them no name: identity is scope + type +
 * url, and the change key reads e.g. "system gitea https://ci.example.com/hook". read.ts reads
 * them, plan.ts checks them, ops.ts writes them, export.ts exports them.
 */
export const hookKind = defineKind<HookTypes['config'], HookTypes['server'], HookTypes['prepared'], HookTypes['run']>({
  name: 'hook',
  title: 'admin webhook',
  pruneKey: 'hooks',
  configKey: 'hooks',
  sends: [{ struct: 'CreateHookOption' }, { struct: 'EditHookOption' }],
  scopeType: 'server',
  target: { type: 'hook', placeholder: 'URL', name: (key) => identityOf(key).url, acrossSlashes: true },
  ...hookMeta,
  ...reading,
  ...planning,
  ...safety,
  ...writing,
  ...exporting,
});
