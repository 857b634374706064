import { defineKind } from '../../model/index.js';
import { collaboratorKind } from '../collaborator/index.js';
import { orgLabelKind, repoLabelKind } from '../label/index.js';
import { teamKind } from '../team/index.js';
import { writing } from './ops.js';
import { planning, safety } from './plan.js';
import { reading } from './read.js';
import type { IssueTypes } from './types.js';

export { exclusiveScope } from './plan.js';

/**
 * An issue the config names by number: never created or deleted, only edited. read.ts reads it,
 * plan.ts resolves its labels and milestone, ops.ts writes it.
 */
export const issueKind = defineKind<IssueTypes['config'], IssueTypes['server'], IssueTypes['prepared'], IssueTypes['run'], IssueTypes['meta'], IssueTypes['declared']>({
  name: 'issue',
  title: 'issue',
  // Issues are never created or deleted by forgeform.
  pruneKey: '',
  configKey: 'issues',
  sends: [{ struct: 'CreateIssueOption' }, { struct: 'EditIssueOption' }],
  scopeType: 'repo',
  actions: ['update'],
  // Labels are resolved against the labels as this plan leaves them; assignees may get their access from a
  // collaborator or a team of this plan (the projected permission model, src/kinds/collaborator/access.ts).
  after: [repoLabelKind.name, orgLabelKind.name, collaboratorKind.name, teamKind.name],
  ...reading,
  ...planning,
  ...safety,
  ...writing,
  // No export facet: issues are chosen one by one, not exported wholesale.
});
