// A default branch that does not exist is never taken: Gitea's EditRepo changes it only `if repo.IsEmpty ||
// IsBranchExist(name)` and otherwise answers 200 with the value kept (v1.25.4 routers/api/v1/repo/repo.go
// l.738; v1.21.11 l.730, Forgejo v15.0.3 l.817, 1.26 main l.721), so the plan would show the change forever.
// The plan reads the branch (one GET, only when the default branch changes), and knows what a repository it
// creates will have: with auto_init one branch, create.default_branch or the server's default
// (services/repository/create.go l.218–220, initRepoCommit l.165), none without it (an empty repository
// takes any name).
import { isApiError } from '../../gitea/errors.js';
import { apiPath } from '../../gitea/path.js';
import type { PrepareRequest, Problem } from '../../model/index.js';
import type { RepoSettingsTypes } from './types.js';

const KEPT = 'Gitea changes the default branch only to a branch that exists (it answers 200 and keeps the old one)';

/** Whether the repository has the branch: GET …/branches/{branch}, 404 when not. */
async function hasBranch(req: PrepareRequest<RepoSettingsTypes>, branch: string): Promise<boolean> {
  try {
    await req.ctx.cachedGet(apiPath(...req.scope.segments, 'branches', branch), { object: `branch ${branch} of ${req.scope.name}` });
    return true;
  } catch (e) {
    if (isApiError(e, 404)) return false;
    throw e;
  }
}

/** At plan time: why the declared default branch cannot be taken (a saved plan asks nothing: the change shows the value). */
export async function defaultBranchProblems(req: PrepareRequest<RepoSettingsTypes>): Promise<Problem[]> {
  const d = req.desired[0];
  const want = d?.fields.default_branch;
  if (req.phase !== 'plan' || !d || typeof want !== 'string' || req.current[0]?.fields.default_branch === want) return [];
  const path = [...d.path, 'default_branch'];
  if (req.scope.pendingCreate) {
    const create = req.config.repos?.[req.scope.name]?.create;
    if (!create?.auto_init || create.default_branch === want) return [];
    const first = create.default_branch ? `"${create.default_branch}"` : "named after the server's default branch (repository.DEFAULT_BRANCH, main unless changed)";
    return [{ path, message: `default_branch: "${want}" is not a branch of ${req.scope.name} as this plan creates it: with auto_init it has one branch, ${first}; ${KEPT}. Name the first branch with create.default_branch: ${want}` }];
  }
  const repo = await req.ctx.cachedGet<{ empty?: unknown }>(apiPath(...req.scope.segments), { object: `repository ${req.scope.name}` });
  if (repo.empty === true || (await hasBranch(req, want))) return [];
  return [{ path, message: `default_branch: ${req.scope.name} has no branch "${want}"; ${KEPT}. Push the branch first, or name one that exists` }];
}
