/**
 * API objects, in the field order of Gitea's `modules/structs` and filled as `services/convert`
 * does: User (admin-only fields only for site admins and the user themself), Organization,
 * Repository, Label, Milestone, Issue.
 */
import { createHash } from 'node:crypto';
import { goPathEscape } from './http/respond.js';
import { AccessMode, type IssueRecord, type LabelRecord, type MilestoneRecord, type OrgRecord, type Owner, type ProjectRecord, type RepoRecord, type SandboxState, type UserRecord } from './core/state.js';

/** What every converter needs: the state and ROOT_URL (with its trailing slash). */
export interface ConvertContext {
  state: SandboxState;
  root: string;
}

const ZERO_TIME = '0001-01-01T00:00:00Z';
const EPOCH = '1970-01-01T00:00:00Z';

function md5(s: string): string {
  return createHash('md5').update(s).digest('hex');
}

function host(root: string): string {
  return new URL(root).hostname;
}

export function avatarUrl(root: string, key: string): string {
  return `${root}avatars/${md5(key.toLowerCase())}`;
}

/** `convert.ToUser(ctx, user, doer)`: e-mail for signed-in callers, admin fields for admins and the user. */
export function toUser(cx: ConvertContext, user: UserRecord, doer: UserRecord | null): Record<string, unknown> {
  return renderUser(cx, user, doer !== null, doer !== null && (doer.isAdmin || doer.id === user.id));
}

/** `convert.toUser(ctx, user, signed, authed)`. */
export function renderUser(cx: ConvertContext, user: UserRecord, signed: boolean, authed: boolean): Record<string, unknown> {
  return {
    id: user.id,
    login: user.name,
    login_name: authed ? user.loginName : '',
    source_id: authed ? user.sourceId : 0,
    full_name: user.fullName,
    email: signed && (!user.keepEmailPrivate || authed) ? user.email : `${user.name.toLowerCase()}@noreply.localhost`,
    avatar_url: avatarUrl(cx.root, user.email),
    html_url: `${cx.root}${goPathEscape(user.name)}`,
    language: authed ? user.language : '',
    is_admin: authed ? user.isAdmin : false,
    last_login: authed ? (user.lastLogin ?? EPOCH) : ZERO_TIME,
    created: user.createdAt,
    restricted: user.restricted,
    active: authed ? user.isActive : false,
    prohibit_login: authed ? user.prohibitLogin : false,
    location: user.location,
    website: user.website,
    description: user.description,
    visibility: user.visibility,
    followers_count: 0,
    following_count: 0,
    starred_repos_count: 0,
    type: 'User',
  };
}

/** An organisation rendered as a `User` (e.g. the owner of an organisation repository). */
export function orgAsUser(cx: ConvertContext, org: OrgRecord, signed: boolean): Record<string, unknown> {
  return {
    id: org.id,
    login: org.name,
    login_name: '',
    source_id: 0,
    full_name: org.fullName,
    email: signed ? org.email : '',
    avatar_url: avatarUrl(cx.root, `org:${org.id}`),
    html_url: `${cx.root}${goPathEscape(org.name)}`,
    language: '',
    is_admin: false,
    last_login: ZERO_TIME,
    created: org.createdAt,
    restricted: false,
    active: false,
    prohibit_login: false,
    location: org.location,
    website: org.website,
    description: org.description,
    visibility: org.visibility,
    followers_count: 0,
    following_count: 0,
    starred_repos_count: 0,
    type: 'Organization',
  };
}

/** `convert.ToUserWithAccessMode`: the owner of a repository, e-mail only for callers with access, never admin fields. */
export function ownerAsUser(cx: ConvertContext, owner: Owner, mode: number): Record<string, unknown> {
  const signed = mode > AccessMode.None;
  return owner.kind === 'user' ? renderUser(cx, owner.user, signed, false) : orgAsUser(cx, owner.org, signed);
}

/** `convert.ToOrganization`. */
export function toOrganization(cx: ConvertContext, org: OrgRecord): Record<string, unknown> {
  return {
    id: org.id,
    name: org.name,
    full_name: org.fullName,
    email: org.email,
    avatar_url: avatarUrl(cx.root, `org:${org.id}`),
    description: org.description,
    website: org.website,
    location: org.location,
    visibility: org.visibility,
    repo_admin_change_team_access: org.repoAdminChangeTeamAccess,
    username: org.name,
  };
}

