/**
 * A user's badges and SSH keys (`routers/api/v1/admin/user_badge.go`, `routers/api/v1/user/key.go`):
 * `GET/POST/DELETE /admin/users/{username}/badges`, `POST /admin/users/{username}/keys`, `DELETE
 * /admin/users/{username}/keys/{id}`, and the public `GET /users/{username}/keys` to read them back.
 * The key and badge functions are shared with the seed loader.
 */
import { shapeAnswer } from '../../flavours/releases.js';
import { ADMIN_STEPS, reqToken, scope } from '../../http/auth.js';
import { bind, userAssignment, formOf, notFound } from '../../http/checks.js';
import { type ApiContext, forUser } from '../../http/context.js';
import { listOptions, paginate, setTotalCountHeader } from '../../http/paging.js';
import { apiError, empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { renderUser } from './convert.js';
import { checkPublicKeyString, KeyError, type ParsedKey } from './ssh-keys.js';
import type { BadgeRecord, PublicKeyRecord } from './records.js';
import { nowIso, type SandboxState } from '../../core/state.js';
import { fail, failure, isFailure, type Failure } from '../../core/failure.js';
import { CreateKeyOption, UserBadgeOption } from './options.js';
import { hasQuirk } from '../../flavours/releases.js';

// ---- badges -----------------------------------------------------------------------------------

export function badgeBySlug(state: SandboxState, slug: string): BadgeRecord | undefined {
  return state.data.badges.find((b) => b.slug === slug);
}

/** The user's badges, in the order they were given. */
export function badgesOfUser(state: SandboxState, userId: number): BadgeRecord[] {
  return state.data.userBadges
    .filter((ub) => ub.userId === userId)
    .sort((a, b) => a.id - b.id)
    .map((ub) => state.data.badges.find((b) => b.id === ub.badgeId))
    .filter((b): b is BadgeRecord => b !== undefined);
}

/**
 * `user_model.AddUserBadges`: one transaction over the list — an unknown slug or a badge the
 * user already has (earlier in the same list included) aborts everything (500). `duplicates`:
 * the released model (Gitea 1.22–1.25), with no unique index — a badge the user has is inserted
 * again (and listed twice), and an unknown slug has the older message.
 */
export function addUserBadges(state: SandboxState, userId: number, slugs: string[], duplicates = false): Failure | undefined {
  const added: number[] = [];
  for (const slug of slugs) {
    const badge = badgeBySlug(state, slug);
    if (!badge) return failure(500, duplicates ? `badge with slug ${slug} doesn't exist` : `badge does not exist [slug: ${slug}]`);
    if (!duplicates && (added.includes(badge.id) || state.data.userBadges.some((ub) => ub.userId === userId && ub.badgeId === badge.id))) {
      return failure(500, `user badge already exists [user_id: ${userId}, badge_id: ${badge.id}]`);
    }
    added.push(badge.id);
  }
  for (const badgeId of added) state.data.userBadges.push({ id: state.nextId('userBadge'), userId, badgeId });
  return undefined;
}

/**
 * The model is serialised as it is (`ctx.JSON(http.StatusOK, &badges)` with `badges.Badge`, which
 * has no json tags): Go's encoder uses the field names.
 */
function badgeModel(b: BadgeRecord): Record<string, unknown> {
  return { ID: b.id, Slug: b.slug, Description: b.description, ImageURL: b.imageUrl };
}

// ---- keys -------------------------------------------------------------------------------------

/**
 * `CheckPublicKeyString` as the user key and deploy key routes answer its error (`HandleCheckKeyStringError`,
 * routers/api/v1/user/key.go and repo/key.go): 422 "Invalid key content: …".
 */
export function checkKeyContent(key: string): ParsedKey | Failure {
  try {
    return checkPublicKeyString(key);
  } catch (err) {
    if (err instanceof KeyError) return failure(422, `Invalid key content: ${err.message}`);
    throw err;
  }
}

/** `asymkey_model.AddPublicKey` after `CheckPublicKeyString`: errors as `HandleCheckKeyStringError` / `HandleAddKeyError` word them. */
export function createPublicKey(state: SandboxState, ownerId: number, title: string, key: string): PublicKeyRecord | Failure {
  const parsed = checkKeyContent(key);
  if (isFailure(parsed)) return parsed;
  if (state.data.publicKeys.some((k) => k.fingerprint === parsed.fingerprint)) return failure(422, 'Key content has been used as non-deploy key');
  if (state.data.publicKeys.some((k) => k.ownerId === ownerId && k.name === title)) return failure(422, 'Key title has been used');
  const now = nowIso();
  const rec: PublicKeyRecord = { id: state.nextId('publicKey'), ownerId, name: title, content: parsed.content, fingerprint: parsed.fingerprint, createdAt: now, updatedAt: now };
  state.data.publicKeys.push(rec);
  return rec;
}

/**
 * `convert.ToPublicKey` + `appendPrivateInformation` (site admins and the owner see `key_type`
 * and the owner as seen by themself). `url`, `title`, `fingerprint`, `read_only`, `key_type` and
 * `user` are omitempty: a user key is never read-only, so `read_only` is never sent.
 */
export function toPublicKey(ctx: ApiContext, key: PublicKeyRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { id: key.id, key: key.content };
  out.url = `${ctx.root}api/v1/user/keys/${key.id}`;
  if (key.name) out.title = key.name;
  if (key.fingerprint) out.fingerprint = key.fingerprint;
  out.created_at = key.createdAt;
  // `last_used_at` from Gitea 1.24 (v1.24.7 `modules/structs/user_key.go` l.19; not in v1.23.8 nor any Forgejo):
  // shapeAnswer keeps the keys of the release's `PublicKey`.
  out.last_used_at = key.updatedAt;
  if (ctx.doer && (ctx.doer.isAdmin || ctx.doer.id === key.ownerId)) {
    const owner = ctx.state.userById(key.ownerId);
    if (owner) out.user = renderUser(ctx, owner, true, true);
    out.key_type = 'user';
  }
  return shapeAnswer(ctx.flavour, 'PublicKey', out);
}

/** `ctx.PathParamInt64`: Go's `strconv.ParseInt`, 0 on anything else. */
export function pathInt64(v: string | undefined): number {
  return v !== undefined && /^[+-]?\d+$/.test(v) ? Number(v) : 0;
}

// ---- routes -----------------------------------------------------------------------------------

export function registerAdminUserExtraRoutes(r: ApiRouter): void {
  const admin = ADMIN_STEPS;

  r.on('GET', '/admin/users/:username/badges', ...admin, userAssignment, forUser((ctx) => {
    const badges = badgesOfUser(ctx.state, ctx.contextUser.id);
    setTotalCountHeader(ctx, badges.length);
    return json(200, badges.map(badgeModel));
  }));

  r.on('POST', '/admin/users/:username/badges', ...admin, userAssignment, bind(UserBadgeOption), forUser((ctx) => {
    const res = addUserBadges(ctx.state, ctx.contextUser.id, formOf(ctx, UserBadgeOption).badge_slugs, hasQuirk(ctx.flavour, 'badgeAddDuplicates'));
    if (res) return fail(ctx, res);
    return empty(204);
  }));

  // Removes the listed badges the user has; unknown slugs are ignored: always 204.
  r.on('DELETE', '/admin/users/:username/badges', ...admin, userAssignment, bind(UserBadgeOption), forUser((ctx) => {
    const slugs = new Set(formOf(ctx, UserBadgeOption).badge_slugs);
    const ids = new Set(ctx.state.data.badges.filter((b) => slugs.has(b.slug)).map((b) => b.id));
    const userId = ctx.contextUser.id;
    ctx.state.data.userBadges = ctx.state.data.userBadges.filter((ub) => !(ub.userId === userId && ids.has(ub.badgeId)));
    return empty(204);
  }));

  r.on('POST', '/admin/users/:username/keys', ...admin, userAssignment, bind(CreateKeyOption), forUser((ctx) => {
    const form = formOf(ctx, CreateKeyOption);
    const res = createPublicKey(ctx.state, ctx.contextUser.id, form.title, form.key);
    if (isFailure(res)) return fail(ctx, res);
    return json(201, toPublicKey(ctx, res));
  }));

  // `asymkey_service.DeletePublicKey(ctx, ContextUser, id)`: the *target* user is the one checked,
  // so a key of another user is deletable through a site admin's name only.
  r.on('DELETE', '/admin/users/:username/keys/:id', ...admin, userAssignment, forUser((ctx) => {
    const id = pathInt64(ctx.params.id);
    const key = ctx.state.data.publicKeys.find((k) => k.id === id);
    if (!key) return notFound(ctx);
    const target = ctx.contextUser;
    const targetIsAdmin = target.kind === 'user' && target.user.isAdmin;
    if (!targetIsAdmin && target.id !== key.ownerId) return apiError(ctx.root, 403, 'You do not have access to this key');
    ctx.state.data.publicKeys = ctx.state.data.publicKeys.filter((k) => k.id !== id);
    return empty(204);
  }));

  // `/users/{username}` group with user scope and a token, then the user lookup.
  r.on('GET', '/users/:username/keys', scope('user'), reqToken, userAssignment, forUser((ctx) => {
    const ownerId = ctx.contextUser.id;
    const fingerprint = ctx.query.get('fingerprint') ?? '';
    const all = ctx.state.data.publicKeys.filter((k) => k.ownerId === ownerId).sort((a, b) => a.id - b.id);
    let keys: PublicKeyRecord[];
    let total: number;
    if (fingerprint) {
      // Querying, not listing: no paging.
      keys = all.filter((k) => k.fingerprint === fingerprint);
      total = keys.length;
    } else {
      keys = paginate(all, listOptions(ctx));
      total = all.length;
    }
    setTotalCountHeader(ctx, total);
    return json(200, keys.map((k) => toPublicKey(ctx, k)));
  }));
}
