/** Seed keys `repos[].projects` and `repos[].issues` (README.md). */
import type { NestedSeed } from '../../core/domain.js';
import { integer, list, obj, oneOf, requireUser, SeedError, str, strings } from '../../core/seed-shape.js';
import type { RepoRecord, SandboxState, UserRecord } from '../../core/state.js';
import { createIssue, createProject } from './service.js';
import { issuesOfRepo } from './records.js';
import { labelsOfOrg, labelsOfRepo } from '../labels/records.js';
import { milestonesOfRepo } from '../milestones/records.js';

export interface SeedIssue {
  /** The issue's number; default the next one (a copy of a server's issues keeps theirs: src/sandbox/copy.ts). */
  number?: number;
  /** How many times its body was edited (its `content_version`); default 0. A copy keeps the server's. */
  content_version?: number;
  title: string;
  body?: string;
  /** Label names (the repository's first, then its organisation's) or ids. */
  labels?: (string | number)[];
  /** `open` (default) | `closed`. */
  state?: string;
  /** Default: the repository owner when a user, else the first site admin. */
  author?: string;
  assignees?: string[];
  /** Milestone title. */
  milestone?: string;
  due_date?: string;
  ref?: string;
  /** Project titles (of this repository). */
  projects?: string[];
}

export interface SeedProject {
  title: string;
  description?: string;
  /** `open` (default) | `closed`. */
  state?: string;
}

export const repoProjectsSeed: NestedSeed<RepoRecord> = {
  keys: ['projects'],
  phase: 'early',
  load: (cx, repo, o, p) => {
    const owner = cx.state.repoOwner(repo);
    list(o.projects, `${p}.projects`).forEach((pj, j) => {
      const pp = `${p}.projects[${j}]`;
      const po = obj(pj, pp, ['title', 'description', 'state']);
      createProject(cx.state, repo, {
        title: str(po.title, `${pp}.title`, true)!,
        description: str(po.description, `${pp}.description`),
        state: oneOf(po.state, `${pp}.state`, ['open', 'closed'] as const),
        creatorId: owner.kind === 'user' ? owner.id : cx.admin().id,
      });
    });
  },
};

function seedIssue(state: SandboxState, repo: RepoRecord, raw: unknown, p: string, admin: UserRecord): void {
  const o = obj(raw, p, ['number', 'content_version', 'title', 'body', 'labels', 'state', 'author', 'assignees', 'milestone', 'due_date', 'ref', 'projects']);
  const index = integer(o.number, `${p}.number`, 1);
  if (index !== undefined && issuesOfRepo(state, repo.id).some((i) => i.index === index)) throw new SeedError(`${p}.number: ${state.repoFullName(repo)} already has an issue #${index}`);
  const owner = state.repoOwner(repo);
  const authorName = str(o.author, `${p}.author`);
  const author = authorName ? requireUser(state, authorName, `${p}.author`) : owner.kind === 'user' ? owner.user : admin;
  const labelIds = list(o.labels, `${p}.labels`).map((l, k) => {
    if (typeof l === 'number') return l;
    const name = str(l, `${p}.labels[${k}]`, true)!;
    const found = labelsOfRepo(state, repo.id).find((x) => x.name === name) ?? (owner.kind === 'org' ? labelsOfOrg(state, owner.id).find((x) => x.name === name) : undefined);
    if (!found) throw new SeedError(`${p}.labels[${k}]: no label ${JSON.stringify(name)} in ${state.repoFullName(repo)} or its organisation`);
    return found.id;
  });
  const msTitle = str(o.milestone, `${p}.milestone`);
  const milestone = msTitle ? milestonesOfRepo(state, repo.id).find((m) => m.title === msTitle) : undefined;
  if (msTitle && !milestone) throw new SeedError(`${p}.milestone: no milestone ${JSON.stringify(msTitle)} in ${state.repoFullName(repo)}`);
  const due = str(o.due_date, `${p}.due_date`);
  if (due !== undefined && Number.isNaN(Date.parse(due))) throw new SeedError(`${p}.due_date: not a date: ${JSON.stringify(due)}`);
  const projectIds = strings(o.projects, `${p}.projects`).map((title, k) => {
    const project = state.data.projects.find((x) => x.repoId === repo.id && x.title === title);
    if (!project) throw new SeedError(`${p}.projects[${k}]: no project ${JSON.stringify(title)} in ${state.repoFullName(repo)}`);
    return project.id;
  });
  createIssue(state, repo, {
    ...(index !== undefined ? { index } : {}),
    contentVersion: integer(o.content_version, `${p}.content_version`, 0),
    title: str(o.title, `${p}.title`, true)!,
    body: str(o.body, `${p}.body`),
    ref: str(o.ref, `${p}.ref`),
    authorId: author.id,
    labelIds,
    milestoneId: milestone?.id,
    assigneeIds: strings(o.assignees, `${p}.assignees`).map((n, k) => requireUser(state, n, `${p}.assignees[${k}]`).id),
    dueDate: due ?? null,
    projectIds,
    closed: (oneOf(o.state, `${p}.state`, ['open', 'closed'] as const) ?? 'open') === 'closed',
  });
}

/** Issues are numbered 1, 2, 3 … in seed order (or by their `number`, the next ones after the highest), once labels, milestones, projects and permissions are final. */
export const repoIssuesSeed: NestedSeed<RepoRecord> = {
  keys: ['issues'],
  phase: 'late',
  load: (cx, repo, o, p) => list(o.issues, `${p}.issues`).forEach((is, j) => seedIssue(cx.state, repo, is, `${p}.issues[${j}]`, cx.admin())),
};
