/**
 * Who may do what: a small model of Gitea's `models/perm/access` and `models/organization`.
 *
 * - site admins get admin rights on every repository;
 * - the user owning a repository is its owner; owners of an organisation (members of a team with
 *   `owner` permission) are owners of every repository of it;
 * - teams give their permission on the repositories they include, collaborators theirs;
 * - a public repository is readable by anyone who can see its owner (restricted users excepted).
 */
import { AccessMode, type OrgRecord, type RepoRecord, type SandboxState, type TeamPermission, type TeamRecord, type UserRecord } from './state.js';

const TEAM_MODE: Record<TeamPermission, number> = { read: AccessMode.Read, write: AccessMode.Write, admin: AccessMode.Admin, owner: AccessMode.Owner };
const COLLAB_MODE = { read: AccessMode.Read, write: AccessMode.Write, admin: AccessMode.Admin } as const;

export function teamMode(team: TeamRecord): number {
  return TEAM_MODE[team.permission];
}

export function isOrgOwner(state: SandboxState, org: OrgRecord, userId: number): boolean {
  return state.teamsOfOrg(org.id).some((t) => t.permission === 'owner' && t.memberIds.includes(userId));
}

export function isOrgMember(state: SandboxState, org: OrgRecord, userId: number): boolean {
  return org.memberIds.includes(userId) || state.teamsOfOrg(org.id).some((t) => t.memberIds.includes(userId));
}

/** `HasOrgOrUserVisible` for organisations. */
export function orgVisibleTo(state: SandboxState, org: OrgRecord, viewer: UserRecord | null): boolean {
  if (org.visibility === 'public') return true;
  if (!viewer) return false;
  if (org.visibility === 'limited') return true;
  return viewer.isAdmin || isOrgMember(state, org, viewer.id);
}

/** `HasOrgOrUserVisible` for individual users. */
export function userVisibleTo(user: UserRecord, viewer: UserRecord | null): boolean {
  if (user.visibility === 'public') return true;
  if (!viewer) return false;
  if (user.visibility === 'limited') return true;
  return viewer.isAdmin || viewer.id === user.id;
}

export function teamHasRepo(team: TeamRecord, repo: RepoRecord): boolean {
  return team.includesAllRepositories || team.permission === 'owner' || team.repoIds.includes(repo.id);
}

/**
 * The "access table": explicit rights from collaborations and teams (not from ownership of a
 * user repository, not from being a site admin, not from the repository being public).
 */
export function explicitAccess(state: SandboxState, repo: RepoRecord, userId: number): number {
  let mode: number = AccessMode.None;
  for (const c of repo.collaborators) if (c.userId === userId) mode = Math.max(mode, COLLAB_MODE[c.permission]);
  const owner = state.repoOwner(repo);
  if (owner.kind === 'org') {
    for (const team of state.teamsOfOrg(owner.id)) {
      if (teamHasRepo(team, repo) && team.memberIds.includes(userId)) mode = Math.max(mode, teamMode(team));
    }
  }
  return mode;
}

/** The effective access mode of a user (or anonymous caller) on a repository. */
export function repoAccessMode(state: SandboxState, repo: RepoRecord, user: UserRecord | null): number {
  const owner = state.repoOwner(repo);
  if (user?.isAdmin) return AccessMode.Admin;
  if (user && owner.kind === 'user' && owner.id === user.id) return AccessMode.Owner;
  if (owner.kind === 'org' && !orgVisibleTo(state, owner.org, user)) return AccessMode.None;
  if (owner.kind === 'user' && !userVisibleTo(owner.user, user)) return AccessMode.None;
  if (!user) return repo.private ? AccessMode.None : AccessMode.Read;
  if (owner.kind === 'org' && isOrgOwner(state, owner.org, user.id)) return AccessMode.Owner;
  const explicit = explicitAccess(state, repo, user.id);
  if (!repo.private && !user.restricted) return Math.max(explicit, AccessMode.Read);
  return explicit;
}

/** `IsRepoReader`: owner of a user repository or explicit read access. */
export function isExplicitReader(state: SandboxState, repo: RepoRecord, userId: number): boolean {
  if (repo.ownerId === userId) return true;
  return explicitAccess(state, repo, userId) >= AccessMode.Read;
}

/**
 * `GetRepoReaders`: users with explicit read access, in id order, then the owner of a user
 * repository. Branch-protection read-back lists only these users, in this order.
 */
export function explicitReaderIds(state: SandboxState, repo: RepoRecord): number[] {
  const ids = state.data.users
    .filter((u) => u.id !== repo.ownerId && explicitAccess(state, repo, u.id) >= AccessMode.Read)
    .map((u) => u.id)
    .sort((a, b) => a - b);
  if (state.repoOwner(repo).kind === 'user') ids.push(repo.ownerId);
  return ids;
}

/** Teams of the owning organisation with at least read access to the repository (id order). */
export function teamsWithAccess(state: SandboxState, repo: RepoRecord): TeamRecord[] {
  const owner = state.repoOwner(repo);
  if (owner.kind !== 'org') return [];
  return state
    .teamsOfOrg(owner.id)
    .filter((t) => teamHasRepo(t, repo) && teamMode(t) >= AccessMode.Read)
    .sort((a, b) => a.id - b.id);
}
