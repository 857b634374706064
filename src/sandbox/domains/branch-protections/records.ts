/**
 * Branch protection rules, saved in the state file (`StateData` extends
 * {@link BranchProtectionsData}), and their lookups.
 */
import type { SandboxState, StateData } from '../../core/state.js';
import { defineIndex } from '../../core/table-index.js';

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

declare module '../../core/state.js' {
  /** The branch-protections domain's tables: part of the state, saved in the state file (the domain's `data`). */
  interface StateData {
    branchProtections: BranchProtectionRecord[];
  }
}

export type BranchProtectionsData = Pick<StateData, 'branchProtections'>;

export function emptyBranchProtectionsData(): BranchProtectionsData {
  return { branchProtections: [] };
}

export const PROTECTIONS = defineIndex<BranchProtectionRecord>()({ table: 'branchProtections', groups: { repo: (p) => p.repoId } });

export function protectionsOfRepo(state: SandboxState, repoId: number): BranchProtectionRecord[] {
  return state.indexes.of(PROTECTIONS).list('repo', repoId);
}
