/**
 * Admin user endpoints (behavior.md §7): create a user, create an organisation or a repository on
 * behalf of a user. The create functions are shared with the seed loader, so a seeded object is
 * exactly what the API would have created.
 */
import { reqSiteAdmin, reqToken, scope } from '../http/auth.js';
import { isValidUsername } from '../http/binding.js';
import { bind, userAssignment } from '../http/checks.js';
import { json } from '../http/respond.js';
import type { ApiRouter } from '../http/router.js';
import { toOrganization, toRepo, toUser } from '../convert.js';
import { AccessMode, hashPassword, nowIso, type OrgRecord, type Owner, type RepoRecord, type SandboxState, type UserRecord, type Visibility } from '../state.js';
import { createRepo, type CreateRepoInput } from './repos.js';
import { checkUsableName, fail, failure, isFailure, type Failure } from './shared.js';

/** `models/user/user.go` reserved names and patterns (current upstream). */
const RESERVED_USER_NAMES = new Set([
  '.', '..', '.well-known', 'api', 'metrics', 'v2', 'assets', 'attachments', 'avatar', 'avatars', 'repo-avatars', 'captcha', 'login', 'org', 'repo',
  'user', 'explore', 'issues', 'pulls', 'milestones', 'notifications', 'favicon.ico', 'manifest.json', 'robots.txt', 'sitemap.xml', 'ssh_info',
  'swagger.v1.json', 'openapi3.v1.json', 'ghost', 'gitea-actions',
]);
const RESERVED_USER_PATTERNS = ['*.keys', '*.gpg', '*.rss', '*.atom', '*.png'];

/** `user_model.IsUsableUsername`. */
export function checkUsableUsername(name: string): Failure | undefined {
  if (!isValidUsername(name)) return failure(422, `name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`);
  return checkUsableName(name, RESERVED_USER_NAMES, RESERVED_USER_PATTERNS);
}

