/**
 * The sandbox's data model: plain, JSON-serialisable records (so that `--state FILE` is one
 * `JSON.stringify`) plus the lookups every route needs. Users and organisations share one id
 * sequence and one name space, as they share Gitea's `user` table.
 *
 * Adding a resource kind: add an array to {@link StateData} (and to {@link emptyStateData}), a
 * record interface here, and its routes under `routes/`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { emptyAdminStateData, type AdminStateData } from './state-admin.js';
import { emptyAccountStateData, type AccountStateData } from './state-accounts.js';

export type Visibility = 'public' | 'limited' | 'private';

/** Gitea's access modes (`models/perm/access_mode.go`). */
export const AccessMode = { None: 0, Read: 1, Write: 2, Admin: 3, Owner: 4 } as const;
export type AccessModeValue = (typeof AccessMode)[keyof typeof AccessMode];

export interface UserRecord {
  id: number;
  name: string;
  fullName: string;
  email: string;
  /** `salt:sha256(salt+password)`, or null when the user has no password. */
  passwordHash: string | null;
  isAdmin: boolean;
  isActive: boolean;
  prohibitLogin: boolean;
  mustChangePassword: boolean;
  restricted: boolean;
  visibility: Visibility;
  loginName: string;
  sourceId: number;
  website: string;
  location: string;
  description: string;
  keepEmailPrivate: boolean;
  language: string;
  maxRepoCreation: number;
  allowGitHook: boolean;
  allowImportLocal: boolean;
  allowCreateOrganization: boolean;
  createdAt: string;
  updatedAt: string;
  /** null = never logged in. */
  lastLogin: string | null;
}

export interface TokenRecord {
  id: number;
  userId: number;
  name: string;
  /** sha256 of the token: the plain token is never stored. */
  hash: string;
  /** Gitea token scopes, e.g. `all`, `read:repository`, `write:issue`. */
  scopes: string[];
}

export interface OrgRecord {
  id: number;
  name: string;
  fullName: string;
  email: string;
  description: string;
  website: string;
  location: string;
  visibility: Visibility;
  repoAdminChangeTeamAccess: boolean;
  /** Members (the `org_user` table); team members and owners are added here too. */
  memberIds: number[];
  createdAt: string;
  updatedAt: string;
}

export type TeamPermission = 'read' | 'write' | 'admin' | 'owner';

export interface TeamRecord {
  id: number;
  orgId: number;
  name: string;
  description: string;
  permission: TeamPermission;
  includesAllRepositories: boolean;
  repoIds: number[];
  memberIds: number[];
}

export type CollaboratorPermission = 'read' | 'write' | 'admin';

export interface RepoRecord {
  id: number;
  ownerId: number;
  name: string;
  description: string;
  website: string;
  private: boolean;
  template: boolean;
  archived: boolean;
  archivedAt: string | null;
  /** No git content: the sandbox keeps only the branch names. */
  empty: boolean;
  branches: string[];
  defaultBranch: string;
  objectFormatName: string;
  units: RepoUnits;
  collaborators: { userId: number; permission: CollaboratorPermission }[];
  createdAt: string;
  updatedAt: string;
}

export interface RepoUnits {
  hasIssues: boolean;
  hasWiki: boolean;
  hasPullRequests: boolean;
  hasProjects: boolean;
  hasReleases: boolean;
  hasPackages: boolean;
  hasActions: boolean;
}

