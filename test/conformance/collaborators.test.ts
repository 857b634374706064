/**
 * Conformance of the collaborator routes (issue 21): what each release's source does, read tag by tag
 * (Gitea v1.21.11, v1.22.6, v1.23.8, v1.24.7, v1.25.4, main 423cdd4d94 as 1.26; Forgejo v7.0.16,
 * v11.0.15, v15.0.3), each fact with its citation, against the sandbox playing each release.
 * Handler: routers/api/v1/repo/collaborators.go (line numbers below are of v1.25.4 unless a tag says
 * otherwise); helpers: modules/repository/collaborator.go and models/repo/collaboration.go (Gitea ≤ 1.22,
 * Forgejo) or services/repository/collaboration.go (Gitea 1.23+); the permission:
 * models/perm/access/repo_permission.go GetUserRepoPermission (GetIndividualUserRepoPermission in main).
 */
import type { Flavour } from '../../src/sandbox/flavours/flavour.js';
import { available, type Availability } from '../../src/sandbox/flavours/releases.js';
import type { SeedFile } from '../../src/sandbox/index.js';
import type { Harness } from '../sandbox/helpers.js';
import type { Fact } from './facts.js';
import { checkFacts } from './run-facts.js';


const on = (f: Flavour, a: Availability): boolean => available(f, a);
/** The list without `page` is not limited (page 0 passed through, FindAndCount/getCollaborations limit only from page 1). */
const UNPAGED_WITHOUT_PAGE: Availability = { gitea: { until: '1.25' } };
/** AddOrUpdateCollaborator (Gitea 1.23+): write without a permission, 500 for an unknown one. */
const ADD_OR_UPDATE: Availability = { gitea: { since: '1.23' } };
/** CreateTeam stores a team below admin as none, its units carrying the levels (Gitea 1.24+, #34128). */
const TEAM_MODE_NONE: Availability = { gitea: { since: '1.24' } };

export const SEED: SeedFile = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com' },
    { username: 'bob', email: 'bob@example.com', token: 'bob-token' },
    { username: 'carol', email: 'carol@example.com' },
    { username: 'sleepy', email: 'sleepy@example.com', active: false },
    { username: 'dave', email: 'dave@example.com' },
  ],
  orgs: [
    {
      name: 'corp',
      owners: ['root'],
      members: ['bob'],
      teams: [
        { name: 'writers', permission: 'write', members: ['bob'], repos: ['app'] },
        { name: 'admins', permission: 'admin', members: ['carol'], repos: ['api'] },
      ],
    },
  ],
  repos: [
    { name: 'alice/listed', collaborators: { bob: 'read', carol: 'admin', root: 'write' } },
    { name: 'alice/keep', collaborators: { bob: 'read' } },
    { name: 'alice/bad', collaborators: {} },
    { name: 'alice/gone', collaborators: { bob: 'write' } },
    { name: 'alice/own', collaborators: {} },
    { name: 'corp/app', collaborators: { bob: 'read' } },
    { name: 'corp/api', collaborators: { carol: 'read' } },
    { name: 'corp/tools', collaborators: { dave: 'read' } },
  ],
};

const permissionOf = async (h: Harness, repo: string, user: string): Promise<unknown> => (await h.call<{ permission: string }>('GET', `repos/${repo}/collaborators/${user}/permission`)).json.permission;
const listed = async (h: Harness, repo: string, query = ''): Promise<string[]> => (await h.call<{ login: string }[]>('GET', `repos/${repo}/collaborators${query}`)).json.map((u) => u.login);

