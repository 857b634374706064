/**
 * Labels of repositories and organisations, saved in the state file (`StateData` extends
 * {@link LabelsData}), and their lookups.
 */
import type { SandboxState, StateData } from '../../core/state.js';
import { defineIndex } from '../../core/table-index.js';
import { issuesOfRepo } from '../issues/records.js';

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

declare module '../../core/state.js' {
  /** The labels domain's tables: part of the state, saved in the state file (the domain's `data`). */
  interface StateData {
    labels: LabelRecord[];
  }
}

export type LabelsData = Pick<StateData, 'labels'>;

export function emptyLabelsData(): LabelsData {
  return { labels: [] };
}

export const LABELS = defineIndex<LabelRecord>()({
  table: 'labels',
  unique: { id: (l) => l.id },
  groups: { repo: (l) => (l.repoId !== 0 ? l.repoId : undefined), org: (l) => (l.repoId === 0 ? l.orgId : undefined) },
});

export function labelById(state: SandboxState, id: number): LabelRecord | undefined {
  return state.indexes.of(LABELS).get('id', id);
}

export function labelsOfRepo(state: SandboxState, repoId: number): LabelRecord[] {
  return repoId === 0 ? state.data.labels.filter((l) => l.repoId === 0) : state.indexes.of(LABELS).list('repo', repoId);
}

export function labelsOfOrg(state: SandboxState, orgId: number): LabelRecord[] {
  return state.indexes.of(LABELS).list('org', orgId);
}

/** Deletes labels (and detaches them from the issues that carry them). */
export function removeLabelsWhere(state: SandboxState, pred: (l: LabelRecord) => boolean): void {
  for (const label of state.indexes.of(LABELS).removeWhere(pred)) {
    for (const issue of issuesCarrying(state, label)) issue.labelIds = issue.labelIds.filter((x) => x !== label.id);
  }
}

/** Deletes a label and detaches it from every issue. */
export function deleteLabel(state: SandboxState, id: number): void {
  const label = labelById(state, id);
  if (!label || !state.indexes.of(LABELS).remove(label)) return;
  for (const issue of issuesCarrying(state, label)) issue.labelIds = issue.labelIds.filter((x) => x !== label.id);
}

/**
 * The issues that may carry a label: those of its repository, or of its organisation's repositories
 * (an issue only ever gets labels of its repository or its owner: `models/issues/issue_label.go`).
 */
function issuesCarrying(state: SandboxState, label: LabelRecord): { labelIds: number[] }[] {
  const repoIds = label.repoId !== 0 ? [label.repoId] : state.reposOfOwner(label.orgId).map((r) => r.id);
  return repoIds.flatMap((id) => issuesOfRepo(state, id)).filter((i) => i.labelIds.includes(label.id));
}

/** How many issues carry the label (Gitea's `num_issues`). */
export function labelIssueCount(state: SandboxState, id: number): number {
  const label = labelById(state, id);
  return label ? issuesCarrying(state, label).length : state.data.issues.filter((i) => i.labelIds.includes(id)).length;
}
