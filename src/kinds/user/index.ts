import type { Kind } from '../../model/index.js';
import { exporting } from './export.js';
import { writing } from './ops.js';
import { planning } from './plan.js';
import { userPolicy } from './policy.js';
import { reading } from './read.js';

/**
 * A site user (admin/users) with its badges and SSH keys. read.ts reads it, plan.ts checks it,
 * guards.ts keeps forgeform from deleting, demoting or locking out the users it must keep, ops.ts
 * writes it, export.ts exports it.
 */
export const userKind: Kind = {
  name: 'user',
  uniqueNames: true,
  title: 'user',
  pruneKey: 'users',
  configKey: 'users',
  scopeType: 'server',
  actions: ['create', 'update', 'rename', 'delete'],
  target: { type: 'user', placeholder: 'NAME' },
  policy: userPolicy,
  ...reading,
  ...planning,
  ...writing,
  ...exporting,
};
