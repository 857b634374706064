/**
 * Conformance of the team routes (issue 21): what each release's source does with a team's fields,
 * the Owners team, members and repositories, read tag by tag (Gitea v1.21.11, v1.22.6, v1.23.8,
 * v1.24.7, v1.25.4, main 423cdd4d94 as 1.26; Forgejo v7.0.16, v11.0.15, v15.0.3), each fact with
 * its citation, against the sandbox playing each release. Handler: routers/api/v1/org/team.go;
 * helpers: models/org_team.go (Gitea ≤ 1.22, Forgejo) or services/org/team.go (Gitea 1.23+).
 * Kept apart from facts.ts so that the teams' seed and facts change without touching the others.
 */
import type { Flavour } from '../../src/sandbox/flavours/flavour.js';
import { available, type Availability } from '../../src/sandbox/flavours/releases.js';
import type { SeedFile } from '../../src/sandbox/index.js';
import type { Harness } from '../sandbox/helpers.js';
import type { Fact } from './facts.js';
import { checkFacts } from './run-facts.js';


interface TeamAnswer {
  id: number;
  name: string;
  permission: string;
  units_map: Record<string, string>;
  includes_all_repositories: boolean;
  can_create_org_repo: boolean;
  organization: { username?: string; name?: string } | null;
}

const on = (f: Flavour, a: Availability): boolean => available(f, a);
/** #34128 (07c6087878): a non-admin team's own permission is stored as none, its units carry the rest. */
const PERMISSION_IN_UNITS: Availability = { gitea: { since: '1.24' } };
/** Team names up to 30 characters (Gitea ≤ 1.21, Forgejo 7); 255 from Gitea 1.22 (#31410) and Forgejo 8. */
const NAME_MAX_30: Availability = { gitea: { until: '1.21' }, forgejo: { until: 7 } };
/** `page` absent passes 0 through (utils/page.go) and GetTeamMembers limits only when page > 0. */
const MEMBERS_UNPAGED_WITHOUT_PAGE: Availability = { gitea: { until: '1.25' }, forgejo: {} };
/** ListTeams, GetTeamMembers and GetTeamRepos send a Link header (Gitea main only). */
const TEAM_LISTS_LINK: Availability = { gitea: { since: '1.26' } };

const ALL_UNITS = ['repo.actions', 'repo.code', 'repo.ext_issues', 'repo.ext_wiki', 'repo.issues', 'repo.packages', 'repo.projects', 'repo.pulls', 'repo.releases', 'repo.wiki'];

export const SEED: SeedFile = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com' },
    { username: 'bob', email: 'bob@example.com' },
  ],
  orgs: [
    { name: 'tco', owners: ['root'], members: ['alice', 'bob'], teams: [{ name: 'crew', permission: 'write', members: ['alice', 'bob'], repos: ['app'] }] },
    { name: 'other', owners: ['root'] },
    { name: 'solo', owners: ['root'] },
    { name: 'doomed', owners: ['root', 'alice'] },
    { name: 'rebadged', owners: ['root'] },
  ],
  repos: [{ name: 'tco/app' }, { name: 'tco/lib' }, { name: 'other/app' }, { name: 'other/only-here' }],
};

let seq = 0;
/** A new team of tco, its name unique per fact. */
async function newTeam(h: Harness, body: Record<string, unknown>, org = 'tco'): Promise<{ status: number; json: TeamAnswer }> {
  const r = await h.call<TeamAnswer>('POST', `orgs/${org}/teams`, { body: { name: `t${++seq}`, ...body } });
  return { status: r.status, json: r.json };
}

const teamNamed = async (h: Harness, org: string, name: string): Promise<TeamAnswer | undefined> =>
  (await h.call<TeamAnswer[]>('GET', `orgs/${org}/teams?limit=50`)).json.find((t) => t.name === name);

