import { defineKind } from '../../model/index.js';
import { inEither, inForgejo, inGitea } from '../fields.js';
import { collaboratorKind } from '../collaborator/index.js';
import { teamKind } from '../team/index.js';
import { userKind } from '../user/index.js';
import { runState as accountsRunState } from '../branch_protection/accounts.js';
import { exporting } from './export.js';
import { writing } from './ops.js';
import { planning, preparing, safety } from './plan.js';
import { reading } from './read.js';
import type { TagProtectionTypes } from './types.js';

/** The tag protection routes: Gitea 1.23 (#31295), Forgejo 8 (routers/api/v1/api.go: v8.0.0 l.1115-1123, none in v7.0.16). */
export const TAG_PROTECTION_ROUTES = inEither(inGitea('1.23'), inForgejo('8'));

/**
 * Tag protections of a repository, by name pattern: who may push matching tags (users and teams).
 * read.ts reads them (one unpaged list per repository), plan.ts checks the pattern and the accounts
 * named (with branch protections' lookups), ops.ts writes them, export.ts exports them.
 */
export const tagProtectionKind = defineKind<TagProtectionTypes['config'], TagProtectionTypes['server'], TagProtectionTypes['prepared'], TagProtectionTypes['run']>({
  name: 'tag_protection',
  // CreateTagProtection refuses a second protection of the same pattern (403 "Tag protection already exist").
  uniqueNames: true,
  title: 'tag protection',
  pruneKey: 'tag_protections',
  configKey: 'tag_protections',
  scopeType: 'repo',
  actions: ['create', 'update', 'rename', 'delete'],
  availability: TAG_PROTECTION_ROUTES,
  // Users and teams the plan creates count as existing in the allowlists; a protection waits for their creates.
  // Collaborators this plan gives access count as having it, and a protection waits for their change.
  after: [userKind.name, teamKind.name, collaboratorKind.name],
  references: { whitelist_usernames: userKind, whitelist_teams: teamKind },
  runState: () => ({ ...accountsRunState(), tagAccounts: new Map() }),
  ...reading,
  ...planning,
  ...preparing,
  ...safety,
  ...writing,
  ...exporting,
});
