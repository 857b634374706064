/**
 * Milestones, saved in the state file (`StateData` extends {@link MilestonesData}), and their lookups.
 */
import type { SandboxState } from '../../core/state.js';

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

export function milestoneById(state: SandboxState, id: number): MilestoneRecord | undefined {
  return state.data.milestones.find((m) => m.id === id);
}

export function milestonesOfRepo(state: SandboxState, repoId: number): MilestoneRecord[] {
  return state.data.milestones.filter((m) => m.repoId === repoId);
}
