/**
 * Repositories: create (shared by the admin route and the seed loader), get, edit, and the
 * owner listings `GET /orgs/{org}/repos` and `GET /users/{username}/repos` (paged, id order,
 * `X-Total-Count` + `Link`, only repositories the caller can see).
 */
import { ADMIN_STEPS, reqToken, scope } from '../../http/auth.js';
import { bind, notFound, orgAssignment, repoAssignment, reqRepoAdmin, userAssignment, formOf } from '../../http/checks.js';
import { type ApiContext, forUser, inRepo, type RepoContext } from '../../http/context.js';
import { listOptions, paginate, setLinkHeader, setTotalCountHeader } from '../../http/paging.js';
import { apiError, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { toRepo } from './convert.js';
import { repoAccessMode, userVisibleTo } from '../../core/permissions.js';
import { AccessMode, nowIso, REPOS, type Owner } from '../../core/state.js';
import { checkUsableName, fail, isFailure } from '../../core/failure.js';
import { CreateRepoOption, EditRepoOption } from './options.js';
import { editPullSettings, registerTopicRoutes } from './settings.js';
import { registerBranchRoutes } from './branches.js';
import { createRepoForOwner, RESERVED_REPO_NAMES, RESERVED_REPO_PATTERNS } from './service.js';
import { updateMirror } from '../mirrors/pull.js';

/**
 * `repo.Edit`: basic properties, units, then the archived state — each applied as given. Pull-request
 * settings only with has_pull_requests: true in the same body (settings.ts). No archived check: Gitea
 * edits an archived repository's settings (the route has no mustNotBeArchived).
 */
function editRepo(ctx: RepoContext): Response {
  const repo = ctx.repo;
  const form = formOf(ctx, EditRepoOption);
  const { state } = ctx;
  const newName = form.name;
  if (newName !== undefined && newName !== repo.name) {
    const unusable = checkUsableName(newName, RESERVED_REPO_NAMES, RESERVED_REPO_PATTERNS);
    if (unusable) return fail(ctx, unusable);
    const other = state.repoByName(repo.ownerId, newName);
    if (other && other.id !== repo.id) return apiError(ctx.root, 422, `repository already exists [uname: ${ctx.repoOwner.name}, name: ${newName}]`);
    state.indexes.of(REPOS).change(repo, () => (repo.name = newName));
  }
  if (form.description !== undefined) repo.description = form.description;
  if (form.website !== undefined) repo.website = form.website;
  if (form.template !== undefined) repo.template = form.template;
  if (form.private !== undefined) repo.private = form.private;
  // A default branch is changed only to a branch that exists (or on an empty repository).
  if (form.default_branch !== undefined && form.default_branch !== repo.defaultBranch && (repo.empty || repo.branches.includes(form.default_branch))) {
    repo.defaultBranch = form.default_branch;
  }
  const units = repo.units;
  if (form.has_issues !== undefined) units.hasIssues = form.has_issues;
  if (form.has_wiki !== undefined) units.hasWiki = form.has_wiki;
  editPullSettings(ctx.flavour, repo, form);
  if (form.has_projects !== undefined) units.hasProjects = form.has_projects;
  if (form.has_releases !== undefined) units.hasReleases = form.has_releases;
  if (form.has_packages !== undefined) units.hasPackages = form.has_packages;
  if (form.has_actions !== undefined) units.hasActions = form.has_actions;
  if (form.archived !== undefined && form.archived !== repo.archived) {
    repo.archived = form.archived;
    repo.archivedAt = form.archived ? nowIso() : null;
  }
  // updateMirror comes last (repo.go Edit): what came before is saved even when it refuses.
  const refused = updateMirror(ctx, repo, form);
  if (refused) return refused;
  repo.updatedAt = nowIso();
  return json(200, toRepo(ctx, repo, ctx.repoMode));
}

/** `listUserRepos` (current upstream): the owner's repositories the caller may see, by id. */
function listOwnerRepos(ctx: ApiContext, owner: Owner): Response {
  const type = ctx.query.get('type') ?? '';
  if (!['', 'all', 'public', 'private'].includes(type)) {
    return apiError(ctx.root, 422, `Invalid type="${type}", must be one of: all, public, private`);
  }
  const opts = listOptions(ctx);
  let isPrivate: boolean | undefined = type === 'public' ? false : type === 'private' ? true : undefined;
  if (!ctx.isSigned) {
    if (isPrivate === true) {
      setLinkHeader(ctx, 0, opts.pageSize);
      setTotalCountHeader(ctx, 0);
      return json(200, []);
    }
    isPrivate = false;
  }
  const doer = ctx.doer;
  const seesAll = doer !== null && (doer.isAdmin || doer.id === owner.id);
  const repos = ctx.state
    .reposOfOwner(owner.id)
    .filter((r) => isPrivate === undefined || r.private === isPrivate)
    .filter((r) => seesAll || repoAccessMode(ctx.state, r, doer) >= AccessMode.Read);
  setLinkHeader(ctx, repos.length, opts.pageSize);
  setTotalCountHeader(ctx, repos.length);
  return json(
    200,
    paginate(repos, opts).map((r) => toRepo(ctx, r, repoAccessMode(ctx.state, r, doer))),
  );
}

export function registerRepoRoutes(r: ApiRouter): void {
  r.on('POST', '/admin/users/:username/repos', ...ADMIN_STEPS, userAssignment, bind(CreateRepoOption), forUser((ctx) => {
    const res = createRepoForOwner(ctx.state, ctx.contextUser.id, formOf(ctx, CreateRepoOption));
    if (isFailure(res)) return fail(ctx, res);
    return json(201, toRepo(ctx, res, AccessMode.Owner));
  }));

  const repoRoute = [scope('repository'), repoAssignment];

  r.on('GET', '/repos/:owner/:repo', ...repoRoute, inRepo((ctx) => json(200, toRepo(ctx, ctx.repo, ctx.repoMode))));
  r.on('PATCH', '/repos/:owner/:repo', ...repoRoute, reqToken, reqRepoAdmin, bind(EditRepoOption), inRepo(editRepo));
  registerTopicRoutes(r, repoRoute);
  registerBranchRoutes(r);

  r.on('GET', '/orgs/:org/repos', scope('organization'), orgAssignment, forUser((ctx) => listOwnerRepos(ctx, ctx.contextUser)));

  r.on(
    'GET',
    '/users/:username/repos',
    scope('user'),
    userAssignment,
    // individualPermsChecker: a private or limited user is 404 to those who may not see them.
    forUser((ctx) => {
      const owner = ctx.contextUser;
      if (owner.kind === 'user' && !userVisibleTo(owner.user, ctx.doer)) return notFound(ctx);
      return undefined;
    }),
    scope('repository'),
    forUser((ctx) => listOwnerRepos(ctx, ctx.contextUser)),
  );
}
