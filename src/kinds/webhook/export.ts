import type { CurrentObject, KindExport } from '../../model/index.js';
import { hookToConfig } from '../hook/export.js';
import { webhookIdentity } from './read.js';

export const exporting = {
  /** Webhooks are a list in the config: their identity is type + url, not a map key. */
  exportInto(entry, objects) {
    entry.webhooks = Object.values(objects);
  },
  toConfig(current: CurrentObject) {
    const id = webhookIdentity(current.key);
    return hookToConfig(current, { url: id.url }, id.type);
  },
} satisfies KindExport;
