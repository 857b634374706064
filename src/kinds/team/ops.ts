import { apiPath } from '../../gitea/path.js';
import { SERVER_SCOPE, type Op, type OpsRequest, type Writing } from '../../model/index.js';
import { repoKind } from '../repo/index.js';
import { nameSet } from './fields.js';
import type { TeamTypes } from './read.js';
import { isAdminLevel, permissionToSend } from './units.js';

/** Fields a team's PATCH carries (PATCH /teams/{id}, EditTeamOption); members and repositories are requests of their own. */
const EDITED = ['description', 'permission', 'units_map', 'includes_all_repositories', 'can_create_org_repo'];

/**
 * Fields whose change needs `permission` in the same PATCH: EditTeam reads includes_all_repositories only
 * inside `if !team.IsOwnerTeam() && len(form.Permission) != 0` (Gitea v1.21.11 routers/api/v1/org/team.go
 * l.305-321, v1.24.7 l.296-307, Forgejo v15.0.3 l.310-325), and units only apply below admin.
 */
const NEEDS_PERMISSION = ['permission', 'units_map', 'includes_all_repositories'];

/** The elements to add to and remove from a set, added first: a team being given a new member before losing an old one is never empty. */
function elementOps(path: string, before: unknown, after: unknown, segment: (name: string) => string[]): Op[] {
  const have = new Set(nameSet(before));
  const want = new Set(nameSet(after));
  return [
    ...[...want].filter((n) => !have.has(n)).map((n): Op => ({ method: 'PUT', path: `${path}/${apiPath(...segment(n))}` })),
    ...[...have].filter((n) => !want.has(n)).map((n): Op => ({ method: 'DELETE', path: `${path}/${apiPath(...segment(n))}` })),
  ];
}

/**
 * One request per member or repository added or removed, none for those already right. The repository
 * route's {org} segment is not read by the server (getRepositoryByParams looks the name up in the team's
 * own organisation, v1.21.11 team.go l.640-651): it is the team's organisation all the same.
 */
function listOps(base: string, org: string, before: Record<string, unknown>, after: Record<string, unknown>): Op[] {
  return [
    ...('members' in after ? elementOps(`${base}/members`, before.members, after.members, (u) => [u]) : []),
    ...('repositories' in after ? elementOps(`${base}/repos`, before.repositories, after.repositories, (r) => [org, r]) : []),
  ];
}

/** The PATCH of an existing team's own fields, when any changed (or it is renamed). */
function patchOf(req: Extract<OpsRequest<TeamTypes>, { action: 'update' | 'rename' | 'replace' }>, restsOn: string): Op[] {
  const { desired, current, changed } = req;
  const body: Record<string, unknown> = {};
  if (req.action === 'rename') body.name = desired.key;
  for (const name of changed) if (EDITED.includes(name)) body[name] = desired.fields[name];
  if (NEEDS_PERMISSION.some((n) => n in body)) body.permission = permissionToSend(desired.fields.permission, current.fields.permission);
  // Below admin the server keeps the units it has unless told: a team leaving admin is sent its units.
  if ('permission' in body && !isAdminLevel(body.permission) && desired.fields.units_map !== undefined) body.units_map = desired.fields.units_map;
  return Object.keys(body).length ? [{ method: 'PATCH', path: apiPath('teams', Number(current.id)), body, restsOn }] : [];
}

export const writing = {
  ops(req) {
    const org = req.scope.name;
    // A team is addressed by id, under no organisation: what its delete or rename rests on is its organisation's team list.
    const restsOn = apiPath('orgs', org, 'teams');
    if (req.action === 'delete') return [{ method: 'DELETE', path: apiPath('teams', Number(req.current.id)), restsOn }];
    if (req.action === 'create') {
      const { members: _m, repositories: _r, ...own } = req.desired.fields;
      const post: Op = { method: 'POST', path: apiPath('orgs', org, 'teams'), body: { name: req.desired.key, ...own } };
      // `{id}`: the new team's id, from the POST's answer.
      return [post, ...listOps('teams/{id}', org, {}, req.desired.fields)];
    }
    return [...patchOf(req, restsOn), ...listOps(apiPath('teams', Number(req.current.id)), org, req.current.fields, req.desired.fields)];
  },

  /** A repository the team is given may be one this plan creates: its create comes first. */
  dependsOn({ action, desired, scope, ctx }) {
    if (action === 'delete' || !Array.isArray(desired.fields.repositories)) return [];
    return desired.fields.repositories.flatMap((r) => ctx.madeBy(repoKind, SERVER_SCOPE, `${scope.name}/${String(r)}`) ?? []);
  },
} satisfies Writing<TeamTypes>;
