import { declaredHooks, hookCompare, hookNotes, hookRefusals, type HookHome } from '../hook/plan.js';
import type { Planning, Reading, Safety } from '../../model/index.js';
import type { WebhookConfig } from '../../config/types.js';
import { webhookIdentity, webhookKey } from './read.js';
import type { WebhookTypes } from './types.js';

/** The config section of each scope type, and where refusals send the user. */
const HOMES = {
  repo: { section: 'repos', edit: 'PATCH /repos/{owner}/{repo}/hooks/{id}', ui: "the repository's Settings → Webhooks" },
  org: { section: 'orgs', edit: 'PATCH /orgs/{org}/hooks/{id}', ui: "the organisation's Settings → Webhooks" },
} satisfies Record<string, HookHome & { section: string }>;

const homeOf = (type: string) => (type === 'org' ? HOMES.org : HOMES.repo);

/** Planning webhooks: the admin hooks' rules (src/kinds/hook/plan.ts), with type + url as identity. */
export const planning = {
  async desired({ entry, scope, ctx }) {
    const hooks = entry?.webhooks;
    if (!hooks) return undefined;
    return declaredHooks(hooks, [homeOf(scope.type).section, scope.name, 'webhooks'], ['url', 'type'], (h: WebhookConfig) => {
      const type = h.type ?? 'gitea';
      return { key: webhookKey(type, h.url), described: `type ${type}, url ${h.url}` };
    }, ctx);
  },

  compare: hookCompare,

  check({ desired, current, scope, ctx }) {
    return hookRefusals(desired, current, webhookIdentity(desired.key).type, ctx, homeOf(scope.type));
  },
} satisfies Planning<WebhookTypes> & Pick<Reading<WebhookTypes>, 'compare'>;

export const safety = {
  async annotate({ change }) {
    return hookNotes(change);
  },
} satisfies Safety<WebhookTypes>;
