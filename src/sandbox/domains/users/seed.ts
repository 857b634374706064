/**
 * Seed keys of the admin account endpoints (README.md "Seed file"): the top-level `auth_sources`,
 * `badges` and `hooks`, and per user `source_id`, secondary `emails`, SSH `keys`, `badges` and the
 * flags the API never returns. Keys, badges and hooks go through the same functions as the API.
 */
import { addEmailRow, findEmailRow } from './accounts.js';
import { addUserBadges, createPublicKey } from './badges-keys.js';
import { checkEmail, createUser } from './service.js';
import { isFailure } from '../../core/failure.js';
import { bool, bool as flag, integer, list, list as items, obj, obj as record, oneOf, SeedError, str, str as text, strings, VISIBILITIES, type Obj } from '../../core/seed-shape.js';
import type { AuthSourceType } from './records.js';
import type { SandboxState, UserRecord } from '../../core/state.js';
import type { SeedContext } from '../../core/domain.js';

export interface SeedToken {
  token: string;
  /** Gitea token scopes; default `[all]`. */
  scopes?: string[];
  name?: string;
}

/** `source_id`, `emails`, `keys`, `badges` and the never-returned flags: {@link SeedUserAccount}. */
export interface SeedUser extends SeedUserAccount {
  username: string;
  /** Default `<username>@example.com`. */
  email?: string;
  password?: string;
  /** A personal access token with all scopes. */
  token?: string;
  tokens?: (string | SeedToken)[];
  admin?: boolean;
  full_name?: string;
  /** Default false (the API's default is true: such a user could not call the API). */
  must_change_password?: boolean;
  active?: boolean;
  prohibit_login?: boolean;
  restricted?: boolean;
  /** `public` | `limited` | `private`. */
  visibility?: string;
  login_name?: string;
  website?: string;
  location?: string;
  description?: string;
}

export interface SeedAuthSource {
  /** The id users refer to with `source_id` (> 0). */
  id: number;
  name?: string;
  /** `ldap` (default) | `dldap` | `smtp` | `pam` | `oauth2` | `sspi`. */
  type?: AuthSourceType;
}

export interface SeedBadge {
  slug: string;
  description?: string;
  image_url?: string;
}

export interface SeedUserAccount {
  /** A login source of `auth_sources` (0 = local). */
  source_id?: number;
  /** Secondary e-mail addresses: strings (verified) or `{email, verified}`. */
  emails?: (string | { email: string; verified?: boolean })[];
  /** SSH public keys: a key line (title = its comment, else `<user>-key-N`) or `{title, key}`. */
  keys?: (string | { title?: string; key: string })[];
  /** Badge slugs of the top-level `badges` catalogue. */
  badges?: string[];
  /** Never returned by the API (default -1, false, false, true, false). */
  max_repo_creation?: number;
  allow_git_hook?: boolean;
  allow_import_local?: boolean;
  allow_create_organization?: boolean;
  keep_email_private?: boolean;
}

export interface SeedAccountFile {
  auth_sources?: SeedAuthSource[];
  /** Badge definitions (the API cannot create them). */
  badges?: (string | SeedBadge)[];
}

/** The per-user keys above, for the user key check of {@link seedUsers}. */
export const USER_ACCOUNT_KEYS = [
  'source_id', 'emails', 'keys', 'badges', 'max_repo_creation', 'allow_git_hook', 'allow_import_local', 'allow_create_organization', 'keep_email_private',
];

export const TOP_ACCOUNT_KEYS = ['auth_sources', 'badges'];

const SOURCE_TYPES: readonly AuthSourceType[] = ['ldap', 'dldap', 'smtp', 'pam', 'oauth2', 'sspi'];

export function seedAuthSources(state: SandboxState, raw: unknown): void {
  items(raw, 'auth_sources').forEach((s, i) => {
    const p = `auth_sources[${i}]`;
    const o = record(s, p, ['id', 'name', 'type']);
    const id = integer(o.id, `${p}.id`);
    if (id === undefined || id <= 0) throw new SeedError(`${p}.id: required, a number above 0`);
    if (state.data.authSources.some((x) => x.id === id)) throw new SeedError(`${p}.id: duplicate login source id ${id}`);
    const type = text(o.type, `${p}.type`) ?? 'ldap';
    if (!SOURCE_TYPES.includes(type as AuthSourceType)) throw new SeedError(`${p}.type: expected one of ${SOURCE_TYPES.join(', ')}, got ${JSON.stringify(type)}`);
    state.data.authSources.push({ id, name: text(o.name, `${p}.name`) ?? `source-${id}`, type: type as AuthSourceType });
  });
}

export function seedBadges(state: SandboxState, raw: unknown): void {
  items(raw, 'badges').forEach((b, i) => {
    const p = `badges[${i}]`;
    const o = typeof b === 'string' ? { slug: b } : record(b, p, ['slug', 'description', 'image_url']);
    const slug = text(o.slug, `${p}.slug`, true)!;
    if (state.data.badges.some((x) => x.slug === slug)) throw new SeedError(`${p}.slug: duplicate badge ${JSON.stringify(slug)}`);
    state.data.badges.push({ id: state.nextId('badge'), slug, description: text(o.description, `${p}.description`) ?? '', imageUrl: text(o.image_url, `${p}.image_url`) ?? '' });
  });
}

