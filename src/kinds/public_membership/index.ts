import { defineKind } from '../../model/index.js';
import { teamKind } from '../team/index.js';
import { exporting } from './export.js';
import { writing } from './ops.js';
import { planning, preparing, safety } from './plan.js';
import { reading } from './read.js';
import type { PublicMembershipTypes } from './types.js';

/**
 * Which members of an organisation show publicly (orgs.NAME.public_members, a set). Membership itself
 * comes from the teams (team kind): a member is made public after the team change that adds them.
 * Making a member private hides them and deletes nothing, and the set is exact where it is written,
 * as team members are: no prune key. read.ts reads it, plan.ts checks who may change whom, ops.ts
 * writes it (one request per member changed), export.ts exports it.
 */
export const publicMembershipKind = defineKind<PublicMembershipTypes['config'], PublicMembershipTypes['server'], PublicMembershipTypes['prepared'], PublicMembershipTypes['run']>({
  name: 'public_membership',
  uniqueNames: true,
  title: 'public members',
  pruneKey: '',
  configKey: 'public_members',
  scopeType: 'org',
  // A new organisation's object is created with it (create = the requests of every member made public).
  actions: ['create', 'update'],
  after: [teamKind.name],
  runState: () => ({ facts: new Map(), declared: new WeakMap() }),
  ...reading,
  ...planning,
  ...preparing,
  ...safety,
  ...writing,
  ...exporting,
});
