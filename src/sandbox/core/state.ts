/**
 * The sandbox's data model: plain, JSON-serialisable records (so that `--state FILE` is one
 * `JSON.stringify`), id sequences, and the access model every route needs — users, tokens,
 * organisations, repositories and the user-name redirects of their shared name space — with its
 * lookups. Users and organisations share one id sequence and one name space, as they share Gitea's
 * `user` table. Core knows no domain: everything else (teams, labels, issues …) is a domain's.
 *
 * Adding a resource kind: its record interface and its tables go in `domains/<domain>/records.ts`,
 * which adds the tables to {@link StateData} (`declare module '../../core/state.js'`) and gives their
 * empty form in the domain's `data` (core/domain.ts): the state file saves and loads them
 * (core/state-file.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { defineIndex, IndexRegistry } from './table-index.js';

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
  /** Forgejo's `pronouns` (free text, ≤ 50 characters); absent = "". */
  pronouns?: string;
}

export interface TokenRecord {
  id: number;
  userId: number;
  name: string;
  /** sha256 of the token: the plain token is never stored. */
  hash: string;
  /** Gitea token scopes, e.g. `all`, `read:repository`, `write:issue`. */
  scopes: string[];
  /** Set for tokens made through `POST /users/{username}/tokens` (the list shows them). */
  lastEight?: string;
  createdAt?: string;
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

/** `user_redirect`: an old (lower-cased) user name that now leads to a user id (core/redirects.ts). */
export interface UserRedirectRecord {
  lowerName: string;
  userId: number;
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

/**
 * The state: the access model's tables here; each domain adds its own to this interface from its
 * `records.ts` (`declare module`), and its empty tables through its `data` (core/domain.ts).
 */
export interface StateData {
  version: 1;
  /** The key hook authorization headers are encrypted with in the state file (Gitea's SECRET_KEY). */
  secretKey?: string;
  nextId: Record<string, number>;
  users: UserRecord[];
  tokens: TokenRecord[];
  orgs: OrgRecord[];
  repos: RepoRecord[];
  /** Old user names that lead to a user (core/redirects.ts): the shared name space's. */
  userRedirects: UserRedirectRecord[];
}

/** The access model's empty tables (the domains' come from their `data`: core/state-file.ts). */
export function emptyAccessData(): Pick<StateData, 'version' | 'nextId' | 'users' | 'tokens' | 'orgs' | 'repos' | 'userRedirects'> {
  return { version: 1, nextId: {}, users: [], tokens: [], orgs: [], repos: [], userRedirects: [] };
}

/** Id sequences: users and organisations share one, like Gitea's `user` table; each domain names its own (`team`, `label` …). */
export type IdSequence = 'user' | 'token' | 'repo' | (string & {});

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

export function checkPassword(hash: string | null, password: string): boolean {
  if (!hash) return false;
  const [salt] = hash.split(':');
  return salt !== undefined && hashPassword(password, salt) === hash;
}

const lower = (s: string): string => s.toLowerCase();

// The access model's indexes (domains define theirs beside their records).
export const USERS = defineIndex<UserRecord>()({ table: 'users', unique: { id: (u) => u.id, name: (u) => lower(u.name), email: (u) => lower(u.email) } });
export const ORGS = defineIndex<OrgRecord>()({ table: 'orgs', unique: { id: (o) => o.id, name: (o) => lower(o.name) } });
export const TOKENS = defineIndex<TokenRecord>()({ table: 'tokens', unique: { hash: (t) => t.hash } });
export const REPOS = defineIndex<RepoRecord>()({ table: 'repos', unique: { id: (r) => r.id, name: (r) => `${r.ownerId}/${lower(r.name)}` }, groups: { owner: (r) => r.ownerId } });

export class SandboxState {
  data: StateData;
  /** Lookup tables beside `data` (core/table-index.ts); not saved: a loaded state builds them on first use. */
  readonly indexes: IndexRegistry;

  /** `data`: a state file's (core/state-file.ts), or empty tables (`emptyStateData`) for a seed. */
  constructor(data: StateData) {
    this.data = data;
    this.indexes = new IndexRegistry(() => this.data as unknown as Record<string, unknown>);
  }

  nextId(seq: IdSequence): number {
    const id = (this.data.nextId[seq] ?? 0) + 1;
    this.data.nextId[seq] = id;
    return id;
  }

  // ---- users, organisations, owners ---------------------------------------------------------

  userById(id: number): UserRecord | undefined {
    return this.indexes.of(USERS).get('id', id);
  }

  /** Case-insensitive, like Gitea's `lower_name` lookups. */
  userByName(name: string): UserRecord | undefined {
    return this.indexes.of(USERS).get('name', lower(name));
  }

  orgById(id: number): OrgRecord | undefined {
    return this.indexes.of(ORGS).get('id', id);
  }

  orgByName(name: string): OrgRecord | undefined {
    return this.indexes.of(ORGS).get('name', lower(name));
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
    return this.indexes.of(USERS).get('email', lower(email)) !== undefined;
  }

  // ---- tokens -------------------------------------------------------------------------------

  addToken(userId: number, token: string, scopes: string[] = ['all'], name = 'sandbox'): TokenRecord {
    const hash = hashToken(token);
    this.indexes.of(TOKENS).removeWhere((t) => t.hash === hash);
    const rec: TokenRecord = { id: this.nextId('token'), userId, name, hash, scopes };
    this.data.tokens.push(rec);
    return rec;
  }

  tokenByValue(token: string): TokenRecord | undefined {
    const hash = hashToken(token);
    return this.indexes.of(TOKENS).get('hash', hash);
  }

  // ---- repositories -------------------------------------------------------------------------

  repoById(id: number): RepoRecord | undefined {
    return this.indexes.of(REPOS).get('id', id);
  }

  repoByName(ownerId: number, name: string): RepoRecord | undefined {
    return this.indexes.of(REPOS).get('name', `${ownerId}/${lower(name)}`);
  }

  reposOfOwner(ownerId: number): RepoRecord[] {
    return this.indexes.of(REPOS).list('owner', ownerId).sort((a, b) => a.id - b.id);
  }

  repoOwner(repo: RepoRecord): Owner {
    const owner = this.ownerById(repo.ownerId);
    if (!owner) throw new Error(`repository ${repo.id} has no owner ${repo.ownerId}`);
    return owner;
  }

  repoFullName(repo: RepoRecord): string {
    return `${this.repoOwner(repo).name}/${repo.name}`;
  }
}
