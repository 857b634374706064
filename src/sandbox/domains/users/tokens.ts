/**
 * Access tokens of a user: `GET`/`POST /users/{username}/tokens`, `DELETE …/tokens/{id}` — how a
 * client bootstraps a token on a fresh server (Gitea v1.25.4 `routers/api/v1/user/app.go`; routes
 * in `routers/api/v1/api.go` l.1021–1025). The group needs Basic authentication
 * (`reqBasicOrRevProxyAuth`: 401 `auth required` for a token header) and the user themself or a
 * site admin (`reqSelfOrAdmin`: 403).
 */
import { randomBytes } from 'node:crypto';
import { reqToken, scope } from '../../http/auth.js';
import { bind, formOf, notFound, userAssignment } from '../../http/checks.js';
import { forUser, type Step } from '../../http/context.js';
import { f, option } from '../../http/options.js';
import { listOptions, paginate, setTotalCountHeader } from '../../http/paging.js';
import { apiError, empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { nowIso, TOKENS, type TokenRecord } from '../../core/state.js';
import { ZERO_TIME } from '../../core/convert.js';
import type { Flavour } from '../../flavours/flavour.js';
import { hasQuirk, shapeAnswer } from '../../flavours/releases.js';

export const CreateAccessTokenOption = option('CreateAccessTokenOption', [f('name', 'string', { rules: ['Required'] }), f('scopes', 'string[]')]);

const CATEGORIES = ['activitypub', 'admin', 'issue', 'misc', 'notification', 'organization', 'package', 'repository', 'user'];
const KNOWN_SCOPES = new Set(['all', 'public-only', ...CATEGORIES.flatMap((c) => [`read:${c}`, `write:${c}`])]);

/** `AccessTokenScope.Normalize`: `all` covers every category; `write:x` covers `read:x`. An unknown scope is an error. */
function normalizeScopes(scopes: string[]): string[] | { invalid: string } {
  const given = scopes.flatMap((s) => s.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  const unknown = given.find((s) => !KNOWN_SCOPES.has(s));
  if (unknown) return { invalid: unknown };
  const set = new Set(given);
  if (set.has('all')) return ['all', ...(set.has('public-only') ? ['public-only'] : [])];
  return [...set].filter((s) => !(s.startsWith('read:') && set.has(`write:${s.slice(5)}`)));
}

const reqSelfOrAdmin: Step = (ctx) =>
  ctx.doer?.isAdmin || ctx.contextUser?.id === ctx.doer?.id ? undefined : apiError(ctx.root, 403, 'doer should be the site admin or be same as the contextUser');

const reqBasicAuth: Step = (ctx) => (ctx.isBasicAuth ? undefined : apiError(ctx.root, 401, 'auth required'));

/**
 * `api.AccessToken` with the keys of the release's struct: `created_at` / `last_used_at` from Gitea 1.24,
 * Forgejo 15's `repositories` (a nil slice, `null`, for a token not limited to repositories).
 */
function toAccessToken(flavour: Flavour, t: TokenRecord, token = '', created = t.createdAt ?? ZERO_TIME): Record<string, unknown> {
  // `Scope.StringSlice()` is `strings.Split(scope, ",")`: a token without scope lists `[""]`.
  const scopes = t.scopes.length ? t.scopes : [''];
  return shapeAnswer(flavour, 'AccessToken', { id: t.id, name: t.name, sha1: token, token_last_eight: t.lastEight ?? '', scopes, created_at: created, last_used_at: created, repositories: null });
}

export function registerTokenRoutes(r: ApiRouter): void {
  const group = [scope('user'), userAssignment, reqSelfOrAdmin, reqBasicAuth];

  r.on('GET', '/users/:username/tokens', ...group, forUser((ctx) => {
    const tokens = ctx.state.data.tokens.filter((t) => t.userId === ctx.contextUser.id).sort((a, b) => a.id - b.id);
    setTotalCountHeader(ctx, tokens.length);
    return json(200, paginate(tokens, listOptions(ctx)).map((t) => toAccessToken(ctx.flavour, t)));
  }));

  r.on('POST', '/users/:username/tokens', ...group, bind(CreateAccessTokenOption), reqToken, forUser((ctx) => {
    const form = formOf(ctx, CreateAccessTokenOption);
    const userId = ctx.contextUser.id;
    if (ctx.state.data.tokens.some((t) => t.userId === userId && t.name === form.name)) return apiError(ctx.root, 400, 'access token name has been used already');
    const scopes = normalizeScopes(form.scopes ?? []);
    if (!Array.isArray(scopes)) return apiError(ctx.root, 400, `invalid access token scope provided: invalid access token scope: ${scopes.invalid}`);
    const scopeOptional = hasQuirk(ctx.flavour, 'tokenScopeOptional');
    if (scopes.length === 0 && !scopeOptional) return apiError(ctx.root, 400, 'access token must have a scope');
    const value = randomBytes(20).toString('hex');
    const rec = ctx.state.addToken(userId, value, scopes, form.name);
    rec.lastEight = value.slice(-8);
    rec.createdAt = nowIso();
    // The only answer that carries the token; created_at stays Go's zero time, as the handler leaves it.
    const answer = toAccessToken(ctx.flavour, rec, value, ZERO_TIME);
    // Gitea 1.21 and Forgejo 7 leave `Scopes` out of the create answer: a nil slice.
    return json(201, scopeOptional ? { ...answer, scopes: null } : answer);
  }));

  // `{id}`: a number is an id; anything else a name (422 when two tokens share it).
  r.on('DELETE', '/users/:username/tokens/:id', ...group, reqToken, forUser((ctx) => {
    const userId = ctx.contextUser.id;
    const raw = ctx.params.id ?? '';
    const own = ctx.state.data.tokens.filter((t) => t.userId === userId);
    let id = /^\d+$/.test(raw) ? Number(raw) : 0;
    if (id === 0) {
      const [named, another] = own.filter((t) => t.name === raw);
      if (!named) return notFound(ctx);
      if (another) return apiError(ctx.root, 422, `multiple matches for token name '${raw}'`);
      id = named.id;
    }
    if (!own.some((t) => t.id === id)) return notFound(ctx);
    ctx.state.indexes.of(TOKENS).removeWhere((t) => t.id === id);
    return empty(204);
  }));
}
