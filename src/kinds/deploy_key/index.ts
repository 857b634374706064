import { defineKind } from '../../model/index.js';
import { exporting } from './export.js';
import { writing } from './ops.js';
import { planning, safety } from './plan.js';
import { reading } from './read.js';
import type { DeployKeyTypes } from './types.js';

/**
 * Deploy keys of a repository (repos.NAME.deploy_keys), by title: an SSH public key and whether it may push.
 * No release edits one: a changed key or read_only is a replacement (delete + create). Keys are compared by their
 * key material, not their text (ssh-key.ts). read.ts reads them (one list per repository), plan.ts plans them,
 * ops.ts writes them, export.ts exports them; fields.ts defines their config.
 */
export const deployKeyKind = defineKind<DeployKeyTypes['config'], DeployKeyTypes['server'], DeployKeyTypes['prepared'], DeployKeyTypes['run']>({
  name: 'deploy_key',
  title: 'deploy key',
  pruneKey: 'deploy_keys',
  configKey: 'deploy_keys',
  scopeType: 'repo',
  actions: ['create', 'delete', 'replace'],
  replaceToEdit: true,
  // The server refuses a second key of one title in a repository (checkDeployKey, models/asymkey/ssh_key_deploy.go
  // Gitea v1.25.4 l.80-87: 422 "A key with the same name already exists", routers/api/v1/repo/key.go l.195-196).
  uniqueNames: true,
  sends: [{ struct: 'CreateKeyOption', key: 'title' }],
  ...reading,
  ...planning,
  ...safety,
  ...writing,
  ...exporting,
});
