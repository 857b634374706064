import type { OrgConfig } from '../../config/types.js';
import type { GiteaClient } from '../../gitea/client.js';
import { apiPath } from '../../gitea/path.js';
import { normalizeFields, shapeOfFields } from '../fields.js';
import type { CurrentObject, DesiredObject, KindTypes, Problem, Reading } from '../../model/index.js';
import { fields, nameSet } from './fields.js';

/** The fields a team's own answer carries (modules/structs/org_team.go Team); members and repositories are lists of their own. */
const answered = fields.filter((f) => f.name !== 'members' && f.name !== 'repositories');

/** A team as answered: its id is what every other team route takes. */
export const shape = shapeOfFields(answered, { id: 'id', name: 'string' });

/** A team as the server answers it (its shape checked). */
export type ServerTeam = Record<string, unknown> & { id: number; name: string };

/** What the planner learnt for the guards and checks (see plan.ts). */
export interface TeamFacts {
  /** The token's own user, lower-cased, where a change to the Owners team's members could remove it; '' where not asked. */
  self: string;
  /** Declared names that a server team has in another case (team names are case-insensitive): declared → on the server. */
  otherCase: Map<string, string>;
  /** At plan time, per declared team: the members and repositories it adds that do not exist (references.ts). */
  missing: Map<string, Problem[]>;
}

/** What the team kind keeps for one run: the facts its guards judge with (absent: not learnt, and the guards refuse). */
export interface TeamRun {
  facts?: TeamFacts;
}

/** The teams section of an organisation's config. */
export type TeamSection = Pick<OrgConfig, 'teams'>;

/** What the team kind is typed by: its organisation's teams section, a team as answered, the facts prepare learns, its state per run. */
export type TeamTypes = KindTypes<TeamSection, ServerTeam, TeamFacts, TeamRun>;

/** The Owners team: the organisation's owners. Gitea knows it by this name alone (models/organization/team.go IsOwnerTeam). */
export const OWNERS = 'Owners';
export const isOwners = (team: Pick<CurrentObject, 'key' | 'fields'>): boolean => team.key === OWNERS || team.fields.permission === 'owner';

function fromServer(r: ServerTeam): CurrentObject {
  return { key: String(r.name), id: Number(r.id), fields: normalizeFields(answered, r, false) };
}

const lc = (s: string) => s.toLowerCase();

/** Which lists of each team to read: those the config declares (by the team's name or a former one), or all for export. */
function wantedLists(desired: DesiredObject[] | undefined, everything: boolean): (team: CurrentObject) => { members: boolean; repositories: boolean } {
  const byName = new Map<string, DesiredObject>();
  for (const d of desired ?? []) for (const name of [d.key, ...(d.previously ?? [])]) byName.set(lc(name), d);
  return (team) => {
    if (everything) return { members: true, repositories: team.fields.includes_all_repositories !== true };
    const d = byName.get(lc(team.key));
    return { members: d !== undefined && 'members' in d.fields, repositories: d !== undefined && 'repositories' in d.fields };
  };
}

/** A team's members and repositories, the lists the config (or an export) asks for: one paged read each. */
async function readLists(client: GiteaClient, org: string, team: CurrentObject, wants: { members: boolean; repositories: boolean }): Promise<void> {
  const [members, repos] = await Promise.all([
    wants.members ? client.list<{ login: string }>(apiPath('teams', Number(team.id), 'members'), { object: `members of team ${team.key} of ${org}`, shape: { login: 'string' } }) : undefined,
    wants.repositories ? client.list<{ name: string }>(apiPath('teams', Number(team.id), 'repos'), { object: `repositories of team ${team.key} of ${org}`, shape: { name: 'string' } }) : undefined,
  ]);
  if (members) team.fields.members = nameSet(members.map((u) => u.login));
  if (repos) team.fields.repositories = nameSet(repos.map((r) => r.name));
}

/** Reading teams: one list per organisation, then the member and repository lists of the teams the config declares them for. */
export const reading = {
  fields,
  shape,
  // Read only for the teams the config gives them (apply re-reads them for the changes that touch them);
  // their changes are made element by element from what the server has then, so a stale list cannot be overwritten.
  guardedByServer: ['members', 'repositories'],

  async read({ scope, ctx, desired }) {
    const raw = await ctx.client.list<ServerTeam>(apiPath('orgs', scope.name, 'teams'), { object: `teams of ${scope.name}`, shape });
    const teams = raw.map(fromServer);
    const wants = wantedLists(desired, ctx.options.readEverything === true);
    await Promise.all(teams.map((t) => readLists(ctx.client, scope.name, t, wants(t))));
    return teams;
  },

  fromServer,
} satisfies Reading<TeamTypes>;
