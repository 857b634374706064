/**
 * Labels of repositories and organisations, saved in the state file (`StateData` extends
 * {@link LabelsData}), and their lookups.
 */
import type { SandboxState } from '../../core/state.js';

export interface LabelRecord {
  id: number;
  /** Exactly one of repoId / orgId is non-zero. */
  repoId: number;
  orgId: number;
  name: string;
  /** Saved form: `#rrggbb`, lower case. */
  color: string;
  description: string;
  exclusive: boolean;
  /** null = not archived (Gitea keeps an archive timestamp). */
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface LabelsData {
  labels: LabelRecord[];
}

export function emptyLabelsData(): LabelsData {
  return { labels: [] };
}

export function labelById(state: SandboxState, id: number): LabelRecord | undefined {
  return state.data.labels.find((l) => l.id === id);
}

export function labelsOfRepo(state: SandboxState, repoId: number): LabelRecord[] {
  return state.data.labels.filter((l) => l.repoId === repoId);
}

export function labelsOfOrg(state: SandboxState, orgId: number): LabelRecord[] {
  return state.data.labels.filter((l) => l.orgId === orgId && l.repoId === 0);
}

/** Deletes a label and detaches it from every issue. */
export function deleteLabel(state: SandboxState, id: number): void {
  state.data.labels = state.data.labels.filter((l) => l.id !== id);
  for (const issue of state.data.issues) {
    if (issue.labelIds.includes(id)) issue.labelIds = issue.labelIds.filter((x) => x !== id);
  }
}

/** How many issues carry the label (Gitea's `num_issues`). */
export function labelIssueCount(state: SandboxState, id: number): number {
  return state.data.issues.filter((i) => i.labelIds.includes(id)).length;
}
