/**
 * Seed keys of the admin account endpoints (README.md "Seed file"): the top-level `auth_sources`,
 * `badges` and `hooks`, and per user `source_id`, secondary `emails`, SSH `keys`, `badges` and the
 * flags the API never returns. Keys, badges and hooks go through the same functions as the API.
 */
import { CreateHookOption } from '../hooks/options.js';
import { bindBody } from '../../http/binding.js';
import { addEmailRow, findEmailRow } from './accounts.js';
import { createAdminHook } from '../hooks/routes.js';
import { addUserBadges, createPublicKey } from './badges-keys.js';
import { checkEmail } from './routes.js';
import { isFailure } from '../../core/failure.js';
import { bool as flag, integer, list as items, obj as record, SeedError, str as text, type Obj } from '../../core/seed-shape.js';
import type { AuthSourceType } from './records.js';
import type { SandboxState, UserRecord } from '../../core/state.js';

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
  /** `POST /admin/hooks` bodies (config values may be YAML booleans or numbers). */
  hooks?: Record<string, unknown>[];
}

/** The per-user keys above, for the user key check of seed.ts. */
export const USER_ACCOUNT_KEYS = [
  'source_id', 'emails', 'keys', 'badges', 'max_repo_creation', 'allow_git_hook', 'allow_import_local', 'allow_create_organization', 'keep_email_private',
];

export const TOP_ACCOUNT_KEYS = ['auth_sources', 'badges', 'hooks'];

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

export function seedHooks(state: SandboxState, raw: unknown): void {
  items(raw, 'hooks').forEach((h, i) => {
    const p = `hooks[${i}]`;
    const o = record(h, p, ['type', 'config', 'events', 'branch_filter', 'authorization_header', 'active', 'name']);
    const body: Obj = { ...o };
    if (o.config && typeof o.config === 'object' && !Array.isArray(o.config)) {
      body.config = Object.fromEntries(Object.entries(o.config as Obj).map(([k, v]) => [k, typeof v === 'boolean' || typeof v === 'number' ? String(v) : v]));
    }
    const bound = bindBody(CreateHookOption, { method: 'POST', contentType: 'application/json', rawBody: JSON.stringify(body), query: new URLSearchParams() });
    if (bound.error) throw new SeedError(`${p}: ${bound.error}`);
    const res = createAdminHook(state, bound.form);
    if (isFailure(res)) throw new SeedError(`${p}: ${res.message}`);
  });
}
