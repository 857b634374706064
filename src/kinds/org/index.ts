import { defineKind } from '../../model/index.js';
import { userKind } from '../user/index.js';
import { exporting } from './export.js';
import { writing } from './ops.js';
import { planning, preparing } from './plan.js';
import { reading, type OrgTypes } from './read.js';

export { userChangeIds } from './ops.js';

/**
 * Organisations as objects of the server: `orgs.NAME.owner` creates a missing one (admin API, on
 * behalf of the owner); full_name, description, visibility, website and location are managed. The
 * change that creates one is `org/server:/NAME`, which the organisation's own kinds wait for.
 * read.ts reads them, plan.ts checks them, ops.ts writes them, export.ts exports them.
 */
export const orgKind = defineKind<OrgTypes['config'], OrgTypes['server'], OrgTypes['prepared'], OrgTypes['run']>({
  name: 'org',
  uniqueNames: true,
  title: 'organisation',
  // Organisations are never deleted: no policy.prune entry names them.
  pruneKey: 'orgs',
  configKey: 'orgs',
  sends: [{ struct: 'CreateOrgOption', key: 'username' }, { struct: 'EditOrgOption' }],
  scopeType: 'server',
  actions: ['create', 'update'],
  target: { type: 'org', placeholder: 'NAME' },
  createsScope: 'org',
  // A new organisation's owner may be a user this plan creates.
  after: [userKind.name],
  ...reading,
  ...planning,
  ...preparing,
  ...writing,
  ...exporting,
});
