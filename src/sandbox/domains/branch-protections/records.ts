/**
 * Branch protection rules, saved in the state file (`StateData` extends
 * {@link BranchProtectionsData}), and their lookups.
 */
import type { SandboxState } from '../../core/state.js';

/**
 * A branch protection rule as saved. Flags, user lists and team lists are keyed by their API field
 * names (user and team lists hold ids, so renames carry through). See `routes.ts` beside this file.
 */
export interface BranchProtectionRecord {
  id: number;
  repoId: number;
  ruleName: string;
  priority: number;
  flags: Record<string, boolean>;
  requiredApprovals: number;
  /** null until first set, as on the server. */
  statusCheckContexts: string[] | null;
  protectedFilePatterns: string;
  unprotectedFilePatterns: string;
  users: Record<string, number[]>;
  teams: Record<string, number[]>;
  createdAt: string;
  updatedAt: string;
}

export interface BranchProtectionsData {
  branchProtections: BranchProtectionRecord[];
}

export function emptyBranchProtectionsData(): BranchProtectionsData {
  return { branchProtections: [] };
}

export function protectionsOfRepo(state: SandboxState, repoId: number): BranchProtectionRecord[] {
  return state.data.branchProtections.filter((p) => p.repoId === repoId);
}