export interface LabelRecord {
  id: number;
  /** Exactly one of repoId / orgId is non-zero. */
  repoId: number;
  orgId: number;
  name: string;
  /** Saved form: `#rrggbb`, lower case. */
  color: string;
  description: string;
  exclusive: boolean;
  /** null = not archived (Gitea keeps an archive timestamp). */
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface MilestoneRecord {
  id: number;
  repoId: number;
  title: string;
  description: string;
  state: 'open' | 'closed';
  dueOn: string | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

/** A project (board). Repository projects have `repoId`; `ownerId` is 0 for them. */
export interface ProjectRecord {
  id: number;
  repoId: number;
  ownerId: number;
  creatorId: number;
  title: string;
  description: string;
  state: 'open' | 'closed';
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

export interface IssueRecord {
  id: number;
  repoId: number;
  /** The issue number within its repository (1, 2, 3 …). */
  index: number;
  authorId: number;
  title: string;
  body: string;
  ref: string;
  state: 'open' | 'closed';
  /** Ids of repository or organisation labels. */
  labelIds: number[];
  /** 0 = none. */
  milestoneId: number;
  assigneeIds: number[];
  dueDate: string | null;
  /** Project ids (may be missing in state files written before projects existed). */
  projectIds: number[];
  contentVersion: number;
  isLocked: boolean;
  isPull: boolean;
  numComments: number;
  pinOrder: number;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

/**
 * A branch protection rule as saved. Flags, user lists and team lists are keyed by their API field
 * names (user and team lists hold ids, so renames carry through). See `routes/branch-protections.ts`.
 */
export interface BranchProtectionRecord {
  id: number;
  repoId: number;
  ruleName: string;
  priority: number;
  flags: Record<string, boolean>;
  requiredApprovals: number;
  /** null until first set, as on the server. */
  statusCheckContexts: string[] | null;
  protectedFilePatterns: string;
  unprotectedFilePatterns: string;
  users: Record<string, number[]>;
  teams: Record<string, number[]>;
  createdAt: string;
  updatedAt: string;
}

/** Runners, runs, jobs, cron tasks, packages, unadopted directories and notifications: see state-admin.ts. */
/** E-mails, SSH keys, badges, user redirects, login sources and admin hooks: see state-accounts.ts. */
export interface StateData extends AdminStateData, AccountStateData {
  version: 1;
  nextId: Record<string, number>;
  users: UserRecord[];
  tokens: TokenRecord[];
  orgs: OrgRecord[];
  teams: TeamRecord[];
  repos: RepoRecord[];
  labels: LabelRecord[];
  milestones: MilestoneRecord[];
  projects: ProjectRecord[];
  issues: IssueRecord[];
  branchProtections: BranchProtectionRecord[];
}

export function emptyStateData(): StateData {
  return {
    ...emptyAdminStateData(),
    ...emptyAccountStateData(),
    version: 1,
    nextId: {},
    users: [],
    tokens: [],
    orgs: [],
    teams: [],
    repos: [],
    labels: [],
    milestones: [],
    projects: [],
    issues: [],
    branchProtections: [],
  };
}

/** Id sequences: users and organisations share one, like Gitea's `user` table. */
export type IdSequence = 'user' | 'token' | 'team' | 'repo' | 'label' | 'milestone' | 'issue' | 'branchProtection' | (string & {});

export type Owner = { kind: 'user'; user: UserRecord; id: number; name: string } | { kind: 'org'; org: OrgRecord; id: number; name: string };

/** Current time as Gitea renders it: RFC 3339, seconds, UTC. */
export function nowIso(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function hashPassword(password: string, salt = randomBytes(8).toString('hex')): string {
  return `${salt}:${createHash('sha256').update(salt + password).digest('hex')}`;
}

/** How a state file marks a value it stores hashed: a value loaded from the file is not hashed again. */
const HASHED = 'sandbox-hashed:';

function hashedForFile(value: string): string {
  return value === '' || value.startsWith(HASHED) ? value : `${HASHED}${hashPassword(value)}`;
}

export function checkPassword(hash: string | null, password: string): boolean {
  if (!hash) return false;
  const [salt] = hash.split(':');
  return salt !== undefined && hashPassword(password, salt) === hash;
}

const lower = (s: string): string => s.toLowerCase();

export class SandboxState {
  data: StateData;

  constructor(data: StateData = emptyStateData()) {
    this.data = data;
  }

  nextId(seq: IdSequence): number {
    const id = (this.data.nextId[seq] ?? 0) + 1;
    this.data.nextId[seq] = id;
    return id;
  }

  // ---- users, organisations, owners ---------------------------------------------------------

  userById(id: number): UserRecord | undefined {
    return this.data.users.find((u) => u.id === id);
  }

  /** Case-insensitive, like Gitea's `lower_name` lookups. */
  userByName(name: string): UserRecord | undefined {
    const n = lower(name);
    return this.data.users.find((u) => lower(u.name) === n);
  }

  orgById(id: number): OrgRecord | undefined {
    return this.data.orgs.find((o) => o.id === id);
  }

  orgByName(name: string): OrgRecord | undefined {
    const n = lower(name);
    return this.data.orgs.find((o) => lower(o.name) === n);
  }

  /** A user or an organisation by name (the shared name space). */
  ownerByName(name: string): Owner | undefined {
    const user = this.userByName(name);
    if (user) return { kind: 'user', user, id: user.id, name: user.name };
    const org = this.orgByName(name);
    if (org) return { kind: 'org', org, id: org.id, name: org.name };
    return undefined;
  }

  ownerById(id: number): Owner | undefined {
    const user = this.userById(id);
    if (user) return { kind: 'user', user, id: user.id, name: user.name };
    const org = this.orgById(id);
    if (org) return { kind: 'org', org, id: org.id, name: org.name };
    return undefined;
  }

  isNameTaken(name: string): boolean {
    return this.ownerByName(name) !== undefined;
  }

  isEmailTaken(email: string): boolean {
    const e = lower(email);
    return this.data.users.some((u) => lower(u.email) === e);
  }

  teamById(id: number): TeamRecord | undefined {
    return this.data.teams.find((t) => t.id === id);
  }

  teamsOfOrg(orgId: number): TeamRecord[] {
    return this.data.teams.filter((t) => t.orgId === orgId);
  }

  teamByName(orgId: number, name: string): TeamRecord | undefined {
    const n = lower(name);
    return this.data.teams.find((t) => t.orgId === orgId && lower(t.name) === n);
  }

  // ---- tokens -------------------------------------------------------------------------------

  addToken(userId: number, token: string, scopes: string[] = ['all'], name = 'sandbox'): TokenRecord {
    const hash = hashToken(token);
    this.data.tokens = this.data.tokens.filter((t) => t.hash !== hash);
    const rec: TokenRecord = { id: this.nextId('token'), userId, name, hash, scopes };
    this.data.tokens.push(rec);
    return rec;
  }

  tokenByValue(token: string): TokenRecord | undefined {
    const hash = hashToken(token);
    return this.data.tokens.find((t) => t.hash === hash);
  }

  // ---- repositories -------------------------------------------------------------------------

  repoById(id: number): RepoRecord | undefined {
    return this.data.repos.find((r) => r.id === id);
  }

  repoByName(ownerId: number, name: string): RepoRecord | undefined {
    const n = lower(name);
    return this.data.repos.find((r) => r.ownerId === ownerId && lower(r.name) === n);
  }

  reposOfOwner(ownerId: number): RepoRecord[] {
    return this.data.repos.filter((r) => r.ownerId === ownerId).sort((a, b) => a.id - b.id);
  }

  repoOwner(repo: RepoRecord): Owner {
    const owner = this.ownerById(repo.ownerId);
    if (!owner) throw new Error(`repository ${repo.id} has no owner ${repo.ownerId}`);
    return owner;
  }

  repoFullName(repo: RepoRecord): string {
    return `${this.repoOwner(repo).name}/${repo.name}`;
  }

  // ---- labels, milestones, issues ------------------------------------------------------------

  labelById(id: number): LabelRecord | undefined {
    return this.data.labels.find((l) => l.id === id);
  }

  labelsOfRepo(repoId: number): LabelRecord[] {
    return this.data.labels.filter((l) => l.repoId === repoId);
  }

  labelsOfOrg(orgId: number): LabelRecord[] {
    return this.data.labels.filter((l) => l.orgId === orgId && l.repoId === 0);
  }

  /** Deletes a label and detaches it from every issue. */
  deleteLabel(id: number): void {
    this.data.labels = this.data.labels.filter((l) => l.id !== id);
    for (const issue of this.data.issues) {
      if (issue.labelIds.includes(id)) issue.labelIds = issue.labelIds.filter((x) => x !== id);
    }
  }

  /** How many issues carry the label (Gitea's `num_issues`). */
  labelIssueCount(id: number): number {
    return this.data.issues.filter((i) => i.labelIds.includes(id)).length;
  }

  milestoneById(id: number): MilestoneRecord | undefined {
    return this.data.milestones.find((m) => m.id === id);
  }

  milestonesOfRepo(repoId: number): MilestoneRecord[] {
    return this.data.milestones.filter((m) => m.repoId === repoId);
  }

  projectById(id: number): ProjectRecord | undefined {
    return this.data.projects.find((p) => p.id === id);
  }

  issuesOfRepo(repoId: number): IssueRecord[] {
    return this.data.issues.filter((i) => i.repoId === repoId);
  }

  issueByIndex(repoId: number, index: number): IssueRecord | undefined {
    return this.data.issues.find((i) => i.repoId === repoId && i.index === index);
  }

  /** Next issue number of a repository (issues and pull requests share the sequence). */
  nextIssueIndex(repoId: number): number {
    return this.issuesOfRepo(repoId).reduce((max, i) => Math.max(max, i.index), 0) + 1;
  }

  // ---- branch protections -------------------------------------------------------------------

  protectionsOfRepo(repoId: number): BranchProtectionRecord[] {
    return this.data.branchProtections.filter((p) => p.repoId === repoId);
  }

  // ---- persistence --------------------------------------------------------------------------

  /**
   * The state file holds no credential in clear: tokens and passwords are hashed when they are set,
   * hook secrets and authorization headers (kept as sent while the sandbox runs) are hashed here —
   * the sandbox never gives them back (its hooks answer authorization_header "", as the newest Gitea does).
   */
  toJSON(): string {
    const adminHooks = this.data.adminHooks.map((h) => ({ ...h, secret: hashedForFile(h.secret), authorizationHeader: hashedForFile(h.authorizationHeader) }));
    return JSON.stringify({ format: 'forgeform-sandbox-state', ...this.data, adminHooks }, null, 2) + '\n';
  }

  static fromJSON(text: string): SandboxState {
    const parsed = JSON.parse(text) as Partial<StateData> & { format?: string };
    if (parsed.format !== 'forgeform-sandbox-state' || parsed.version !== 1) {
      throw new Error('not a forgeform sandbox state file (expected "format": "forgeform-sandbox-state", "version": 1)');
    }
    const { format: _format, ...rest } = parsed;
    return new SandboxState({ ...emptyStateData(), ...rest });
  }
}
