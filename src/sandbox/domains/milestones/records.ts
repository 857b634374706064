/**
 * Milestones, saved in the state file (`StateData` extends {@link MilestonesData}), and their lookups.
 */
import type { SandboxState } from '../../core/state.js';
import { defineIndex } from '../../core/table-index.js';

export interface MilestoneRecord {
  id: number;
  repoId: number;
  title: string;
  description: string;
  state: 'open' | 'closed';
  dueOn: string | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

export interface MilestonesData {
  milestones: MilestoneRecord[];
}

export function emptyMilestonesData(): MilestonesData {
  return { milestones: [] };
}

export const MILESTONES = defineIndex<MilestoneRecord>()({ table: 'milestones', unique: { id: (m) => m.id }, groups: { repo: (m) => m.repoId } });

export function milestoneById(state: SandboxState, id: number): MilestoneRecord | undefined {
  return state.indexes.of(MILESTONES).get('id', id);
}

export function milestonesOfRepo(state: SandboxState, repoId: number): MilestoneRecord[] {
  return state.indexes.of(MILESTONES).list('repo', repoId);
}