export const FACTS: Fact[] = [
  {
    id: 'the list answers users (no permission key), in the order they were added, with X-Total-Count',
    cite: 'ListCollaborators l.27-74: convert.ToUser per collaborator (api.User has no permission), SetTotalCountHeader l.72 (v1.21.11 l.73, Forgejo v15.0.3 l.76); no Link header in any release',
    expected: () => ({ logins: ['bob', 'carol', 'root'], permissionKey: false, total: '3', link: null }),
    async observe(h) {
      const r = await h.call<Record<string, unknown>[]>('GET', 'repos/alice/listed/collaborators?page=1&limit=50');
      return { logins: r.json.map((u) => u.login), permissionKey: r.json.some((u) => 'permission' in u), total: r.headers.get('x-total-count'), link: r.headers.get('link') };
    },
  },
  {
    id: 'without page the list is not limited on Gitea ≤ 1.25; paged (limit honoured) on Gitea 1.26 and Forgejo',
    cite: 'utils/page.go GetListOptions l.15 (page passed through; main: max(page, 1)); v1.21.11 models/repo/collaboration.go l.88-90 (Page == 0: every row); v1.22.6-v1.25.4 models/db/list.go l.189 (limit only when page >= 1); Forgejo v7.0.16/v15.0.3 models/db/list.go l.153 (page 0 → 1)',
    expected: (f) => (on(f, UNPAGED_WITHOUT_PAGE) ? ['bob', 'carol', 'root'] : ['bob', 'carol']),
    observe: (h) => listed(h, 'alice/listed', '?limit=2'),
  },
  {
    id: 'the permission route answers the level the user has: a collaborator its mode, a site admin owner',
    cite: 'GetRepoPermissions l.248-302: ToUserAndPermission(permission.AccessMode) (services/convert/user.go l.104-110); repo_permission.go v1.25.4 l.304-305 (user.IsAdmin → AccessModeOwner)',
    expected: () => ['read', 'admin', 'owner'],
    async observe(h) {
      return [await permissionOf(h, 'alice/listed', 'bob'), await permissionOf(h, 'alice/listed', 'carol'), await permissionOf(h, 'alice/listed', 'root')];
    },
  },
  {
    id: 'the permission is the highest the user has: a read collaborator in a write team reads write; an organisation owner reads owner',
    cite: 'repo_permission.go GetUserRepoPermission v1.21.11 l.193 (accessLevel: the access table, collaborations and teams at their highest) and l.221-226 (an admin team → owner); v1.25.4 l.344',
    expected: () => ['write', 'owner'],
    async observe(h) {
      return [await permissionOf(h, 'corp/app', 'bob'), await permissionOf(h, 'corp/app', 'root')];
    },
  },
  {
    id: "the list's is_admin is the user's own only for a site administrator's token (or the user's own): forgeform tells site administrators from it",
    cite: 'services/convert/user.go ToUser v1.25.4 l.16-27 (authed = doer.ID == user.ID || doer.IsAdmin l.24) and l.77 (result.IsAdmin = user.IsAdmin only when authed), v1.21.11 l.24/l.76, Forgejo v15.0.3 l.24/l.78',
    expected: () => ({ admin: { bob: false, carol: false, root: true }, other: { bob: false, carol: false, root: false } }),
    async observe(h) {
      const flags = async (token?: string) =>
        Object.fromEntries((await h.call<{ login: string; is_admin: boolean }[]>('GET', 'repos/alice/listed/collaborators?page=1', token ? { token } : {})).json.map((u) => [u.login, u.is_admin]));
      return { admin: await flags(), other: await flags('bob-token') };
    },
  },
  {
    id: 'a member of a team with admin access reads owner, whatever the collaboration says',
    cite: 'repo_permission.go GetUserRepoPermission v1.25.4 l.341-347 (team.HasAdminAccess() → AccessModeOwner; models/organization/team.go l.156-158: AccessMode >= admin), v1.21.11 l.220-226 and Forgejo v15.0.3 l.294-300 (team.AccessMode >= AccessModeAdmin); main 423cdd4d94 l.478-483',
    expected: () => 'owner',
    observe: (h) => permissionOf(h, 'corp/api', 'carol'),
  },
  {
    id: "a team's stored mode, not its units, raises the answer: a write team made with units_map is stored write on Gitea ≤ 1.23 and Forgejo (the read collaborator reads write), none on Gitea 1.24+ (it reads read)",
    cite: 'access.go RecalculateUserAccess v1.25.4 l.196-242 (maxAccessMode(accessMode, t.AccessMode) l.229: the team row, not team_unit), v1.21.11 l.187-233, Forgejo v15.0.3 l.191-237; the answer is the access table (accessLevel l.36-70) — units only reach unitsMode (repo_permission.go l.355-361); CreateTeam v1.23.8 routers/api/v1/org/team.go l.217-219 (ParseAccessMode, then MinUnitAccessMode of units_map), v1.24.7 l.209 (ParseAccessMode(permission, none, admin))',
    expected: (f) => (on(f, TEAM_MODE_NONE) ? { permission: 'none', answer: 'read' } : { permission: 'write', answer: 'write' }),
    async observe(h) {
      const units = { 'repo.code': 'write', 'repo.issues': 'write', 'repo.pulls': 'write', 'repo.releases': 'write', 'repo.wiki': 'write' };
      const made = await h.call<{ id: number; permission: string }>('POST', 'orgs/corp/teams', { body: { name: 'coders', permission: 'write', units_map: units } });
      await h.call('PUT', `teams/${made.json.id}/repos/corp/tools`);
      await h.call('PUT', `teams/${made.json.id}/members/dave`);
      return { permission: made.json.permission, answer: await permissionOf(h, 'corp/tools', 'dave') };
    },
  },
  {
    id: "GET /repos/{o}/{r}/teams lists the teams that have the repository with their stored permission (Owners first, then by name, unpaged); a user's repository is 405",
    cite: 'repo/teams.go ListTeams v1.25.4 l.17-58 (l.40-43: 405 "repo is not owned by an organization"; convert.ToTeams(ctx, teams, false) l.51), v1.21.11 l.18-59, Forgejo v15.0.3 l.18-61; models/organization/team_list.go GetRepoTeams v1.25.4 l.100-107, v1.21.11 l.101-108 (team_repo rows; ORDER BY CASE WHEN name LIKE \'Owners\' THEN \'\' ELSE name END)',
    expected: () => ({ teams: [['Owners', 'owner'], ['writers', 'write']], status: 405, message: 'repo is not owned by an organization' }),
    async observe(h) {
      const teams = (await h.call<{ name: string; permission: string }[]>('GET', 'repos/corp/app/teams')).json.map((t) => [t.name, t.permission]);
      const user = await h.call<{ message: string }>('GET', 'repos/alice/listed/teams');
      return { teams, status: user.status, message: user.json.message };
    },
  },
  {
    id: 'GET /teams/{id}/members/{user} answers the user when a member (200), 404 when not',
    cite: 'org/team.go GetTeamMember v1.25.4 l.414-452 (IsUserInTeams l.443, !isTeamMember → NotFound l.447-449), v1.21.11 l.427-465, Forgejo v15.0.3 l.432-470, main 423cdd4d94 l.420-458',
    expected: () => ({ member: [200, 'bob'], other: 404 }),
    async observe(h) {
      const writers = (await h.call<{ id: number; name: string }[]>('GET', 'orgs/corp/teams')).json.find((t) => t.name === 'writers')!;
      const a = await h.call<{ login: string }>('GET', `teams/${writers.id}/members/bob`);
      const b = await h.call('GET', `teams/${writers.id}/members/carol`);
      return { member: [a.status, a.json.login], other: b.status };
    },
  },
  {
    id: 'PUT with a permission adds the collaborator at it, and changes an existing one (204)',
    cite: 'AddOrUpdateCollaborator l.129-197 (v1.23.8 l.128-196, repo_service.AddOrUpdateCollaborator); AddCollaborator v1.21.11 l.130-194 and Forgejo v15.0.3 l.134-204 (repo_module.AddCollaborator, then ChangeCollaborationAccessMode l.186-191)',
    expected: () => ({ statuses: [204, 204], permissions: ['read', 'admin'] }),
    async observe(h) {
      const a = await h.call('PUT', 'repos/alice/keep/collaborators/carol', { body: { permission: 'read' } });
      const first = await permissionOf(h, 'alice/keep', 'carol');
      const b = await h.call('PUT', 'repos/alice/keep/collaborators/carol', { body: { permission: 'admin' } });
      return { statuses: [a.status, b.status], permissions: [first, await permissionOf(h, 'alice/keep', 'carol')] };
    },
  },
  {
    id: 'PUT without a permission: Gitea 1.23+ sets write (an existing collaborator too); Gitea ≤ 1.22 and Forgejo add at write and keep an existing one',
    cite: 'v1.23.8 l.181-183 (p := AccessModeWrite unless form.Permission); v1.21.11 modules/repository/collaborator.go l.23-29 (has → nil; new: AccessModeWrite), Forgejo v15.0.3 l.24-37',
    expected: (f) => ({ status: 204, existing: on(f, ADD_OR_UPDATE) ? 'write' : 'read' }),
    async observe(h) {
      const r = await h.call('PUT', 'repos/alice/keep/collaborators/bob', { body: {} });
      return { status: r.status, existing: await permissionOf(h, 'alice/keep', 'bob') };
    },
  },
  {
    id: 'PUT with an unknown permission: 500 on Gitea 1.23+; Gitea ≤ 1.22 and Forgejo add at write and ignore it',
    cite: 'services/repository/collaboration.go v1.23.8 l.21-25 (mode < Read → ErrInvalidAccessMode, answered 500 l.187-191); v1.21.11 models/repo/collaboration.go l.102-106 (ChangeCollaborationAccessMode discards mode none), Forgejo v15.0.3 l.101-105',
    expected: (f) => (on(f, ADD_OR_UPDATE) ? { status: 500, message: 'Invalid access mode', listed: [] } : { status: 204, message: undefined, listed: ['carol'] }),
    async observe(h) {
      const r = await h.call<{ message?: string }>('PUT', 'repos/alice/bad/collaborators/carol', { body: { permission: 'owner' } });
      return { status: r.status, message: r.json?.message, listed: await listed(h, 'alice/bad', '?page=1') };
    },
  },
  {
    id: 'PUT of a user that does not exist: 422 user does not exist',
    cite: 'l.167-175 (v1.21.11 l.166-174): GetUserByName → IsErrUserNotExist → 422; models/user/error.go l.44-46 (v1.25.4)',
    expected: () => ({ status: 422, message: 'user does not exist [uid: 0, name: ghost]' }),
    async observe(h) {
      const r = await h.call<{ message: string }>('PUT', 'repos/alice/keep/collaborators/ghost', { body: { permission: 'read' } });
      return { status: r.status, message: r.json.message };
    },
  },
  {
    id: "PUT of an inactive user: 500 collaborator's account is inactive",
    cite: 'l.177-180 (v1.21.11 l.176-179, Forgejo v15.0.3 l.182-185): !collaborator.IsActive → 500',
    expected: () => ({ status: 500, message: "collaborator's account is inactive" }),
    async observe(h) {
      const r = await h.call<{ message: string }>('PUT', 'repos/alice/keep/collaborators/sleepy', { body: { permission: 'read' } });
      return { status: r.status, message: r.json.message };
    },
  },
  {
    id: "PUT of the repository's owner is not refused (no owner check in the API): it is listed, and its permission reads owner",
    cite: 'AddOrUpdateCollaborator l.129-197 and services/repository/collaboration.go l.21-65 have no owner check (v1.21.11 modules/repository/collaborator.go l.16-37 neither); only the web form refuses it (routers/web/repo/setting/collaboration.go v1.21.11 l.56)',
    expected: () => ({ status: 204, listed: ['alice'], permission: 'owner' }),
    async observe(h) {
      const r = await h.call('PUT', 'repos/alice/own/collaborators/alice', { body: { permission: 'read' } });
      return { status: r.status, listed: await listed(h, 'alice/own', '?page=1'), permission: await permissionOf(h, 'alice/own', 'alice') };
    },
  },
  {
    id: 'DELETE removes a collaborator; a user who is none is 204 too; an unknown user is 422',
    cite: 'DeleteCollaborator l.200-246: GetUserByName (422 l.233), DeleteCollaboration (services/repository/collaboration.go v1.23.8 l.80-84: nothing deleted → commit)',
    expected: () => ({ statuses: [204, 204, 422], listed: [] }),
    async observe(h) {
      const a = await h.call('DELETE', 'repos/alice/gone/collaborators/bob');
      const b = await h.call('DELETE', 'repos/alice/gone/collaborators/carol');
      const c = await h.call('DELETE', 'repos/alice/gone/collaborators/ghost');
      return { statuses: [a.status, b.status, c.status], listed: await listed(h, 'alice/gone', '?page=1') };
    },
  },
  {
    id: 'the permission of a user that does not exist is 404; GET …/collaborators/{user} is 204 or 404',
    cite: 'GetRepoPermissions l.284-290 (IsErrUserNotExist → 404); IsCollaborator l.77-127 (204 / NotFound)',
    expected: () => [404, 204, 404],
    async observe(h) {
      const a = await h.call('GET', 'repos/alice/listed/collaborators/ghost/permission');
      const b = await h.call('GET', 'repos/alice/listed/collaborators/bob');
      const c = await h.call('GET', 'repos/alice/listed/collaborators/alice');
      return [a.status, b.status, c.status];
    },
  },
];


checkFacts('%s: collaborators conform to the source', SEED, FACTS);
