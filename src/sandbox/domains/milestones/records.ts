/**
 * Milestones, saved in the state file (part of `StateData`), and their lookups.
 */
import type { SandboxState, StateData } from '../../core/state.js';
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

declare module '../../core/state.js' {
  /** The milestones domain's tables: part of the state, saved in the state file (the domain's `data`). */
  interface StateData {
    milestones: MilestoneRecord[];
  }
}

export type MilestonesData = Pick<StateData, 'milestones'>;

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