export function repoApiUrl(cx: ConvertContext, repo: RepoRecord): string {
  const owner = cx.state.repoOwner(repo);
  return `${cx.root}api/v1/repos/${goPathEscape(owner.name)}/${goPathEscape(repo.name)}`;
}

export function repoHtmlUrl(cx: ConvertContext, repo: RepoRecord): string {
  const owner = cx.state.repoOwner(repo);
  return `${cx.root}${goPathEscape(owner.name)}/${goPathEscape(repo.name)}`;
}

/** `convert.ToRepo(ctx, repo, permission)`. */
export function toRepo(cx: ConvertContext, repo: RepoRecord, mode: number): Record<string, unknown> {
  const owner = cx.state.repoOwner(repo);
  const html = repoHtmlUrl(cx, repo);
  const openIssues = cx.state.issuesOfRepo(repo.id).filter((i) => i.state === 'open' && !i.isPull).length;
  const u = repo.units;
  return {
    id: repo.id,
    owner: ownerAsUser(cx, owner, mode),
    name: repo.name,
    full_name: `${owner.name}/${repo.name}`,
    description: repo.description,
    empty: repo.empty,
    private: repo.private,
    fork: false,
    template: repo.template,
    parent: null,
    mirror: false,
    size: 0,
    language: '',
    languages_url: `${repoApiUrl(cx, repo)}/languages`,
    html_url: html,
    url: repoApiUrl(cx, repo),
    link: '',
    ssh_url: `git@${host(cx.root)}:${goPathEscape(owner.name)}/${goPathEscape(repo.name)}.git`,
    clone_url: `${html}.git`,
    original_url: '',
    website: repo.website,
    stars_count: 0,
    forks_count: 0,
    watchers_count: 0,
    open_issues_count: openIssues,
    open_pr_counter: 0,
    release_counter: 0,
    default_branch: repo.defaultBranch,
    archived: repo.archived,
    created_at: repo.createdAt,
    updated_at: repo.updatedAt,
    archived_at: repo.archivedAt ?? EPOCH,
    permissions: { admin: mode >= AccessMode.Admin, push: mode >= AccessMode.Write, pull: mode >= AccessMode.Read },
    has_code: true,
    has_issues: u.hasIssues,
    internal_tracker: u.hasIssues ? { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true } : undefined,
    has_wiki: u.hasWiki,
    has_pull_requests: u.hasPullRequests,
    has_projects: u.hasProjects,
    projects_mode: 'all',
    has_releases: u.hasReleases,
    has_packages: u.hasPackages,
    has_actions: u.hasActions,
    ignore_whitespace_conflicts: false,
    allow_merge_commits: true,
    allow_rebase: true,
    allow_rebase_explicit: true,
    allow_squash_merge: true,
    allow_fast_forward_only_merge: true,
    allow_rebase_update: true,
    allow_manual_merge: false,
    autodetect_manual_merge: false,
    default_delete_branch_after_merge: false,
    default_merge_style: 'merge',
    default_allow_maintainer_edit: false,
    avatar_url: '',
    internal: false,
    mirror_interval: '',
    object_format_name: repo.objectFormatName,
    mirror_updated: ZERO_TIME,
    topics: [],
    licenses: [],
  };
}

