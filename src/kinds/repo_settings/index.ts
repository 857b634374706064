import { defineKind } from '../../model/index.js';
import { exporting } from './export.js';
import { writing } from './ops.js';
import { planning, preparing, runState, safety } from './plan.js';
import { reading } from './read.js';
import type { RepoSettingsTypes } from './types.js';
import { features } from './fields.js';

/**
 * The settings of a repository (`repos."owner/name".settings`): one object per repository, keyed by
 * its full name; only the fields written are managed. read.ts reads them from the repository GET the
 * scope resolution made, plan.ts keeps an archived repository read-only, ops.ts writes them (one
 * PATCH, one PUT of the topics), export.ts exports them. Never deleted.
 */
export const repoSettingsKind = defineKind<RepoSettingsTypes['config'], RepoSettingsTypes['server'], RepoSettingsTypes['prepared'], RepoSettingsTypes['run']>({
  name: 'repo_settings',
  uniqueNames: true,
  title: 'repository settings',
  pruneKey: '',
  configKey: 'settings',
  scopeType: 'repo',
  // One object per repository, not a map of them: without this the availability check and the field
  // rules walked repos.*.settings.* (each field's value, never an object) and refused nothing (issue 27).
  declaredAt: ['repos', '*', 'settings'],
  // A repository this plan creates gets its settings once it exists (create = the PATCH of every declared field).
  actions: ['create', 'update'],
  features,
  runState,
  ...reading,
  ...planning,
  ...preparing,
  ...safety,
  ...writing,
  ...exporting,
});
