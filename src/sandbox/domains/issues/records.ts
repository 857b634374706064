/**
 * Issues and projects, saved in the state file (part of `StateData`), and
 * their lookups.
 */
import type { SandboxState, StateData } from '../../core/state.js';
import { defineIndex } from '../../core/table-index.js';

/** A project (board). Repository projects have `repoId`; `ownerId` is 0 for them. */
export interface ProjectRecord {
  id: number;
  repoId: number;
  ownerId: number;
  creatorId: number;
  title: string;
  description: string;
  state: 'open' | 'closed';
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

export interface IssueRecord {
  id: number;
  repoId: number;
  /** The issue number within its repository (1, 2, 3 …). */
  index: number;
  authorId: number;
  title: string;
  body: string;
  ref: string;
  state: 'open' | 'closed';
  /** Ids of repository or organisation labels. */
  labelIds: number[];
  /** 0 = none. */
  milestoneId: number;
  assigneeIds: number[];
  dueDate: string | null;
  /** Project ids (may be missing in state files written before projects existed). */
  projectIds: number[];
  contentVersion: number;
  isLocked: boolean;
  isPull: boolean;
  numComments: number;
  pinOrder: number;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

/** A plain comment of an issue or pull request (the action's sticky comment). */
export interface CommentRecord {
  id: number;
  issueId: number;
  authorId: number;
  body: string;
  createdAt: string;
  updatedAt: string;
}

declare module '../../core/state.js' {
  /** The issues domain's tables: part of the state, saved in the state file (the domain's `data`). */
  interface StateData {
    projects: ProjectRecord[];
    issues: IssueRecord[];
    /** Absent in state files written before comments were served. */
    comments?: CommentRecord[];
    /** The git side of pull requests (absent in state files written before they were served); see pulls.ts. */
    pulls?: PullRecord[];
  }
}

export type IssuesData = Pick<StateData, 'projects' | 'issues' | 'comments' | 'pulls'>;

/** What a pull request adds to its issue record: its branches and, once merged, its merge commit. */
export interface PullRecord {
  issueId: number;
  headRef: string;
  headSha: string;
  baseRef: string;
  merged: boolean;
  mergedAt: string | null;
  mergeCommitSha: string | null;
}

export function emptyIssuesData(): IssuesData {
  return { projects: [], issues: [], comments: [] };
}

export function projectById(state: SandboxState, id: number): ProjectRecord | undefined {
  return state.data.projects.find((p) => p.id === id);
}

export const ISSUES = defineIndex<IssueRecord>()({ table: 'issues', unique: { id: (i) => i.id, index: (i) => `${i.repoId}#${i.index}` }, groups: { repo: (i) => i.repoId } });

export function issueById(state: SandboxState, id: number): IssueRecord | undefined {
  return state.indexes.of(ISSUES).get('id', id);
}

export function issuesOfRepo(state: SandboxState, repoId: number): IssueRecord[] {
  return state.indexes.of(ISSUES).list('repo', repoId);
}

export function issueByIndex(state: SandboxState, repoId: number, index: number): IssueRecord | undefined {
  return state.indexes.of(ISSUES).get('index', `${repoId}#${index}`);
}

/** Next issue number of a repository (issues and pull requests share the sequence). */
export function nextIssueIndex(state: SandboxState, repoId: number): number {
  return issuesOfRepo(state, repoId).reduce((max, i) => Math.max(max, i.index), 0) + 1;
}
