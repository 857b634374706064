import type { Writing } from '../../model/index.js';
import { hookOps } from '../hook/ops.js';
import { listPath, webhookIdentity } from './read.js';
import type { WebhookTypes } from './types.js';

/** Writing a webhook at its scope's list path: the admin hooks' requests (src/kinds/hook/ops.ts); an unknown id is 404 here. */
export const writing = {
  ops(input) {
    return hookOps(input, listPath(input.scope.segments), webhookIdentity, { '404': 'the hook no longer exists on the server: plan again' });
  },
} satisfies Writing<WebhookTypes>;
