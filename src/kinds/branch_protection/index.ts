import { defineKind } from '../../model/index.js';
import { collaboratorKind } from '../collaborator/index.js';
import { teamKind } from '../team/index.js';
import { userKind } from '../user/index.js';
import { runState } from './accounts.js';
import { exporting } from './export.js';
import { writing } from './ops.js';
import { planning, preparing, safety } from './plan.js';
import { fields, reading } from './read.js';
import type { BranchProtectionTypes } from './types.js';

/**
 * A repository's branch protection rules: read.ts reads them, plan.ts (with accounts.ts) checks
 * them, ops.ts writes them, export.ts exports them.
 */
export const branchProtectionKind = defineKind<BranchProtectionTypes['config'], BranchProtectionTypes['server'], BranchProtectionTypes['prepared'], BranchProtectionTypes['run']>({
  name: 'branch_protection',
  uniqueNames: true,
  title: 'branch protection',
  pruneKey: 'branch_protections',
  configKey: 'branch_protections',
  scopeType: 'repo',
  actions: ['create', 'update', 'delete'],
  // Users and teams the plan creates count as existing in the allowlists (src/kinds/branch_protection/accounts.ts).
  // Collaborators this plan gives write access count as writers, and a rule waits for their change.
  after: [userKind.name, teamKind.name, collaboratorKind.name],
  // The user lists name users, the team lists teams of the repository's organisation: a rule waits for
  // the create (or rename) of each one it names (issue 17 item 5, issue 21).
  references: Object.fromEntries([
    ...fields.filter((f) => /_usernames?$/.test(f.name)).map((f) => [f.name, userKind] as const),
    ...fields.filter((f) => f.name.endsWith('_teams')).map((f) => [f.name, teamKind] as const),
  ]),
  runState,
  ...reading,
  ...planning,
  ...preparing,
  ...safety,
  ...writing,
  ...exporting,
});
