/** API `User` objects: admin-only fields only for site admins and the user themself. */
import { goPathEscape } from '../../http/respond.js';
import { avatarUrl, EPOCH, ZERO_TIME, type ConvertContext } from '../../core/convert.js';
import type { UserRecord } from '../../core/state.js';
import { shapeAnswer } from '../../flavours/releases.js';

/** `convert.ToUser(ctx, user, doer)`: e-mail for signed-in callers, admin fields for admins and the user. */
export function toUser(cx: ConvertContext, user: UserRecord, doer: UserRecord | null): Record<string, unknown> {
  return renderUser(cx, user, doer !== null, doer !== null && (doer.isAdmin || doer.id === user.id));
}

/** `convert.toUser(ctx, user, signed, authed)`. */
export function renderUser(cx: ConvertContext, user: UserRecord, signed: boolean, authed: boolean): Record<string, unknown> {
  // Without the keys the release's `User` lacks (source_id, html_url before Gitea 1.22 / Forgejo 8; pronouns outside Forgejo).
  return shapeAnswer(cx.flavour, 'User', {
    id: user.id,
    login: user.name,
    // Added by `User.MarshalJSON` "for backward compatibility" (modules/structs/user.go), in no swagger.
    username: user.name,
    login_name: authed ? user.loginName : '',
    source_id: authed ? user.sourceId : 0,
    full_name: user.fullName,
    email: signed && (!user.keepEmailPrivate || authed) ? user.email : `${user.name.toLowerCase()}@noreply.localhost`,
    avatar_url: avatarUrl(cx.root, user.email),
    html_url: `${cx.root}${goPathEscape(user.name)}`,
    language: authed ? user.language : '',
    is_admin: authed ? user.isAdmin : false,
    last_login: authed ? (user.lastLogin ?? EPOCH) : ZERO_TIME,
    created: user.createdAt,
    restricted: user.restricted,
    active: authed ? user.isActive : false,
    prohibit_login: authed ? user.prohibitLogin : false,
    location: user.location,
    pronouns: user.pronouns ?? '',
    website: user.website,
    description: user.description,
    visibility: user.visibility,
    followers_count: 0,
    following_count: 0,
    starred_repos_count: 0,
    type: 'User',
  });
}
