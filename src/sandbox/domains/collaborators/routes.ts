/**
 * The collaborator routes (`routers/api/v1/repo/collaborators.go`, helpers `modules/repository/collaborator.go`
 * (Gitea ≤ 1.22, Forgejo) or `services/repository/collaboration.go` (Gitea 1.23+)): list a repository's
 * collaborators, check, add or change, remove one, and a user's permission. What each release does
 * differently is in NOTES.md ("Collaborators") and test/conformance/collaborators.test.ts: the list unpaged
 * without `page` on Gitea ≤ 1.25; a PUT without (or with an unknown) permission adds at write and leaves an
 * existing collaborator alone on Gitea ≤ 1.22 and Forgejo, sets write (or fails with a 500) on Gitea 1.23+.
 */
import { reqToken } from '../../http/auth.js';
import { bind, formOf, internalError, repoAssignment, reqRepoAdmin } from '../../http/checks.js';
import { type ApiContext, type DoerFacts, inRepo, type RepoContext, signedIn } from '../../http/context.js';
import { formInt, listOptions, paginate, setTotalCountHeader } from '../../http/paging.js';
import { apiError, empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { hasMember, orgVisibleTo, userVisibleTo } from '../../core/permissions.js';
import { AccessMode, type CollaboratorPermission, type RepoRecord, type UserRecord } from '../../core/state.js';
import { hasQuirk } from '../../flavours/releases.js';
import { scope } from '../../http/auth.js';
import { isAdminTeam, teamAccessTableMode, teamHasRepo, teamsOfOrg } from '../teams/records.js';
import { toUser } from '../users/convert.js';
import { AddCollaboratorOption } from './options.js';

const COLLAB_MODE: Record<CollaboratorPermission, number> = { read: AccessMode.Read, write: AccessMode.Write, admin: AccessMode.Admin };

const MODE_NAMES: Record<number, string> = { [AccessMode.None]: 'none', [AccessMode.Read]: 'read', [AccessMode.Write]: 'write', [AccessMode.Admin]: 'admin', [AccessMode.Owner]: 'owner' };


/** `user_model.GetUserByName` (individual users only, case-insensitive): unknown → `ErrUserNotExist`. */
const userNamed = (ctx: ApiContext): UserRecord | undefined => ctx.state.userByName(ctx.params.collaborator ?? '');
const noSuchUser = (ctx: ApiContext, status: number): Response => apiError(ctx.root, status, `user does not exist [uid: 0, name: ${ctx.params.collaborator ?? ''}]`);

/** `perm.ParseAccessMode`: read, write, admin; anything else none. */
const parseMode = (s: string): CollaboratorPermission | undefined => (s === 'read' || s === 'write' || s === 'admin' ? s : undefined);

/**
 * `access_model.GetUserRepoPermission`'s AccessMode, the route's answer (v1.25.4
 * models/perm/access/repo_permission.go l.258–359; v1.21.11 l.130–261; Forgejo v15.0.3 l.192–337): none
 * when the owner is invisible to a user who is no collaborator; owner for site admins and the repository's
 * owner (l.304–305); else the access table (`accessLevel`, access.go l.36–70): the highest of the
 * collaboration's mode and the stored mode of each team of the user that has the repository — the teams'
 * own `authorize`, not their units (RecalculateUserAccess l.196–242; the Owners team owner) — at least read
 * on a public repository; owner on an organisation's repository for a member of a team with admin access
 * (l.341–347). Team units only reach `unitsMode`, which this route does not answer: a read or write team
 * created on Gitea 1.24+ (stored as none) leaves the answer at the collaboration's level.
 */
function permissionOf(ctx: ApiContext, repo: RepoRecord, user: UserRecord): number {
  if (user.isAdmin || repo.ownerId === user.id) return AccessMode.Owner;
  const collaboration = repo.collaborators.find((c) => c.userId === user.id);
  const owner = ctx.state.repoOwner(repo);
  const visible = owner.kind === 'org' ? orgVisibleTo(ctx.state, owner.org, user) : userVisibleTo(owner.user, user);
  if (!visible && !collaboration) return AccessMode.None;
  const teams = owner.kind === 'org' ? teamsOfOrg(ctx.state, owner.id).filter((t) => teamHasRepo(t, repo) && hasMember(t.memberIds, user.id)) : [];
  if (teams.some(isAdminTeam)) return AccessMode.Owner;
  const table = Math.max(collaboration ? COLLAB_MODE[collaboration.permission] : AccessMode.None, ...teams.map(teamAccessTableMode));
  return !repo.private && !user.restricted ? Math.max(table, AccessMode.Read) : table;
}

function listCollaborators(ctx: RepoContext): Response {
  const repo = ctx.repo;
  const users = repo.collaborators.map((c) => ctx.state.userById(c.userId)).filter((u): u is UserRecord => u !== undefined);
  setTotalCountHeader(ctx, users.length);
  // Gitea ≤ 1.25 passes page 0 through when `page` is absent, and the query then has no limit.
  const unpaged = hasQuirk(ctx.flavour, 'collaboratorsUnpagedWithoutPage') && formInt(ctx.query, 'page') <= 0;
  return json(200, (unpaged ? users : paginate(users, listOptions(ctx))).map((u) => toUser(ctx, u, ctx.doer)));
}

function isCollaborator(ctx: RepoContext): Response {
  const user = userNamed(ctx);
  if (!user) return noSuchUser(ctx, 422);
  return ctx.repo.collaborators.some((c) => c.userId === user.id) ? empty(204) : apiError(ctx.root, 404, 'not found');
}

/**
 * `AddCollaborator` (Gitea ≤ 1.22, Forgejo): a new collaborator at write, then the permission when one is
 * given and valid (ChangeCollaborationAccessMode discards none). `AddOrUpdateCollaborator` (Gitea 1.23+):
 * the permission given, write when none, a 500 for an unknown one. No check of the repository's owner.
 */
function addCollaborator(ctx: RepoContext): Response {
  const form = formOf(ctx, AddCollaboratorOption);
  const user = userNamed(ctx);
  if (!user) return noSuchUser(ctx, 422);
  if (!user.isActive) return internalError(ctx, "collaborator's account is inactive");
  const repo = ctx.repo;
  const existing = repo.collaborators.find((c) => c.userId === user.id);
  const given = form.permission === undefined || form.permission === null ? undefined : parseMode(form.permission);
  if (hasQuirk(ctx.flavour, 'collaboratorAddOrUpdate')) {
    if (form.permission !== undefined && form.permission !== null && !given) return internalError(ctx, 'Invalid access mode');
    const mode = given ?? 'write';
    if (existing) existing.permission = mode;
    else repo.collaborators.push({ userId: user.id, permission: mode });
    return empty(204);
  }
  const row = existing ?? { userId: user.id, permission: 'write' };
  if (!existing) repo.collaborators.push(row);
  if (given) row.permission = given;
  return empty(204);
}

/** `DeleteCollaboration`: nothing to delete is no error (204). */
function deleteCollaborator(ctx: RepoContext): Response {
  const user = userNamed(ctx);
  if (!user) return noSuchUser(ctx, 422);
  const repo = ctx.repo;
  repo.collaborators = repo.collaborators.filter((c) => c.userId !== user.id);
  return empty(204);
}

/** `GetRepoPermissions`: admins, repository admins and the user themself may ask; an unknown user is 404. */
function getPermission(ctx: RepoContext & DoerFacts): Response {
  const doer = ctx.doer;
  const name = ctx.params.collaborator ?? '';
  if (!doer.isAdmin && doer.name.toLowerCase() !== name.toLowerCase() && ctx.repoMode < AccessMode.Admin)
    return apiError(ctx.root, 403, 'Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own');
  const user = userNamed(ctx);
  if (!user) return noSuchUser(ctx, 404);
  const mode = MODE_NAMES[permissionOf(ctx, ctx.repo, user)] ?? 'none';
  return json(200, { user: toUser(ctx, user, doer), permission: mode, role_name: mode });
}

export function registerCollaboratorRoutes(r: ApiRouter): void {
  const repo = [scope('repository'), repoAssignment, reqToken];
  r.on('GET', '/repos/:owner/:repo/collaborators', ...repo, inRepo(listCollaborators));
  r.on('GET', '/repos/:owner/:repo/collaborators/:collaborator', ...repo, inRepo(isCollaborator));
  r.on('PUT', '/repos/:owner/:repo/collaborators/:collaborator', ...repo, reqRepoAdmin, bind(AddCollaboratorOption), inRepo(addCollaborator));
  r.on('DELETE', '/repos/:owner/:repo/collaborators/:collaborator', ...repo, reqRepoAdmin, inRepo(deleteCollaborator));
  r.on('GET', '/repos/:owner/:repo/collaborators/:collaborator/permission', ...repo, inRepo(signedIn(getPermission)));
}
