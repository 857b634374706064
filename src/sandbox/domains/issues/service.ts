/** Creating issues and projects and the checks issue create and edit share, for the routes and the seed loader. */
import { repoAccessMode } from '../../core/permissions.js';
import { AccessMode, nowIso, type RepoRecord, type SandboxState, type UserRecord } from '../../core/state.js';
import { type IssueRecord, nextIssueIndex, projectById, type ProjectRecord } from './records.js';
import { unixSecondsIso } from '../milestones/service.js';
import { labelById } from '../labels/records.js';
import { milestoneById } from '../milestones/records.js';

export interface NewIssue {
  /** Its number (a seed that keeps a server's numbers); default the next. */
  index?: number;
  /** Its body's version (a seed that keeps a server's); default 0. */
  contentVersion?: number | undefined;
  title: string;
  body?: string;
  ref?: string;
  authorId: number;
  labelIds?: number[];
  milestoneId?: number;
  assigneeIds?: number[];
  dueDate?: string | null;
  projectIds?: number[];
  closed?: boolean;
}

/** Labels that may be put on an issue of `repo`: its own, and its organisation's. */
export function isLabelUsableIn(state: SandboxState, repo: RepoRecord, labelId: number): boolean {
  const label = labelById(state, labelId);
  if (!label) return false;
  return label.repoId === repo.id || (label.repoId === 0 && label.orgId !== 0 && label.orgId === repo.ownerId);
}

/** Projects an issue of `repo` may be in: the repository's, and its owner's. */
export function isProjectUsableIn(repo: RepoRecord, project: ProjectRecord | undefined): project is ProjectRecord {
  return !!project && (project.repoId === repo.id || (project.repoId === 0 && project.ownerId === repo.ownerId));
}

/** `CanBeAssigned`: write access to the repository, or read access to its pull requests. */
export function canBeAssigned(state: SandboxState, repo: RepoRecord, user: UserRecord): boolean {
  const mode = repoAccessMode(state, repo, user);
  return mode >= AccessMode.Write || (repo.units.hasPullRequests && mode >= AccessMode.Read);
}

/** Creates an issue (shared with the seed loader). Invalid labels, milestones and projects are dropped. */
export function createIssue(state: SandboxState, repo: RepoRecord, input: NewIssue): IssueRecord {
  const now = nowIso();
  const milestone = input.milestoneId ? milestoneById(state, input.milestoneId) : undefined;
  const labelIds: number[] = [];
  for (const id of input.labelIds ?? []) if (!labelIds.includes(id) && isLabelUsableIn(state, repo, id)) labelIds.push(id);
  const projectIds = [...new Set(input.projectIds ?? [])].filter((id) => isProjectUsableIn(repo, projectById(state, id)));
  const issue: IssueRecord = {
    id: state.nextId('issue'),
    repoId: repo.id,
    index: input.index ?? nextIssueIndex(state, repo.id),
    authorId: input.authorId,
    title: input.title,
    body: input.body ?? '',
    ref: input.ref ?? '',
    state: input.closed ? 'closed' : 'open',
    labelIds,
    milestoneId: milestone && milestone.repoId === repo.id ? milestone.id : 0,
    assigneeIds: [...new Set(input.assigneeIds ?? [])],
    dueDate: input.dueDate ? unixSecondsIso(input.dueDate) : null,
    projectIds,
    contentVersion: input.contentVersion ?? 0,
    isLocked: false,
    isPull: false,
    numComments: 0,
    pinOrder: 0,
    createdAt: now,
    updatedAt: now,
    closedAt: input.closed ? now : null,
  };
  state.data.issues.push(issue);
  return issue;
}

export interface NewProject {
  title: string;
  description?: string;
  /** `closed` closes it; default open. */
  state?: string;
  creatorId: number;
}

/** Creates a repository project (seed loader only: the sandbox serves no project routes). */
export function createProject(state: SandboxState, repo: RepoRecord, input: NewProject): ProjectRecord {
  const now = nowIso();
  const closed = input.state === 'closed';
  const project: ProjectRecord = {
    id: state.nextId('project'),
    repoId: repo.id,
    ownerId: 0,
    creatorId: input.creatorId,
    title: input.title,
    description: input.description ?? '',
    state: closed ? 'closed' : 'open',
    createdAt: now,
    updatedAt: now,
    closedAt: closed ? now : null,
  };
  state.data.projects.push(project);
  return project;
}
