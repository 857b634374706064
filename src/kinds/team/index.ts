import { defineKind, type Kind } from '../../model/index.js';
import { repoKind } from '../repo/index.js';
import { userKind } from '../user/index.js';
import { exporting } from './export.js';
import { writing } from './ops.js';
import { comparing, planning, preparing, safety } from './plan.js';
import { reading, type TeamTypes } from './read.js';

/**
 * Teams of an organisation (orgs.NAME.teams): their own fields, and their members and repositories as
 * sets, one request per element added or removed. read.ts reads them (one list per organisation, the
 * member and repository lists only of declared teams), plan.ts plans and guards them (the Owners team is
 * never deleted, renamed, emptied, nor stripped of the token's own user), ops.ts writes them.
 */
export const teamKind: Kind = defineKind<TeamTypes['config'], TeamTypes['server'], TeamTypes['prepared'], TeamTypes['run']>({
  name: 'team',
  // A second team of the same name (any case) is refused (422 team already exists): apply need not look for copies after a create.
  uniqueNames: true,
  title: 'team',
  configKey: 'teams',
  sends: [{ struct: 'CreateTeamOption', key: 'name' }, { struct: 'EditTeamOption', key: 'name' }],
  pruneKey: 'teams',
  scopeType: 'org',
  actions: ['create', 'update', 'rename', 'delete'],
  // Members are users the plan may create; repositories, repositories it may create (see dependsOn).
  after: [userKind.name, repoKind.name],
  references: { members: userKind },
  runState: () => ({}),
  ...reading,
  ...comparing,
  ...planning,
  ...preparing,
  ...safety,
  ...writing,
  ...exporting,
});