/** `convert.ToLabel`: colour without `#`; `url` by where the label lives. */
export function toLabel(cx: ConvertContext, label: LabelRecord): Record<string, unknown> {
  let url = '';
  if (label.repoId) {
    const repo = cx.state.repoById(label.repoId);
    if (repo) url = `${repoApiUrl(cx, repo)}/labels/${label.id}`;
  } else {
    const org = cx.state.orgById(label.orgId);
    if (org) url = `${cx.root}api/v1/orgs/${goPathEscape(org.name)}/labels/${label.id}`;
  }
  return {
    id: label.id,
    name: label.name,
    exclusive: label.exclusive,
    is_archived: label.archivedAt !== null,
    color: label.color.replace(/^#/, ''),
    description: label.description,
    url,
  };
}

/** `convert.ToAPIMilestone`. */
export function toMilestone(cx: ConvertContext, m: MilestoneRecord): Record<string, unknown> {
  const issues = cx.state.data.issues.filter((i) => i.milestoneId === m.id);
  return {
    id: m.id,
    title: m.title,
    description: m.description,
    state: m.state,
    open_issues: issues.filter((i) => i.state === 'open').length,
    closed_issues: issues.filter((i) => i.state === 'closed').length,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    closed_at: m.closedAt,
    due_on: m.dueOn,
  };
}

/** Labels of an issue as the API lists them: sorted by name. */
export function issueLabels(cx: ConvertContext, issue: IssueRecord): LabelRecord[] {
  return issue.labelIds
    .map((id) => cx.state.labelById(id))
    .filter((l): l is LabelRecord => l !== undefined)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
}

/** `convert.ToAPIIssue`. */
export function toIssue(cx: ConvertContext, issue: IssueRecord, doer: UserRecord | null): Record<string, unknown> {
  const repo = cx.state.repoById(issue.repoId);
  if (!repo) throw new Error(`issue ${issue.id} has no repository`);
  const owner = cx.state.repoOwner(repo);
  const author = cx.state.userById(issue.authorId);
  const assignees = issue.assigneeIds.map((id) => cx.state.userById(id)).filter((u): u is UserRecord => u !== undefined);
  const milestone = issue.milestoneId ? cx.state.milestoneById(issue.milestoneId) : undefined;
  return {
    id: issue.id,
    url: `${repoApiUrl(cx, repo)}/issues/${issue.index}`,
    html_url: `${repoHtmlUrl(cx, repo)}/issues/${issue.index}`,
    number: issue.index,
    user: author ? toUser(cx, author, doer) : null,
    original_author: '',
    original_author_id: 0,
    title: issue.title,
    body: issue.body,
    ref: issue.ref,
    assets: [],
    labels: issueLabels(cx, issue).map((l) => toLabel(cx, l)),
    milestone: milestone ? toMilestone(cx, milestone) : null,
    // Go keeps a nil slice: no assignees is `null`, not `[]`.
    assignee: assignees[0] ? toUser(cx, assignees[0], null) : null,
    assignees: assignees.length ? assignees.map((a) => toUser(cx, a, null)) : null,
    state: issue.state,
    is_locked: issue.isLocked,
    comments: issue.numComments,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
    due_date: issue.dueDate,
    time_estimate: 0,
    pull_request: null,
    repository: { id: repo.id, name: repo.name, owner: owner.name, full_name: `${owner.name}/${repo.name}` },
    pin_order: issue.pinOrder,
    content_version: issue.contentVersion,
    projects: (issue.projectIds ?? [])
      .map((id) => cx.state.projectById(id))
      .filter((p): p is ProjectRecord => p !== undefined)
      .map((p) => toProject(cx, p)),
  };
}

/** `structs.Project` (newest swagger; `creator`, `updated_at`, `closed_at`, `html_url` are omitempty). */
export function toProject(cx: ConvertContext, p: ProjectRecord): Record<string, unknown> {
  const issues = cx.state.data.issues.filter((i) => (i.projectIds ?? []).includes(p.id));
  const repo = p.repoId ? cx.state.repoById(p.repoId) : undefined;
  const owner = p.ownerId ? cx.state.ownerById(p.ownerId) : undefined;
  const html = repo ? `${repoHtmlUrl(cx, repo)}/projects/${p.id}` : owner ? `${cx.root}${owner.kind === 'org' ? 'org/' : ''}${goPathEscape(owner.name)}/-/projects/${p.id}` : '';
  return {
    id: p.id,
    title: p.title,
    description: p.description,
    owner_id: p.ownerId,
    repo_id: p.repoId,
    state: p.state,
    template_type: 'none',
    card_type: 'text_only',
    type: p.repoId ? 'repository' : owner?.kind === 'org' ? 'organization' : 'individual',
    num_open_issues: issues.filter((i) => i.state === 'open').length,
    num_closed_issues: issues.filter((i) => i.state === 'closed').length,
    num_issues: issues.length,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    ...(p.closedAt ? { closed_at: p.closedAt } : {}),
    ...(html ? { html_url: html } : {}),
  };
}
