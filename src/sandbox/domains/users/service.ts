/** Creating users (`admin.CreateUser`) and the name and e-mail checks, for the routes, organisations and the seed loader. */
import { isValidUsername } from '../../http/binding.js';
import { addEmailRow, authSourceById, findEmailRow } from './accounts.js';
import { deleteUserRedirect } from '../../core/redirects.js';
import { hashPassword, nowIso, type SandboxState, type UserRecord, type Visibility } from '../../core/state.js';
import { checkUsableName, failure, type Failure } from '../../core/failure.js';

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
  maxRepoCreation?: number;
  allowGitHook?: boolean;
  allowImportLocal?: boolean;
  allowCreateOrganization?: boolean;
  keepEmailPrivate?: boolean;
  /** Seeds only: skip the password policy (a seeded user may have no password). */
  skipPasswordPolicy?: boolean;
  website?: string;
  location?: string;
  description?: string;
}

/** `admin.CreateUser` after binding: the checks in the server's order, then the new user. */
export function createUser(state: SandboxState, input: CreateUserInput): UserRecord | Failure {
  // parseAuthSource: an unknown source is 422 on create (500 on edit).
  const source = input.sourceId ? authSourceById(state, input.sourceId) : undefined;
  if (input.sourceId && !source) return failure(422, `login source does not exist [id: ${input.sourceId}]`);
  // Password rules apply to local users only.
  if (!source && !input.skipPasswordPolicy && Buffer.byteLength(input.password ?? '') < MIN_PASSWORD_LENGTH) return failure(400, 'PasswordIsRequired');
  // createUser: IsUsableUsername → ValidateEmail → name taken → e-mail taken.
  const unusable = checkUsableUsername(input.username);
  if (unusable) return unusable;
  const badEmail = checkEmail(input.email);
  if (badEmail) return badEmail;
  if (state.isNameTaken(input.username)) return failure(422, `user already exists [name: ${input.username}]`);
  if (findEmailRow(state, input.email)) return failure(422, `e-mail already in use [email: ${input.email}]`);
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
    sourceId: source?.id ?? 0,
    website: input.website ?? '',
    location: input.location ?? '',
    description: input.description ?? '',
    keepEmailPrivate: input.keepEmailPrivate ?? false,
    language: '',
    maxRepoCreation: input.maxRepoCreation ?? -1,
    allowGitHook: input.allowGitHook ?? false,
    allowImportLocal: input.allowImportLocal ?? false,
    allowCreateOrganization: input.allowCreateOrganization ?? true,
    createdAt: now,
    updatedAt: now,
    lastLogin: null,
  };
  state.data.users.push(user);
  addEmailRow(state, user.id, user.email, true, user.isActive);
  // A new account takes its name back from an old rename redirect.
  deleteUserRedirect(state, user.name);
  return user;
}
