/** API `Repository` objects and repository URLs. */
import { goPathEscape } from '../../http/respond.js';
import { EPOCH, host, ZERO_TIME, type ConvertContext } from '../../core/convert.js';
import { AccessMode, type Owner, type RepoRecord } from '../../core/state.js';
import { orgAsUser } from '../orgs/convert.js';
import { renderUser } from '../users/convert.js';
import { issuesOfRepo } from '../issues/records.js';
import { pullSettingsOf } from './settings.js';
import { shapeAnswer } from '../../flavours/releases.js';
import { mirrorAnswer } from '../mirrors/answer.js';

/** `convert.ToUserWithAccessMode`: the owner of a repository, e-mail only for callers with access, never admin fields. */
export function ownerAsUser(cx: ConvertContext, owner: Owner, mode: number): Record<string, unknown> {
  const signed = mode > AccessMode.None;
  return owner.kind === 'user' ? renderUser(cx, owner.user, signed, false) : orgAsUser(cx, owner.org, signed);
}

export function repoApiUrl(cx: ConvertContext, repo: RepoRecord): string {
  const owner = cx.state.repoOwner(repo);
  return `${cx.root}api/v1/repos/${goPathEscape(owner.name)}/${goPathEscape(repo.name)}`;
}

export function repoHtmlUrl(cx: ConvertContext, repo: RepoRecord): string {
  const owner = cx.state.repoOwner(repo);
  return `${cx.root}${goPathEscape(owner.name)}/${goPathEscape(repo.name)}`;
}

/** `convert.ToRepo(ctx, repo, permission)`, with the keys of the release's Repository (no topics before Gitea 1.23 and Forgejo 11). */
export function toRepo(cx: ConvertContext, repo: RepoRecord, mode: number): Record<string, unknown> {
  const owner = cx.state.repoOwner(repo);
  const html = repoHtmlUrl(cx, repo);
  const mirror = mirrorAnswer(cx, repo);
  const openIssues = issuesOfRepo(cx.state, repo.id).filter((i) => i.state === 'open' && !i.isPull).length;
  const u = repo.units;
  return shapeAnswer(cx.flavour, 'Repository', {
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
    mirror: mirror.mirror,
    size: 0,
    language: '',
    languages_url: `${repoApiUrl(cx, repo)}/languages`,
    html_url: html,
    url: repoApiUrl(cx, repo),
    link: '',
    ssh_url: `git@${host(cx.root)}:${goPathEscape(owner.name)}/${goPathEscape(repo.name)}.git`,
    clone_url: `${html}.git`,
    original_url: mirror.original_url,
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
    ...pullSettingsOf(repo),
    avatar_url: '',
    internal: false,
    mirror_interval: mirror.mirror_interval,
    object_format_name: repo.objectFormatName,
    mirror_updated: ZERO_TIME,
    topics: repo.topics ?? [],
    licenses: [],
  });
}
