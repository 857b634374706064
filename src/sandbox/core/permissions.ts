/**
 * Who may do what: a small model of Gitea's `models/perm/access` and `models/organization`.
 *
 * - site admins get admin rights on every repository;
 * - the user owning a repository is its owner; owners of an organisation (members of a team with
 *   `owner` permission) are owners of every repository of it;
 * - teams give their permission on the repositories they include, collaborators theirs;
 * - a public repository is readable by anyone who can see its owner (restricted users excepted).
 *
 * Organisation owners, members and teams' access come from the domains' `access` (the teams
 * domain: domains/teams/access.ts), registered with the domains: core knows no domain.
 */
import { AccessMode, type OrgRecord, type RepoRecord, type SandboxState, type UserRecord } from './state.js';

/** What a domain adds to the access model (`SandboxDomain.access`). */
export interface DomainAccess {
  /** Whether the user owns the organisation through the domain (Gitea: a member of its Owners team). */
  isOrgOwner?(state: SandboxState, org: OrgRecord, userId: number): boolean;
  /** Whether the user is a member of the organisation through the domain (beside `org_user`). */
  isOrgMember?(state: SandboxState, org: OrgRecord, userId: number): boolean;
  /** The access mode the domain gives the user on a repository of the organisation (`AccessMode.None`: none). */
  repoMode?(state: SandboxState, repo: RepoRecord, org: OrgRecord, userId: number): number;
  /** The users the domain may give access to a repository of the organisation. */
  repoUsers?(state: SandboxState, repo: RepoRecord, org: OrgRecord): Iterable<number>;
  /** Whether the domain makes the user one of the repository's readers (ReaderRules says how the release counts them). */
  makesReader?(state: SandboxState, repo: RepoRecord, org: OrgRecord, userId: number, rules: ReaderRules): boolean;
}

/**
 * How a release counts a repository's "readers" (IsRepoReader, GetRepoReaders, GetUserIDsWithUnitAccess): the
 * rows of the access table at read or above, the owner of a user's repository, and on Gitea 1.25+ the members
 * of its teams with the pull-request unit (flavours/releases.ts readersFromTeamUnits). A team's members have rows at
 * its stored mode: written when the team gets the repository, and when a member joins up to Gitea 1.23 and in
 * Forgejo (AddTeamMember: v1.23.8 services/org/team.go l.264–289, Forgejo v11.0.15 models/org_team.go l.390–417).
 * Gitea 1.24+ writes none when a member joins (v1.24.7 services/org/team.go l.228–263): there a member who joined
 * after the team got the repository has none. The sandbox does not keep that history: it counts the stored mode
 * (a team below admin made through the API on 1.24+ is stored as none, so it writes no row either way).
 */
export interface ReaderRules {
  /** A team's members are readers when its pull-request unit is at read or above. */
  teamUnits: boolean;
}

let accessOf: readonly DomainAccess[] = [];

/** Called with the domains (core/registry.ts): without them nobody owns or belongs to an organisation beyond `org_user`. */
export function registerAccess(access: readonly DomainAccess[]): void {
  accessOf = access;
}

const COLLAB_MODE = { read: AccessMode.Read, write: AccessMode.Write, admin: AccessMode.Admin } as const;

/**
 * Membership as a set, cached per member array: teams of thousands made every access check a scan.
 * Member arrays change by `push` (the length tells) or are replaced (a new array): both are noticed.
 */
const memberSets = new WeakMap<number[], { size: number; set: Set<number> }>();

export function hasMember(memberIds: number[], userId: number): boolean {
  let cached = memberSets.get(memberIds);
  if (!cached || cached.size !== memberIds.length) {
    cached = { size: memberIds.length, set: new Set(memberIds) };
    memberSets.set(memberIds, cached);
  }
  return cached.set.has(userId);
}

export function isOrgOwner(state: SandboxState, org: OrgRecord, userId: number): boolean {
  return accessOf.some((a) => a.isOrgOwner?.(state, org, userId) === true);
}

export function isOrgMember(state: SandboxState, org: OrgRecord, userId: number): boolean {
  return hasMember(org.memberIds, userId) || accessOf.some((a) => a.isOrgMember?.(state, org, userId) === true);
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

/**
 * The "access table": explicit rights from collaborations and (through the domains) teams (not from ownership of a
 * user repository, not from being a site admin, not from the repository being public).
 */
export function explicitAccess(state: SandboxState, repo: RepoRecord, userId: number): number {
  let mode: number = AccessMode.None;
  for (const c of repo.collaborators) if (c.userId === userId) mode = Math.max(mode, COLLAB_MODE[c.permission]);
  const owner = state.repoOwner(repo);
  if (owner.kind === 'org') for (const a of accessOf) mode = Math.max(mode, a.repoMode?.(state, repo, owner.org, userId) ?? AccessMode.None);
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

/**
 * The row a collaboration writes: RecalculateUserAccess (which adding a collaborator calls) keeps none below write
 * on a public repository (v1.24.7 models/perm/access/access.go l.189–193, l.226–233; Forgejo v11.0.15 l.192–194,
 * l.231): a read collaborator of a public repository is no reader.
 */
function collaborationRow(repo: RepoRecord, userId: number): number {
  let mode: number = AccessMode.None;
  for (const c of repo.collaborators) if (c.userId === userId) mode = Math.max(mode, COLLAB_MODE[c.permission]);
  return mode >= (repo.private ? AccessMode.Read : AccessMode.Write) ? mode : AccessMode.None;
}

/** `IsRepoReader` (and a member of `GetRepoReaders` / `GetUserIDsWithUnitAccess(read, pulls)`): the owner of a user repository, or a row at read or above, or (1.25+) a team's unit. */
export function isExplicitReader(state: SandboxState, repo: RepoRecord, userId: number, rules: ReaderRules): boolean {
  if (repo.ownerId === userId) return true;
  if (collaborationRow(repo, userId) >= AccessMode.Read) return true;
  const owner = state.repoOwner(repo);
  return owner.kind === 'org' && accessOf.some((a) => a.makesReader?.(state, repo, owner.org, userId, rules) === true);
}

/**
 * `GetRepoReaders`: the readers (isExplicitReader) in id order, then the owner of a user repository. A
 * protection's answer lists only these users, in this order.
 */
export function explicitReaderIds(state: SandboxState, repo: RepoRecord, rules: ReaderRules): number[] {
  // Only collaborators and members of the owner's teams can be readers: ask about them, not every user.
  const candidates = new Set(repo.collaborators.map((c) => c.userId));
  const owner = state.repoOwner(repo);
  if (owner.kind === 'org') for (const a of accessOf) for (const id of a.repoUsers?.(state, repo, owner.org) ?? []) candidates.add(id);
  const ids = [...candidates].filter((id) => id !== repo.ownerId && state.userById(id) !== undefined && isExplicitReader(state, repo, id, rules)).sort((a, b) => a - b);
  if (owner.kind === 'user') ids.push(repo.ownerId);
  return ids;
}
