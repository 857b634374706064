import type { CurrentObject, KindExport } from '../../model/index.js';
import { eventsToConfig } from './events.js';
import { identityOf, SLACK_KEYS } from './read.js';

/**
 * A server hook as config (every hook kind's export): its identity (`identity`, in the order it is
 * written), then its fields; secrets are never read, so never exported.
 */
export function hookToConfig(current: CurrentObject, identity: Record<string, unknown>, type: string): Record<string, unknown> {
  const f = current.fields;
  const out: Record<string, unknown> = { ...identity, type, content_type: f.content_type, events: eventsToConfig(f.events) };
  if (f.branch_filter) out.branch_filter = f.branch_filter;
  out.active = f.active;
  if (f.name) out.name = f.name;
  if (type === 'slack') for (const k of SLACK_KEYS) if (f[k]) out[k] = f[k];
  return out;
}

export const exporting = {
  /** Hooks are a list in the config: their identity is scope + type + url, not a map key. */
  exportInto(config, objects) {
    config.hooks = Object.values(objects);
  },
  toConfig(current: CurrentObject) {
    const id = identityOf(current.key);
    return hookToConfig(current, { url: id.url, scope: id.scope }, id.type);
  },
} satisfies KindExport;
