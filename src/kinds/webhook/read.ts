import { apiPath } from '../../gitea/path.js';
import type { Reading } from '../../model/index.js';
import { hookObject, listedHook, shape, type ServerHook } from '../hook/read.js';
import { fields } from './fields.js';
import type { WebhookTypes } from './types.js';

/** A webhook's key: "gitea https://ci.example.com/hook" (type + url, as the plan shows it). */
export const webhookKey = (type: string, url: string): string => `${type} ${url}`;

/** The type and url of a key (a url holds no space: the type is the first word). */
export function webhookIdentity(key: string): { type: string; url: string } {
  const at = key.indexOf(' ');
  return { type: key.slice(0, at), url: key.slice(at + 1) };
}

/** The hooks of a scope: repos/{owner}/{repo}/hooks or orgs/{org}/hooks. */
export function listPath(segments: string[]): string {
  return apiPath(...segments, 'hooks');
}

/** Reading webhooks: one paged list per repository or organisation (`ListHooks`, `ListOwnerHooks`), which carries every field. */
export const reading = {
  fields,
  shape,

  async read({ scope, ctx }) {
    const hooks = await ctx.client.list<ServerHook>(listPath(scope.segments), { object: `webhooks of ${scope.name}`, shape });
    return hooks.map((h) => listedHook(h, webhookKey, ctx.server));
  },

  fromServer(raw) {
    return hookObject(raw, webhookKey);
  },
} satisfies Reading<WebhookTypes>;
