/**
 * Every domain of the sandbox, in order. The order is the route registration order (a static path
 * such as `/repos/issues/search` must come before `/repos/{owner}/{repo}`: issues before repos) and
 * the seed loading order (users before organisations before repositories before what refers to
 * them); nested seed keys (`repos[].labels` …) load in this order too.
 *
 * Adding a domain: a folder beside this file with an `index.ts` exporting its `SandboxDomain`, and
 * one line here.
 */
import { registerDomains } from '../core/registry.js';
import { actionsDomain } from './actions/index.js';
import { actionsSettingsDomain } from './actions-settings/index.js';
import { adminMiscDomain } from './admin-misc/index.js';
import { collaboratorsDomain } from './collaborators/index.js';
import { deployKeysDomain } from './deploy-keys/index.js';
import { branchProtectionsDomain } from './branch-protections/index.js';
import { hooksDomain } from './hooks/index.js';
import { issuesDomain } from './issues/index.js';
import { labelsDomain } from './labels/index.js';
import { markupDomain } from './markup/index.js';
import { metaDomain } from './meta/index.js';
import { mirrorsDomain } from './mirrors/index.js';
import { milestonesDomain } from './milestones/index.js';
import { notificationsDomain } from './notifications/index.js';
import { orgMembersDomain } from './org-members/index.js';
import { orgsDomain } from './orgs/index.js';
import { reposDomain } from './repos/index.js';
import { tagProtectionsDomain } from './tag-protections/index.js';
import { teamsDomain } from './teams/index.js';
import { usersDomain } from './users/index.js';

export const DOMAINS = [
  metaDomain,
  usersDomain,
  teamsDomain,
  orgsDomain,
  orgMembersDomain,
  markupDomain,
  labelsDomain,
  milestonesDomain,
  branchProtectionsDomain,
  tagProtectionsDomain,
  issuesDomain,
  reposDomain,
  collaboratorsDomain,
  actionsDomain,
  actionsSettingsDomain,
  adminMiscDomain,
  notificationsDomain,
  hooksDomain,
  mirrorsDomain,
  deployKeysDomain,
] as const;

registerDomains(DOMAINS);
