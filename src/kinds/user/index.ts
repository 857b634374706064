import { defineKind } from '../../model/index.js';
import { exporting } from './export.js';
import { runState } from './guards.js';
import { writing } from './ops.js';
import { planning, preparing, safety } from './plan.js';
import { userPolicy } from './policy.js';
import { reading } from './read.js';
import type { UserTypes } from './types.js';

/**
 * A site user (admin/users) with its badges and SSH keys. read.ts reads it, plan.ts checks it,
 * guards.ts keeps forgeform from deleting, demoting or locking out the users it must keep, ops.ts
 * writes it, export.ts exports it.
 */
export const userKind = defineKind<UserTypes['config'], UserTypes['server'], UserTypes['prepared'], UserTypes['run'], UserTypes['meta'], UserTypes['declared']>({
  name: 'user',
  uniqueNames: true,
  title: 'user',
  pruneKey: 'users',
  configKey: 'users',
  // The binding rules of these structs are checked at plan time (src/plan/field-rules.ts).
  // The e-mail is judged by plan.ts as the handler does (validateEmailBasic), a stricter rule than the binding's.
  sends: [
    { struct: 'CreateUserOption', key: 'username', own: ['email'] },
    { struct: 'EditUserOption', own: ['email'] },
  ],
  scopeType: 'server',
  actions: ['create', 'update', 'rename', 'delete'],
  target: { type: 'user', placeholder: 'NAME' },
  runState,
  policy: userPolicy,
  ...reading,
  ...planning,
  ...preparing,
  ...safety,
  ...writing,
  ...exporting,
});
