import { defineKind } from '../../model/index.js';
import { userKind } from '../user/index.js';
import { exporting } from './export.js';
import { writing } from './ops.js';
import { planning, preparing } from './plan.js';
import { reading } from './read.js';
import type { CollaboratorTypes } from './types.js';

/**
 * The collaborators of a repository (`repos."owner/name".collaborators: { alice: write }`): users and
 * their permission (read, write, admin), as a set of objects keyed by user name. read.ts reads them (one
 * paged list, then the permission of each declared one the server has: no list carries it), plan.ts
 * checks them (the owner, users that do not exist), ops.ts writes them (one PUT or DELETE each),
 * export.ts exports them. Removal only under policy.prune: [collaborators].
 */
export const collaboratorKind = defineKind<CollaboratorTypes['config'], CollaboratorTypes['server'], CollaboratorTypes['prepared'], CollaboratorTypes['run']>({
  name: 'collaborator',
  // One collaboration per user and repository: a second PUT changes the first.
  uniqueNames: true,
  title: 'collaborator',
  pruneKey: 'collaborators',
  configKey: 'collaborators',
  scopeType: 'repo',
  actions: ['create', 'update', 'delete'],
  // A collaborator may be a user this plan creates (its PUT waits for the user's create).
  after: [userKind.name],
  ...reading,
  ...planning,
  ...preparing,
  ...writing,
  ...exporting,
});
