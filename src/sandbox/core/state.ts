/**
 * The sandbox's data model: plain, JSON-serialisable records (so that `--state FILE` is one
 * `JSON.stringify`), id sequences, and the access model every route needs — users, tokens,
 * organisations, teams, repositories — with its lookups. Users and organisations share one id
 * sequence and one name space, as they share Gitea's `user` table.
 *
 * Adding a resource kind: its record interface, `XData` (its arrays) and `emptyXData()` go in
 * `domains/<domain>/records.ts` with its lookups; {@link StateData} extends `XData` and
 * {@link emptyStateData} spreads `emptyXData()`, so the state file saves it.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { emptyActionsData, type ActionsData } from '../domains/actions/records.js';
import { emptyBranchProtectionsData, type BranchProtectionsData } from '../domains/branch-protections/records.js';
import { emptyIssuesData, type IssuesData } from '../domains/issues/records.js';
import { emptyLabelsData, type LabelsData } from '../domains/labels/records.js';
import { emptyMilestonesData, type MilestonesData } from '../domains/milestones/records.js';
import { emptyAdminMiscData, type AdminMiscData } from '../domains/admin-misc/records.js';
import { emptyHooksData, type HooksData } from '../domains/hooks/records.js';
import { emptyNotificationsData, type NotificationsData } from '../domains/notifications/records.js';
import { emptyAccountStateData, type AccountStateData } from '../domains/users/records.js';
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

/** The access model (users, tokens, organisations, teams, repositories) is here; every other domain's arrays come from its `records.ts`. */
export interface StateData extends LabelsData, MilestonesData, IssuesData, BranchProtectionsData, ActionsData, AdminMiscData, NotificationsData, AccountStateData, HooksData {
  version: 1;
  /** The key hook authorization headers are encrypted with in the state file (Gitea's SECRET_KEY). */
  secretKey?: string;
  nextId: Record<string, number>;
  users: UserRecord[];
  tokens: TokenRecord[];
  orgs: OrgRecord[];
  teams: TeamRecord[];
  repos: RepoRecord[];
}

export function emptyStateData(): StateData {
  return {
    ...emptyActionsData(),
    ...emptyAdminMiscData(),
    ...emptyNotificationsData(),
    ...emptyAccountStateData(),
    ...emptyHooksData(),
    version: 1,
    nextId: {},
    users: [],
    tokens: [],
    orgs: [],
    teams: [],
    repos: [],
    ...emptyLabelsData(),
    ...emptyMilestonesData(),
    ...emptyIssuesData(),
    ...emptyBranchProtectionsData(),
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

/** How a state file marks a value it stores encrypted (AES-256-GCM: iv, tag and text, hex). */
const SEALED = 'sandbox-sealed:';

function sealed(value: string, keyHex: string): string {
  if (value === '' || value.startsWith(SEALED) || value.startsWith(HASHED)) return value;
  // The IV from the value (as SIV does): the same header saves as the same text, so a file re-saved unchanged stays the same.
  const iv = createHmac('sha256', Buffer.from(keyHex, 'hex')).update(value).digest().subarray(0, 12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), iv);
  const text = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return `${SEALED}${iv.toString('hex')}:${cipher.getAuthTag().toString('hex')}:${text.toString('hex')}`;
}

function unsealed(value: string, keyHex: string): string {
  if (!value.startsWith(SEALED)) return value;
  const [iv, tag, text] = value.slice(SEALED.length).split(':');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), Buffer.from(iv ?? '', 'hex'));
  decipher.setAuthTag(Buffer.from(tag ?? '', 'hex'));
  return Buffer.concat([decipher.update(Buffer.from(text ?? '', 'hex')), decipher.final()]).toString('utf8');
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
export const TEAMS = defineIndex<TeamRecord>()({ table: 'teams', unique: { id: (t) => t.id, name: (t) => `${t.orgId}/${lower(t.name)}` }, groups: { org: (t) => t.orgId } });
export const TOKENS = defineIndex<TokenRecord>()({ table: 'tokens', unique: { hash: (t) => t.hash } });
export const REPOS = defineIndex<RepoRecord>()({ table: 'repos', unique: { id: (r) => r.id, name: (r) => `${r.ownerId}/${lower(r.name)}` }, groups: { owner: (r) => r.ownerId } });

export class SandboxState {
  data: StateData;
  /** Lookup tables beside `data` (core/table-index.ts); not saved: a loaded state builds them on first use. */
  readonly indexes: IndexRegistry;

  constructor(data: StateData = emptyStateData()) {
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

  teamById(id: number): TeamRecord | undefined {
    return this.indexes.of(TEAMS).get('id', id);
  }

  teamsOfOrg(orgId: number): TeamRecord[] {
    return this.indexes.of(TEAMS).list('org', orgId);
  }

  teamByName(orgId: number, name: string): TeamRecord | undefined {
    return this.indexes.of(TEAMS).get('name', `${orgId}/${lower(name)}`);
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

  // ---- persistence --------------------------------------------------------------------------

  /**
   * The state file holds no credential in clear: tokens and passwords are hashed when they are set,
   * hook secrets are hashed here (no release gives them back). Hook authorization headers are
   * encrypted instead, as Gitea encrypts them with its SECRET_KEY (models/webhook/webhook.go
   * `HeaderAuthorizationEncrypted`): every release returns them, so a restarted sandbox must too.
   * The key is kept in the file, as Gitea keeps its key in app.ini beside the database.
   */
  toJSON(): string {
    const key = (this.data.secretKey ??= randomBytes(32).toString('hex'));
    const adminHooks = this.data.adminHooks.map((h) => ({ ...h, secret: hashedForFile(h.secret), authorizationHeader: sealed(h.authorizationHeader, key) }));
    return JSON.stringify({ format: 'forgeform-sandbox-state', ...this.data, adminHooks }, null, 2) + '\n';
  }

  static fromJSON(text: string): SandboxState {
    const parsed = JSON.parse(text) as Partial<StateData> & { format?: string };
    if (parsed.format !== 'forgeform-sandbox-state' || parsed.version !== 1) {
      throw new Error('not a forgeform sandbox state file (expected "format": "forgeform-sandbox-state", "version": 1)');
    }
    const { format: _format, ...rest } = parsed;
    const data = { ...emptyStateData(), ...rest };
    if (data.secretKey) data.adminHooks = data.adminHooks.map((h) => ({ ...h, authorizationHeader: unsealed(h.authorizationHeader, data.secretKey!) }));
    return new SandboxState(data);
  }
}
