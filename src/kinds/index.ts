import { branchProtectionKind } from './branch-protection.js';
import { orgLabelKind, repoLabelKind } from './label.js';
import type { Kind } from './types.js';

/** Every kind forgeform manages, in the order their changes are listed. */
export const kinds: Kind[] = [orgLabelKind, repoLabelKind, branchProtectionKind];

export function kindByName(name: string): Kind {
  const k = kinds.find((k) => k.name === name);
  if (!k) throw new Error(`unknown kind ${name}`);
  return k;
}