export const FACTS: Fact[] = [
  {
    id: 'create with permission write and units_map: the team reads back the lowest unit level (≤ 1.23, Forgejo) or none (1.24+); units_map as sent',
    cite: 'team.go CreateTeam: Gitea v1.21.11 l.216-219 and Forgejo v15.0.3 l.220-223 (MinUnitAccessMode, models/unit/unit.go v1.21.11 l.354-368); v1.24.7 l.209, main l.213 (ParseAccessMode(…, none, admin)); convert.go ToTeams Permission = AccessMode',
    expected: (f) => ({ permission: on(f, PERMISSION_IN_UNITS) ? 'none' : 'read', units_map: { 'repo.code': 'write', 'repo.issues': 'read' } }),
    async observe(h) {
      const r = await newTeam(h, { permission: 'write', units_map: { 'repo.code': 'write', 'repo.issues': 'read' } });
      return { permission: r.json.permission, units_map: r.json.units_map };
    },
  },
  {
    id: 'create with the units list: each listed unit at the permission; the team reads back the permission (≤ 1.23, Forgejo) or none (1.24+)',
    cite: 'team.go attachTeamUnits: Gitea v1.21.11 l.143-153 (team.AccessMode), v1.24.7 l.144-154 and l.223 (ParseAccessMode(permission, read, write))',
    expected: (f) => ({ permission: on(f, PERMISSION_IN_UNITS) ? 'none' : 'write', units_map: { 'repo.code': 'write', 'repo.pulls': 'write' } }),
    async observe(h) {
      const r = await newTeam(h, { permission: 'write', units: ['repo.code', 'repo.pulls'] });
      return { permission: r.json.permission, units_map: r.json.units_map };
    },
  },
  {
    id: 'units_map entries at none are stored and read back',
    cite: 'team.go attachTeamUnitsMap Gitea v1.21.11 l.163-172; models/organization/team.go GetUnitsMap v1.21.11 l.127-139 (every stored unit)',
    expected: () => ({ 'repo.code': 'read', 'repo.wiki': 'none' }),
    async observe(h) {
      return (await newTeam(h, { permission: 'read', units_map: { 'repo.code': 'read', 'repo.wiki': 'none' } })).json.units_map;
    },
  },
  {
    id: 'an admin team reads back every unit (ext ones included) at admin',
    cite: 'team.go attachAdminTeamUnits Gitea v1.21.11 l.174-187; models/organization/team.go GetUnitsMap v1.21.11 l.129-133 (AccessMode ≥ admin: every unit of unit.Units)',
    expected: () => ({ permission: 'admin', units: ALL_UNITS, levels: ['admin'] }),
    async observe(h) {
      const r = await newTeam(h, { permission: 'admin', units_map: { 'repo.code': 'read' } });
      return { permission: r.json.permission, units: Object.keys(r.json.units_map).sort(), levels: [...new Set(Object.values(r.json.units_map))] };
    },
  },
  {
    id: 'create with neither units nor units_map below admin: 500 "units permission should not be empty", nothing created',
    cite: 'team.go CreateTeam Gitea v1.21.11 l.235, v1.24.7 l.226, main l.230; Forgejo v15.0.3 l.239',
    expected: () => ({ status: 500, created: false }),
    async observe(h) {
      const r = await h.call('POST', 'orgs/tco/teams', { body: { name: 'no-units', permission: 'read' } });
      return { status: r.status, created: (await teamNamed(h, 'tco', 'no-units')) !== undefined };
    },
  },
  {
    id: 'a 31-character team name: 422 where names may have 30 (Gitea 1.21, Forgejo 7), 201 elsewhere',
    cite: 'modules/structs/org_team.go CreateTeamOption.Name: Gitea v1.21.11 l.27 and Forgejo v7.0.16 l.27 MaxSize(30); v1.22.6 l.27, Forgejo v15.0.3 l.28 MaxSize(255) (#31410/#31421)',
    expected: (f) => (on(f, NAME_MAX_30) ? 422 : 201),
    async observe(h) {
      return (await h.call('POST', 'orgs/tco/teams', { body: { name: 'a'.repeat(31), permission: 'read', units: ['repo.code'] } })).status;
    },
  },
  {
    id: 'a name another team has in another case: 422 team already exists, with the lower-cased name',
    cite: 'team.go CreateTeam Gitea v1.21.11 l.243-245 (IsErrTeamAlreadyExist → 422), v1.24.7 l.234-235; models/org_team.go v1.21.11 l.173-183 (lower_name); models/organization/team.go v1.21.11 l.40-42',
    expected: () => 422,
    async observe(h) {
      const r = await h.call<{ message: string }>('POST', 'orgs/tco/teams', { body: { name: 'CREW', permission: 'read', units: ['repo.code'] } });
      return r.json.message.startsWith('team already exists [org_id: ') && r.json.message.endsWith(', name: crew]') ? r.status : r.json.message;
    },
  },
  {
    id: 'PATCH includes_all_repositories without permission is ignored; with permission it is applied',
    cite: 'team.go EditTeam: the flag is read inside `if !team.IsOwnerTeam() && len(form.Permission) != 0` (Gitea v1.21.11 l.305-321, v1.24.7 l.296-307, Forgejo v15.0.3 l.310-325)',
    expected: () => [false, true],
    async observe(h) {
      const t = (await newTeam(h, { permission: 'read', units: ['repo.code'] })).json;
      const alone = await h.call<TeamAnswer>('PATCH', `teams/${t.id}`, { body: { includes_all_repositories: true } });
      const withPermission = await h.call<TeamAnswer>('PATCH', `teams/${t.id}`, { body: { includes_all_repositories: true, permission: 'read', units_map: { 'repo.code': 'read' } } });
      return [alone.json.includes_all_repositories, withPermission.json.includes_all_repositories];
    },
  },
  {
    id: 'PATCH of the Owners team: permission ignored, can_create_org_repo forced true',
    cite: 'team.go EditTeam Gitea v1.21.11 l.291-293 (IsOwnerTeam() || value) and l.305 (!IsOwnerTeam()); v1.24.7 l.283, l.296; Forgejo v15.0.3 l.297, l.310',
    expected: () => ({ permission: 'owner', can_create_org_repo: true }),
    async observe(h) {
      const owners = (await teamNamed(h, 'tco', 'Owners'))!;
      const r = await h.call<TeamAnswer>('PATCH', `teams/${owners.id}`, { body: { permission: 'read', units_map: { 'repo.code': 'read' }, can_create_org_repo: false } });
      return { permission: r.json.permission, can_create_org_repo: r.json.can_create_org_repo };
    },
  },
  {
    id: 'PATCH renaming the Owners team is accepted (it is the Owners team by name only)',
    cite: 'team.go EditTeam Gitea v1.21.11 l.295-297, v1.24.7 l.286-288, Forgejo v15.0.3 l.300-302 (no owner check); models/organization/team.go v1.21.11 l.141-144 IsOwnerTeam = Name == "Owners"',
    expected: () => ({ status: 200, names: ['Bosses'] }),
    async observe(h) {
      const owners = (await teamNamed(h, 'rebadged', 'Owners'))!;
      const r = await h.call('PATCH', `teams/${owners.id}`, { body: { name: 'Bosses' } });
      return { status: r.status, names: (await h.call<TeamAnswer[]>('GET', 'orgs/rebadged/teams')).json.map((t) => t.name) };
    },
  },
  {
    id: 'DELETE of the Owners team is not refused',
    cite: 'team.go DeleteTeam Gitea v1.21.11 l.347-369, v1.25.4 l.334-357, Forgejo v15.0.3 l.352; models/org_team.go v1.21.11 l.296-355 and services/org/team.go v1.25.4 l.162-206 (no IsOwnerTeam check)',
    expected: () => ({ status: 204, names: [] }),
    async observe(h) {
      const owners = (await teamNamed(h, 'doomed', 'Owners'))!;
      const r = await h.call('DELETE', `teams/${owners.id}`);
      return { status: r.status, names: (await h.call<TeamAnswer[]>('GET', 'orgs/doomed/teams')).json.map((t) => t.name) };
    },
  },
  {
    id: "removing the Owners team's last member: 500 ErrLastOrgOwner, member kept",
    cite: 'models/org_team.go Gitea v1.21.11 l.453-456, Forgejo v15.0.3 l.471-472; services/org/team.go v1.25.4 l.283-285; team.go RemoveTeamMember v1.21.11 l.533-536 (every error → 500)',
    expected: () => ({ status: 500, message: 'user is the last member of owner team [uid: 1]', members: ['root'] }),
    async observe(h) {
      const owners = (await teamNamed(h, 'solo', 'Owners'))!;
      const r = await h.call<{ message: string }>('DELETE', `teams/${owners.id}/members/root`);
      const members = (await h.call<{ login: string }[]>('GET', `teams/${owners.id}/members`)).json.map((u) => u.login);
      return { status: r.status, message: r.json.message, members };
    },
  },
  {
    id: 'renaming a team to a name another team has: 500 (not 422)',
    cite: 'team.go EditTeam Gitea v1.21.11 l.333-336 (every UpdateTeam error → 500); models/org_team.go v1.21.11 l.237-247; services/org/team.go v1.25.4 l.98-108',
    expected: () => 500,
    async observe(h) {
      const t = (await newTeam(h, { permission: 'read', units: ['repo.code'] })).json;
      return (await h.call('PATCH', `teams/${t.id}`, { body: { name: 'Crew' } })).status;
    },
  },
  {
    id: 'PUT of a member already in the team and DELETE of one not in it: 204, nothing changes',
    cite: 'models/org_team.go Gitea v1.21.11 l.360-363 (AddTeamMember: already a member → nil) and l.448-451 (removeTeamMember: not a member → nil); services/org/team.go v1.25.4 l.212-, l.275-',
    expected: () => ({ statuses: [204, 204], members: ['alice', 'bob'] }),
    async observe(h) {
      const crew = (await teamNamed(h, 'tco', 'crew'))!;
      const put = await h.call('PUT', `teams/${crew.id}/members/alice`);
      const del = await h.call('DELETE', `teams/${crew.id}/members/root`);
      const members = (await h.call<{ login: string }[]>('GET', `teams/${crew.id}/members`)).json.map((u) => u.login).sort();
      return { statuses: [put.status, del.status], members };
    },
  },
  {
    id: 'GET /teams/{id}/members with limit but no page: every member (≤ 1.25, Forgejo) or one page (1.26)',
    cite: 'models/organization/team_user.go GetTeamMembers Gitea v1.21.11 l.66-68, Forgejo v15.0.3 l.66-68 (limit only when page > 0); routers/api/v1/utils/page.go: page passed through (v1.25.4, Forgejo), max(page, 1) on main',
    expected: (f) => (on(f, MEMBERS_UNPAGED_WITHOUT_PAGE) ? 2 : 1),
    async observe(h) {
      const crew = (await teamNamed(h, 'tco', 'crew'))!;
      return (await h.call<unknown[]>('GET', `teams/${crew.id}/members?limit=1`)).json.length;
    },
  },
  {
    id: 'team lists send X-Total-Count; a Link header only on 1.26',
    cite: 'team.go Gitea v1.25.4 l.72, l.409, l.579 (SetTotalCountHeader only); main l.73-74, l.414-415, l.586-587 (SetLinkHeader too)',
    expected: (f) => ({ total: [true, true, true], link: [on(f, TEAM_LISTS_LINK), on(f, TEAM_LISTS_LINK)] }),
    async observe(h) {
      const crew = (await teamNamed(h, 'tco', 'crew'))!;
      const teams = await h.call('GET', 'orgs/tco/teams?limit=1&page=1');
      const members = await h.call('GET', `teams/${crew.id}/members?limit=1&page=1`);
      const repos = await h.call('GET', `teams/${crew.id}/repos?limit=1&page=1`);
      return { total: [teams, members, repos].map((r) => r.headers.has('x-total-count')), link: [teams, members].map((r) => r.headers.has('link')) };
    },
  },
  {
    id: 'PUT /teams/{id}/repos/{org}/{repo} ignores {org}: the repository is looked up in the team’s own organisation',
    cite: "team.go getRepositoryByParams Gitea v1.21.11 l.640-651, v1.24.7 l.633-, main l.641- (GetRepositoryByName(ctx.Org.Team.OrgID, reponame))",
    expected: () => ({ statuses: [204, 404], repos: ['tco/app', 'tco/lib'] }),
    async observe(h) {
      const crew = (await teamNamed(h, 'tco', 'crew'))!;
      const viaOther = await h.call('PUT', `teams/${crew.id}/repos/other/lib`);
      const onlyThere = await h.call('PUT', `teams/${crew.id}/repos/other/only-here`);
      const repos = (await h.call<{ full_name: string }[]>('GET', `teams/${crew.id}/repos`)).json.map((r) => r.full_name).sort();
      return { statuses: [viaOther.status, onlyThere.status], repos };
    },
  },
  {
    id: 'DELETE of a repository from an includes_all_repositories team: 204 and nothing removed',
    cite: 'services/repository/delete.go RemoveRepositoryFromTeam Gitea v1.21.11 l.403-410; services/repository/repo_team.go v1.25.4 l.148-157 (IncludesAllRepositories → nil)',
    expected: () => ({ status: 204, repos: ['tco/app', 'tco/lib'] }),
    async observe(h) {
      const t = (await newTeam(h, { permission: 'read', units: ['repo.code'], includes_all_repositories: true })).json;
      const r = await h.call('DELETE', `teams/${t.id}/repos/tco/app`);
      return { status: r.status, repos: (await h.call<{ full_name: string }[]>('GET', `teams/${t.id}/repos`)).json.map((x) => x.full_name).sort() };
    },
  },
  {
    id: 'the team list answers organization null; GET /teams/{id} fills it',
    cite: 'team.go ListTeams Gitea v1.21.11 l.65 (ToTeams(…, false)), GetTeam l.134 (ToTeam(…, true))',
    expected: () => [null, 'tco'],
    async observe(h) {
      const crew = (await teamNamed(h, 'tco', 'crew'))!;
      const one = await h.call<TeamAnswer>('GET', `teams/${crew.id}`);
      return [crew.organization, one.json.organization?.username ?? one.json.organization?.name];
    },
  },
];


checkFacts('%s: teams conform to the source', SEED, FACTS, { reset: () => (seq = 0) });
