import { orgKind } from '../org/index.js';
import { userKind } from '../user/index.js';
import { defineKind } from '../../model/index.js';
import { exporting } from './export.js';
import { writing } from './ops.js';
import { planning } from './plan.js';
import { reading } from './read.js';
import type { RepoTypes } from './types.js';
import { mirrorPolicy } from './mirror-interval.js';
import { templatePolicy } from './templates.js';

/**
 * Repositories as objects of the server, for creation: `repos."owner/name".create` creates a missing
 * repository on behalf of its owner (admin API), `repos."owner/name".mirror` creates it as a pull mirror
 * (POST /repos/migrate). Of an existing repository only a pull mirror's interval is compared (and
 * changed); repositories are never deleted. The change is `repo/server:/owner/name`, which the repository's
 * own kinds (labels, protections) wait for.
 * read.ts reads them, plan.ts checks them, ops.ts creates them, export.ts exports pull mirrors.
 */
export const repoKind = defineKind<RepoTypes['config'], RepoTypes['server'], RepoTypes['prepared'], RepoTypes['run']>({
  name: 'repo',
  uniqueNames: true,
  title: 'repository',
  // Repositories are never deleted: no policy.prune entry names them.
  pruneKey: 'repos',
  configKey: 'repos',
  // A pull mirror is created by the migrate body (ops.ts mirrorCreate), other repositories by the create body.
  sends: [
    { struct: 'CreateRepoOption', key: 'name', keyIsPath: true },
    { struct: 'MigrateRepoOptions', key: 'repo_name', keyIsPath: true, when: 'from', as: { from: 'clone_addr', interval: 'mirror_interval', username: 'auth_username', password: 'auth_password' } },
  ],
  scopeType: 'server',
  // Create (empty, or as a pull mirror); update: a pull mirror's interval.
  actions: ['create', 'update'],
  target: { type: 'repo', placeholder: 'OWNER/NAME' },
  createsScope: 'repo',
  // policy.mirror_min_interval: the server's [mirror] MIN_INTERVAL, which a pull mirror's interval is checked against (mirror-interval.ts);
  // policy.readme_templates: the server's custom readme templates, which no API lists (templates.ts).
  policy: { ...mirrorPolicy, ...templatePolicy },
  // A new repository's owner may be an organisation or user this plan creates.
  after: [orgKind.name, userKind.name],
  ...reading,
  ...planning,
  ...writing,
  ...exporting,
});
