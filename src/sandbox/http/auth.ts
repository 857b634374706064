/**
 * Authentication and the checks that follow it (`routers/api/v1/api.go`,
 * `services/auth/{basic,oauth2,group}.go`):
 *
 * - `Authorization: token|Bearer <t>` (scheme case-insensitive, exactly two fields), `?token=` /
 *   `?access_token=` (with the deprecation warning header), and `Basic` where an empty password or
 *   `x-oauth-basic` makes the user name the token, otherwise the password is tried as a token
 *   first, then as the user's password;
 * - a credential that is present but wrong is 401 `invalid username, password or token` on every
 *   route — never a fall-back to anonymous;
 * - then the account-state gate (inactive, prohibited, must change password: 403 `{message}`)
 *   and sudo (`?sudo=` / `Sudo:`, site admins only).
 */
import { notFound } from './checks.js';
import { apiError, messageOnly } from './respond.js';
import type { ApiContext, Step } from './context.js';
import { checkPassword } from '../core/state.js';

const INVALID = 'invalid username, password or token';

type Credential = { kind: 'token'; token: string } | { kind: 'basic'; user: string; password: string } | null;

function parseCredential(ctx: ApiContext): Credential {
  const q = ctx.query.get('token') || ctx.query.get('access_token');
  if (q) return { kind: 'token', token: q };
  const header = ctx.c.req.header('authorization');
  if (!header) return null;
  const fields = header.trim().split(/\s+/);
  if (fields.length !== 2) return null;
  const [scheme = '', value = ''] = fields;
  const s = scheme.toLowerCase();
  if (s === 'token' || s === 'bearer') return { kind: 'token', token: value };
  if (s === 'basic') {
    let decoded: string;
    try {
      decoded = Buffer.from(value, 'base64').toString('utf8');
    } catch {
      return null;
    }
    const i = decoded.indexOf(':');
    if (i < 0) return null;
    return { kind: 'basic', user: decoded.slice(0, i), password: decoded.slice(i + 1) };
  }
  return null;
}

/** Resolves the caller. Answers 401 for a wrong credential, 403 for a refused account. */
export function authenticate(ctx: ApiContext): Response | undefined {
  if (ctx.query.get('token') || ctx.query.get('access_token')) {
    ctx.headers['X-Gitea-Warning'] =
      'token and access_token API authentication is deprecated and will be removed in gitea 1.23. Please use AuthorizationHeaderToken instead. Existing queries will continue to work but without authorization.';
  }
  const cred = parseCredential(ctx);
  if (!cred) return undefined;
  const { state } = ctx;
  if (cred.kind === 'token') {
    const tok = state.tokenByValue(cred.token);
    const user = tok && state.userById(tok.userId);
    if (!tok || !user) return apiError(ctx.root, 401, INVALID);
    ctx.doer = user;
    ctx.tokenScopes = tok.scopes;
  } else {
    const asToken = cred.password === '' || cred.password === 'x-oauth-basic' ? cred.user : cred.password;
    const tok = state.tokenByValue(asToken);
    const tokUser = tok && state.userById(tok.userId);
    if (tok && tokUser) {
      ctx.doer = tokUser;
      ctx.tokenScopes = tok.scopes;
    } else {
      const user = cred.user.includes('@') ? state.data.users.find((u) => u.email.toLowerCase() === cred.user.toLowerCase()) : state.userByName(cred.user);
      if (!user || !checkPassword(user.passwordHash, cred.password)) return apiError(ctx.root, 401, INVALID);
      ctx.doer = user;
      ctx.tokenScopes = null;
    }
  }
  ctx.isSigned = true;
  ctx.isBasicAuth = cred.kind === 'basic';
  const doer = ctx.doer;
  if (!doer.isActive || doer.prohibitLogin) {
    return messageOnly(403, 'This account is prohibited from signing in, please contact your site administrator.');
  }
  if (doer.mustChangePassword) {
    // Gitea concatenates AppURL (which ends with "/") and "/user/change_password".
    return messageOnly(403, `You must change your password. Change it at: ${ctx.root}/user/change_password`);
  }
  return undefined;
}

/** `?sudo=` / `Sudo:` — site admins act as another user. */
export function sudo(ctx: ApiContext): Response | undefined {
  const name = ctx.query.get('sudo') || ctx.c.req.header('sudo') || '';
  if (!name) return undefined;
  if (!ctx.isSigned || !ctx.doer?.isAdmin) return messageOnly(403, 'Only administrators allowed to sudo.');
  const target = ctx.state.userByName(name);
  if (!target) return notFound(ctx);
  ctx.doer = target;
  return undefined;
}

export type ScopeCategory = 'activitypub' | 'admin' | 'issue' | 'misc' | 'notification' | 'organization' | 'package' | 'repository' | 'user';

/** Whether a token's scopes grant `level:category` (write implies read, `all` grants everything). */
export function hasScope(scopes: string[], level: 'read' | 'write', category: ScopeCategory): boolean {
  if (scopes.includes('all') || scopes.includes(`write:${category}`)) return true;
  return level === 'read' && scopes.includes(`read:${category}`);
}

/** `tokenRequiresScopes(...)`: 403 when a token lacks any of the scopes (checked before 401). */
export function scope(...categories: ScopeCategory[]): Step {
  return (ctx) => {
    if (!ctx.tokenScopes) return undefined;
    const level = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method) ? 'write' : 'read';
    if (categories.every((cat) => hasScope(ctx.tokenScopes ?? [], level, cat))) return undefined;
    const required = categories.map((cat) => `${level}:${cat}`).join(' ');
    return apiError(ctx.root, 403, `token does not have at least one of required scope(s), required=[${required}], token scope=${ctx.tokenScopes.join(',')}`);
  };
}

export const reqToken: Step = (ctx) => (ctx.isSigned ? undefined : apiError(ctx.root, 401, 'token is required'));

export const reqSiteAdmin: Step = (ctx) => (ctx.doer?.isAdmin ? undefined : apiError(ctx.root, 403, 'user should be the site admin'));

/** The `/admin` group: scope (403) → token (401) → site admin (403). */
export const ADMIN_STEPS = [scope('admin'), reqToken, reqSiteAdmin];
