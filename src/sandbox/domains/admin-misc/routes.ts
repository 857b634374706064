/**
 * Other admin endpoints: cron tasks (`routers/api/v1/admin/cron.go`), packages
 * (`admin/packages.go`, newest only) and unadopted repositories (`admin/adopt.go`,
 * `services/repository/adopt.go`).
 */
import { reqSiteAdmin, reqToken, scope } from '../../http/auth.js';
import { notFound } from '../../http/checks.js';
import type { ApiContext } from '../../http/context.js';
import { listOptions, paginate, setLinkHeader, setTotalCountHeader } from '../../http/paging.js';
import { apiError, empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { toPackage } from './convert.js';
import { catchUp, cronTasks, toCron } from './cron.js';
import { compileGlob, GlobError } from '../../../releases/glob.js';
import type { SandboxState } from '../../core/state.js';
import type { UnadoptedRecord } from './records.js';
import { createRepo } from '../repos/service.js';
import { isFailure } from '../../core/failure.js';

/** The `type` values of `GET /admin/packages` (swagger enum). */
export const PACKAGE_TYPES = [
  'alpine', 'cargo', 'chef', 'composer', 'conan', 'conda', 'container', 'cran', 'debian', 'generic', 'go', 'helm', 'maven', 'npm', 'nuget', 'pub',
  'pypi', 'rpm', 'rubygems', 'swift', 'terraform', 'vagrant',
] as const;

// ---- cron -----------------------------------------------------------------------------------------

function listCron(ctx: ApiContext): Response {
  const tasks = cronTasks(ctx.state);
  const opts = listOptions(ctx);
  setTotalCountHeader(ctx, tasks.length);
  return json(200, paginate(tasks, opts).map((t) => toCron(t)));
}

/** `PostCronTask`: any registered task runs (disabled ones too), synchronously: 204. */
function runCron(ctx: ApiContext): Response {
  const task = cronTasks(ctx.state).find((t) => t.name === ctx.params.task);
  if (!task) return notFound(ctx);
  catchUp(task);
  task.execTimes++;
  return empty(204);
}

// ---- packages -------------------------------------------------------------------------------------

function listPackages(ctx: ApiContext): Response {
  const opts = listOptions(ctx);
  const type = (ctx.query.get('type') ?? '').trim();
  const q = (ctx.query.get('q') ?? '').trim().toLowerCase();
  const pkgs = ctx.state.data.packages
    .filter((p) => !p.isInternal)
    .filter((p) => !type || p.type === type)
    .filter((p) => !q || p.name.toLowerCase().includes(q))
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id);
  setLinkHeader(ctx, pkgs.length, opts.pageSize);
  setTotalCountHeader(ctx, pkgs.length);
  return json(200, paginate(pkgs, opts).map((p) => toPackage(ctx, p, ctx.doer)));
}

// ---- unadopted repositories ----------------------------------------------------------------------

/** `glob.Compile(part)`: the matcher, or undefined when the pattern does not compile. */
function compileQueryGlob(pattern: string): RegExp | undefined {
  try {
    return compileGlob(pattern);
  } catch (err) {
    if (err instanceof GlobError) return undefined;
    throw err;
  }
}

const RESERVED_REPO_NAMES = new Set(['.', '..', '-']);

/** `repo_model.IsUsableRepoName`. */
function isUsableRepoName(name: string): boolean {
  const n = name.toLowerCase();
  if (!/^[\w.-]+$/.test(name) || RESERVED_REPO_NAMES.has(n)) return false;
  return !['.wiki', '.git', '.rss', '.atom'].some((s) => n.endsWith(s));
}

/** The repository root as `filepath.WalkDir` sees it: owner directories with their `<name>.git` entries, sorted. */
function repoRootDirs(state: SandboxState): [string, string[]][] {
  const dirs = new Map<string, Set<string>>();
  const add = (owner: string, dir: string): void => {
    const set = dirs.get(owner) ?? new Set<string>();
    set.add(dir);
    dirs.set(owner, set);
  };
  for (const r of state.data.repos) add(state.repoOwner(r).name.toLowerCase(), `${r.name.toLowerCase()}.git`);
  for (const u of state.data.unadopted) add(u.owner, `${u.name}.git`);
  const byBytes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return [...dirs.entries()].sort(([a], [b]) => byBytes(a, b)).map(([o, set]) => [o, [...set].sort(byBytes)]);
}