const EMAIL_CHARS = /^[a-zA-Z0-9.!#$%&'*+\-/=?^_`{|}~]*@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** `user_model.ValidateEmail`. */
export function checkEmail(email: string): Failure | undefined {
  if (email.trim() === '' || !email.includes('@')) return failure(422, `e-mail invalid [email: ${email}]`);
  if (!EMAIL_CHARS.test(email) || email.startsWith('-')) return failure(422, `e-mail address contains unsupported character [email: ${email}]`);
  return undefined;
}

export const MIN_PASSWORD_LENGTH = 8;

export interface CreateUserInput {
  username: string;
  email: string;
  password?: string;
  fullName?: string;
  loginName?: string;
  sourceId?: number;
  mustChangePassword?: boolean;
  restricted?: boolean;
  visibility?: Visibility | '';
  createdAt?: string;
  /** Not settable through the API (a PATCH is needed); seeds may set them. */
  admin?: boolean;
  active?: boolean;
  prohibitLogin?: boolean;
  /** Seeds only: skip the password policy (a seeded user may have no password). */
  skipPasswordPolicy?: boolean;
  website?: string;
  location?: string;
  description?: string;
}

/** `admin.CreateUser` after binding: the checks in the server's order, then the new user. */
export function createUser(state: SandboxState, input: CreateUserInput): UserRecord | Failure {
  if (input.sourceId && input.sourceId > 0) return failure(422, `login source does not exist [id: ${input.sourceId}]`);
  if (!input.skipPasswordPolicy && Buffer.byteLength(input.password ?? '') < MIN_PASSWORD_LENGTH) return failure(400, 'PasswordIsRequired');
  const unusable = checkUsableUsername(input.username);
  if (unusable) return unusable;
  if (state.isNameTaken(input.username)) return failure(422, `user already exists [name: ${input.username}]`);
  const badEmail = checkEmail(input.email);
  if (badEmail) return badEmail;
  if (state.isEmailTaken(input.email)) return failure(422, `e-mail already in use [email: ${input.email}]`);
  const now = input.createdAt ? new Date(input.createdAt).toISOString().replace(/\.\d{3}Z$/, 'Z') : nowIso();
  const user: UserRecord = {
    id: state.nextId('user'),
    name: input.username,
    fullName: input.fullName ?? '',
    email: input.email,
    passwordHash: input.password ? hashPassword(input.password) : null,
    isAdmin: input.admin ?? false,
    isActive: input.active ?? true,
    prohibitLogin: input.prohibitLogin ?? false,
    mustChangePassword: input.mustChangePassword ?? true,
    restricted: input.restricted ?? false,
    visibility: input.visibility || 'public',
    loginName: input.loginName ?? '',
    sourceId: 0,
    website: input.website ?? '',
    location: input.location ?? '',
    description: input.description ?? '',
    keepEmailPrivate: false,
    language: '',
    maxRepoCreation: -1,
    allowGitHook: false,
    allowImportLocal: false,
    allowCreateOrganization: true,
    createdAt: now,
    updatedAt: now,
    lastLogin: null,
  };
  state.data.users.push(user);
  return user;
}

export interface CreateOrgInput {
  username: string;
  fullName?: string;
  email?: string;
  description?: string;
  website?: string;
  location?: string;
  visibility?: Visibility | '';
  repoAdminChangeTeamAccess?: boolean;
}

/** `organization.CreateOrganization`: the creator becomes the only member of the Owners team. */
export function createOrg(state: SandboxState, creator: Owner, input: CreateOrgInput): OrgRecord | Failure {
  if (creator.kind !== 'user') return failure(500, `user is not allowed to create organizations [uid: ${creator.id}]`);
  const unusable = checkUsableUsername(input.username);
  if (unusable) return unusable;
  if (state.isNameTaken(input.username)) return failure(422, `user already exists [name: ${input.username}]`);
  const now = nowIso();
  const org: OrgRecord = {
    id: state.nextId('user'),
    name: input.username,
    fullName: input.fullName ?? '',
    email: input.email ?? '',
    description: input.description ?? '',
    website: input.website ?? '',
    location: input.location ?? '',
    visibility: input.visibility || 'public',
    repoAdminChangeTeamAccess: input.repoAdminChangeTeamAccess ?? false,
    memberIds: [creator.id],
    createdAt: now,
    updatedAt: now,
  };
  state.data.orgs.push(org);
  state.data.teams.push({
    id: state.nextId('team'),
    orgId: org.id,
    name: 'Owners',
    description: '',
    permission: 'owner',
    includesAllRepositories: true,
    repoIds: [],
    memberIds: [creator.id],
  });
  return org;
}

// ---- routes -----------------------------------------------------------------------------------

interface CreateUserForm {
  source_id?: number;
  login_name?: string;
  username: string;
  full_name?: string;
  email: string;
  password?: string;
  must_change_password?: boolean;
  restricted?: boolean;
  visibility?: Visibility | '';
  created_at?: string;
}

interface CreateOrgForm {
  username: string;
  full_name?: string;
  email?: string;
  description?: string;
  website?: string;
  location?: string;
  visibility?: Visibility | '';
  repo_admin_change_team_access?: boolean;
}

export function registerAdminUserRoutes(r: ApiRouter): void {
  const admin = [scope('admin'), reqToken, reqSiteAdmin];

  r.on('POST', '/admin/users', ...admin, bind('CreateUserOption'), (ctx) => {
    const form = ctx.form as unknown as CreateUserForm;
    const res = createUser(ctx.state, {
      username: form.username,
      email: form.email,
      password: form.password,
      fullName: form.full_name,
      loginName: form.login_name,
      sourceId: form.source_id,
      mustChangePassword: form.must_change_password,
      restricted: form.restricted,
      visibility: form.visibility,
      createdAt: form.created_at,
    });
    if (isFailure(res)) return fail(ctx, res);
    return json(201, toUser(ctx, res, ctx.doer));
  });

  r.on('POST', '/admin/users/:username/orgs', ...admin, userAssignment, bind('CreateOrgOption'), (ctx) => {
    const form = ctx.form as unknown as CreateOrgForm;
    // The admin handler copies only these fields: email and repo_admin_change_team_access are ignored.
    const res = createOrg(ctx.state, ctx.contextUser!, {
      username: form.username,
      fullName: form.full_name,
      description: form.description,
      website: form.website,
      location: form.location,
      visibility: form.visibility,
    });
    if (isFailure(res)) return fail(ctx, res);
    return json(201, toOrganization(ctx, res));
  });

  r.on('POST', '/admin/users/:username/repos', ...admin, userAssignment, bind('CreateRepoOption'), (ctx) => {
    const res = createRepoForOwner(ctx.state, ctx.contextUser!.id, ctx.form as unknown as CreateRepoInput);
    if (isFailure(res)) return fail(ctx, res);
    return json(201, toRepo(ctx, res, AccessMode.Owner));
  });
}

/** `repo.CreateUserRepo`: the readme check, then the repository service. */
export function createRepoForOwner(state: SandboxState, ownerId: number, input: CreateRepoInput): RepoRecord | Failure {
  const readme = input.auto_init && !input.readme ? 'Default' : input.readme;
  if (input.auto_init && readme && readme !== 'Default') return failure(400, 'readme template does not exist, available templates: [Default]');
  return createRepo(state, ownerId, input);
}
