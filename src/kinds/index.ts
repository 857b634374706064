import { branchProtectionKind } from './branch-protection.js';
import { hookKind } from './hook.js';
import { issueKind } from './issue.js';
import { orgLabelKind, repoLabelKind } from './label.js';
import { orgKind } from './org.js';
import { repoKind } from './repo.js';
import { runnerKind } from './runner.js';
import { userKind } from './user.js';
import type { Kind } from '../model/index.js';

/**
 * Every kind forgeform manages, in the order they are planned and their changes listed. Users come
 * first (a new organisation or repository may be owned by a new user), then the organisations and
 * repositories that other kinds' scopes may wait for, then the rest.
 */
export const kinds: Kind[] = [userKind, orgKind, repoKind, hookKind, runnerKind, orgLabelKind, repoLabelKind, branchProtectionKind, issueKind];

export function kindByName(name: string): Kind {
  const k = kinds.find((k) => k.name === name);
  if (!k) throw new Error(`unknown kind ${name}`);
  return k;
}