function listUnadopted(ctx: ApiContext): Response {
  const { state } = ctx;
  const opts = listOptions(ctx);
  // Only `query` is read (the old swagger's `pattern` never was); an invalid glob leaves a nil matcher.
  const query = ctx.query.get('query') ?? '';
  let globUser: RegExp | undefined = /^.*$/s;
  let globRepo: RegExp | undefined = /^.*$/s;
  if (query) {
    const [u, r] = [query.slice(0, query.includes('/') ? query.indexOf('/') : undefined), query.includes('/') ? query.slice(query.indexOf('/') + 1) : undefined];
    globUser = compileQueryGlob(u);
    if (r !== undefined) globRepo = compileQueryGlob(r);
  }
  const nilMatcher = (): Response => apiError(ctx.root, 500, 'runtime error: invalid memory address or nil pointer dereference');
  const found: string[] = [];
  for (const [ownerDir, repoDirs] of repoRootDirs(state)) {
    if (!globUser) return nilMatcher();
    if (!globUser.test(ownerDir)) continue;
    const owner = state.ownerByName(ownerDir);
    for (const dir of repoDirs) {
      const name = dir.slice(0, -4);
      if (!isUsableRepoName(name) || name.toLowerCase() !== name) continue;
      if (!globRepo) return nilMatcher();
      if (!globRepo.test(name)) continue;
      // checkUnadoptedRepositories: unknown owners are skipped, repositories in the database are adopted.
      if (owner && !state.repoByName(owner.id, name)) found.push(`${ownerDir}/${name}`);
    }
  }
  setTotalCountHeader(ctx, found.length);
  return json(200, paginate(found, opts));
}

/** The unadopted directory `<owner>/<repo>.git` (paths are lower-cased, as `RepoPath` does). */
function unadoptedDir(ctx: ApiContext): { entry: UnadoptedRecord; ownerId: number } | Response {
  const { state } = ctx;
  const owner = state.ownerByName(ctx.params.owner ?? '');
  if (!owner) return notFound(ctx);
  const repoName = ctx.params.repo ?? '';
  const entry = state.data.unadopted.find((u) => u.owner === owner.name.toLowerCase() && u.name === repoName.toLowerCase());
  if (state.repoByName(owner.id, repoName) || !entry) return notFound(ctx);
  return { entry, ownerId: owner.id };
}

function adopt(ctx: ApiContext): Response {
  const found = unadoptedDir(ctx);
  if (found instanceof Response) return found;
  const { entry, ownerId } = found;
  const repo = createRepo(ctx.state, ownerId, { name: ctx.params.repo ?? '', private: true });
  if (isFailure(repo)) return apiError(ctx.root, 500, repo.message);
  // adoptRepository: the configured default branch if present, else master, main, the first branch; none = empty.
  const branches = entry.branches;
  repo.branches = [...branches];
  repo.empty = branches.length === 0;
  repo.defaultBranch = branches.includes('main') ? 'main' : branches.includes('master') ? 'master' : (branches[0] ?? 'main');
  ctx.state.data.unadopted = ctx.state.data.unadopted.filter((u) => u !== entry);
  return empty(204);
}

function deleteUnadopted(ctx: ApiContext): Response {
  const found = unadoptedDir(ctx);
  if (found instanceof Response) return found;
  ctx.state.data.unadopted = ctx.state.data.unadopted.filter((u) => u !== found.entry);
  return empty(204);
}

export function registerAdminMiscRoutes(r: ApiRouter): void {
  const admin = [scope('admin'), reqToken, reqSiteAdmin];

  r.on('GET', '/admin/cron', ...admin, listCron);
  r.on('POST', '/admin/cron/:task', ...admin, runCron);

  r.on('GET', '/admin/packages', ...admin, listPackages);

  r.on('GET', '/admin/unadopted', ...admin, listUnadopted);
  r.on('POST', '/admin/unadopted/:owner/:repo', ...admin, adopt);
  r.on('DELETE', '/admin/unadopted/:owner/:repo', ...admin, deleteUnadopted);
}