/** After `createUser`: the login source, the never-returned flags, e-mails, keys and badges of `users[i]`. */
export function seedUserAccount(state: SandboxState, user: UserRecord, o: Obj, p: string): void {
  const sourceId = integer(o.source_id, `${p}.source_id`);
  if (sourceId) {
    if (!state.data.authSources.some((s) => s.id === sourceId)) throw new SeedError(`${p}.source_id: no login source ${sourceId} in auth_sources`);
    user.sourceId = sourceId;
  }
  user.maxRepoCreation = integer(o.max_repo_creation, `${p}.max_repo_creation`) ?? user.maxRepoCreation;
  user.allowGitHook = flag(o.allow_git_hook, `${p}.allow_git_hook`) ?? user.allowGitHook;
  user.allowImportLocal = flag(o.allow_import_local, `${p}.allow_import_local`) ?? user.allowImportLocal;
  user.allowCreateOrganization = flag(o.allow_create_organization, `${p}.allow_create_organization`) ?? user.allowCreateOrganization;
  user.keepEmailPrivate = flag(o.keep_email_private, `${p}.keep_email_private`) ?? user.keepEmailPrivate;

  items(o.emails, `${p}.emails`).forEach((e, j) => {
    const ep = `${p}.emails[${j}]`;
    const eo = typeof e === 'string' ? { email: e } : record(e, ep, ['email', 'verified']);
    const email = text(eo.email, `${ep}.email`, true)!;
    const bad = checkEmail(email);
    if (bad) throw new SeedError(`${ep}: ${bad.message}`);
    if (findEmailRow(state, email)) throw new SeedError(`${ep}: e-mail already in use [email: ${email}]`);
    addEmailRow(state, user.id, email, false, flag(eo.verified, `${ep}.verified`) ?? true);
  });

  items(o.keys, `${p}.keys`).forEach((k, j) => {
    const kp = `${p}.keys[${j}]`;
    const ko = typeof k === 'string' ? { key: k } : record(k, kp, ['title', 'key']);
    const key = text(ko.key, `${kp}.key`, true)!;
    const comment = key.trim().split(' ').slice(2).join(' ');
    const title = text(ko.title, `${kp}.title`) ?? (comment || `${user.name}-key-${j + 1}`);
    const res = createPublicKey(state, user.id, title, key);
    if (isFailure(res)) throw new SeedError(`${kp}: ${res.message}`);
  });

  const slugs = items(o.badges, `${p}.badges`).map((b, j) => text(b, `${p}.badges[${j}]`, true)!);
  const res = addUserBadges(state, user.id, slugs);
  if (res) throw new SeedError(`${p}.badges: ${res.message}`);
}

function seedUsers(state: SandboxState, raw: unknown): void {
  list(raw, 'users').forEach((u, i) => {
    const p = `users[${i}]`;
    const o = obj(u, p, [
      'username', 'email', 'password', 'token', 'tokens', 'admin', 'full_name', 'must_change_password', 'active', 'prohibit_login', 'restricted',
      'visibility', 'login_name', 'website', 'location', 'description', ...USER_ACCOUNT_KEYS,
    ]);
    const username = str(o.username, `${p}.username`, true)!;
    const res = createUser(state, {
      username,
      email: str(o.email, `${p}.email`) ?? `${username.toLowerCase()}@example.com`,
      password: str(o.password, `${p}.password`),
      skipPasswordPolicy: true,
      admin: bool(o.admin, `${p}.admin`),
      fullName: str(o.full_name, `${p}.full_name`),
      mustChangePassword: bool(o.must_change_password, `${p}.must_change_password`) ?? false,
      active: bool(o.active, `${p}.active`),
      prohibitLogin: bool(o.prohibit_login, `${p}.prohibit_login`),
      restricted: bool(o.restricted, `${p}.restricted`),
      visibility: oneOf(o.visibility, `${p}.visibility`, VISIBILITIES),
      loginName: str(o.login_name, `${p}.login_name`),
      website: str(o.website, `${p}.website`),
      location: str(o.location, `${p}.location`),
      description: str(o.description, `${p}.description`),
    });
    if (isFailure(res)) throw new SeedError(`${p}: ${res.message}`);
    const token = str(o.token, `${p}.token`);
    if (token) state.addToken(res.id, token, ['all']);
    list(o.tokens, `${p}.tokens`).forEach((t, j) => {
      const tp = `${p}.tokens[${j}]`;
      if (typeof t === 'string') return void state.addToken(res.id, t, ['all']);
      const to = obj(t, tp, ['token', 'scopes', 'name']);
      const scopes = to.scopes === undefined ? ['all'] : strings(to.scopes, `${tp}.scopes`);
      state.addToken(res.id, str(to.token, `${tp}.token`, true)!, scopes, str(to.name, `${tp}.name`) ?? 'sandbox');
    });
    seedUserAccount(state, res, o, p);
  });
}

/**
 * Login sources and badges (which users refer to), the users, then — without any site admin — a
 * site admin `root`: the admin token always belongs to the first site admin.
 */
export function loadUsersSeed(cx: SeedContext): void {
  const { state } = cx;
  seedAuthSources(state, cx.top.auth_sources);
  seedBadges(state, cx.top.badges);
  seedUsers(state, cx.top.users);
  if (!state.data.users.some((u) => u.isAdmin)) {
    const name = state.isNameTaken('root') ? 'sandbox-admin' : 'root';
    const res = createUser(state, { username: name, email: `${name}@example.com`, admin: true, mustChangePassword: false, skipPasswordPolicy: true });
    if (isFailure(res)) throw new SeedError(`cannot add the site admin: ${res.message}`);
  }
}
