/**
 * `GET /repos/{owner}/{repo}/branches/{branch}` (`repo.GetBranch`): Gitea v1.25.4
 * `routers/api/v1/repo/branch.go` GetBranch — `git_model.IsBranchExist` (the branch table), 404 when it is
 * not there, else the branch with its head commit (convert.ToBranch). Routed `m.Get("/*", repo.GetBranch)`
 * under `/branches` with `context.ReferencesGitRepo()` and `reqRepoReader(unit.TypeCode)` (api.go
 * l.1257–1263; v1.21.11 l.1101, Forgejo v7.0.16 l.1053, v15.0.3 l.1206, 1.26 main l.1222): a name with an
 * escaped `/` is one branch. The sandbox keeps branch names only; the commit is made up from them.
 */
import { inRepo } from '../../http/context.js';
import { createHash } from 'node:crypto';
import { notFound, repoAssignment, reqRepoReader } from '../../http/checks.js';
import { scope } from '../../http/auth.js';
import { json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { shapeAnswer } from '../../flavours/releases.js';
import { AccessMode } from '../../core/state.js';

export function registerBranchRoutes(r: ApiRouter): void {
  r.on('GET', '/repos/:owner/:repo/branches/:branch', scope('repository'), repoAssignment, reqRepoReader('code'), inRepo((ctx) => {
    const repo = ctx.repo;
    const name = ctx.params.branch ?? '';
    if (!repo.branches.includes(name)) return notFound(ctx);
    const id = createHash('sha1').update(`${repo.id}/${name}`).digest('hex');
    const commit = { id, message: 'sandbox commit\n', url: `${ctx.root}${repo.name}/commit/${id}`, author: null, committer: null, verification: null, timestamp: '2024-01-01T00:00:00Z', added: null, removed: null, modified: null };
    const branch = { name, commit, protected: false, required_approvals: 0, enable_status_check: false, status_check_contexts: [], user_can_push: ctx.repoMode >= AccessMode.Write, user_can_merge: ctx.repoMode >= AccessMode.Write, effective_branch_protection_name: '' };
    return json(200, shapeAnswer(ctx.flavour, 'Branch', branch));
  }));
}
