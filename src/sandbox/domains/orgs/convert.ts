/** API `Organization` objects, and an organisation rendered as a `User`. */
import { goPathEscape } from '../../http/respond.js';
import { avatarUrl, ZERO_TIME, type ConvertContext } from '../../core/convert.js';
import type { OrgRecord } from '../../core/state.js';
import { shapeAnswer } from '../../flavours/releases.js';

/** An organisation rendered as a `User` (e.g. the owner of an organisation repository). */
export function orgAsUser(cx: ConvertContext, org: OrgRecord, signed: boolean): Record<string, unknown> {
  return {
    id: org.id,
    login: org.name,
    login_name: '',
    source_id: 0,
    full_name: org.fullName,
    email: signed ? org.email : '',
    avatar_url: avatarUrl(cx.root, `org:${org.id}`),
    html_url: `${cx.root}${goPathEscape(org.name)}`,
    language: '',
    is_admin: false,
    last_login: ZERO_TIME,
    created: org.createdAt,
    restricted: false,
    active: false,
    prohibit_login: false,
    location: org.location,
    website: org.website,
    description: org.description,
    visibility: org.visibility,
    followers_count: 0,
    following_count: 0,
    starred_repos_count: 0,
    type: 'Organization',
  };
}

/** `convert.ToOrganization`, with the keys of the release's `Organization`. */
export function toOrganization(cx: ConvertContext, org: OrgRecord): Record<string, unknown> {
  return shapeAnswer(cx.flavour, 'Organization', {
    id: org.id,
    name: org.name,
    full_name: org.fullName,
    email: org.email,
    avatar_url: avatarUrl(cx.root, `org:${org.id}`),
    description: org.description,
    website: org.website,
    location: org.location,
    visibility: org.visibility,
    repo_admin_change_team_access: org.repoAdminChangeTeamAccess,
    username: org.name,
  });
}
