import type { TeamConfig } from '../../config/types.js';
import { normalizeFields } from '../fields.js';
import { describeServer, serverHas, type Availability, type CurrentObject, type DesiredObject, type Planning, type Problem, type Intent, type Reading, type Safety, type ServerInfo, type Writing } from '../../model/index.js';
import { fields, nameSet } from './fields.js';
import { isOwners, OWNERS, type TeamFacts, type TeamTypes } from './read.js';
import { adminByUnitsProblem, declaredUnits, isAdminLevel, noUnitsProblem } from './units.js';
import { missingReferences } from './references.js';

/**
 * Releases whose team names may have 30 characters at most: CreateTeamOption/EditTeamOption.Name
 * `MaxSize(30)` in Gitea v1.21.11 and Forgejo v7.0.16 (modules/structs/org_team.go l.27, l.43); 255 from
 * Gitea 1.22 (#31410, backport #31421) and Forgejo 8 (v8.0.0 org_team.go l.27, l.43 `MaxSize(255)`).
 */
const NAME_MAX_30: Availability = { gitea: { until: '1.21' }, forgejo: { until: '7' } };

/** `AlphaDashDot` (gitea.com/go-chi/binding): ASCII letters, digits, "-", "_" and ".". */
const TEAM_NAME = /^[A-Za-z0-9_.-]+$/;

const lc = (s: string) => s.toLowerCase();

/** A team as declared: units folded into units_map, which an admin team does not have. */
function declared(name: string, team: TeamConfig, path: string[], server: ServerInfo | undefined): { object: DesiredObject; problems: Problem[] } {
  const { previously, units, ...rest } = team;
  const own = normalizeFields(fields, rest, true);
  const problems: Problem[] = [];
  delete own.units_map;
  if (team.permission === 'admin') {
    for (const k of ['units', 'units_map'] as const)
      if (team[k] !== undefined) problems.push({ path: [...path, k], message: `an admin team has every unit at admin (the server sets them): remove ${k}, or give the team permission read or write` });
  } else {
    const units_map = declaredUnits(team.permission, units, team.units_map);
    if (units_map) own.units_map = units_map;
    const field = team.units_map !== undefined ? 'units_map' : 'units';
    const none = units_map ? (noUnitsProblem(field, units_map, server) ?? adminByUnitsProblem(field, units_map, server)) : undefined;
    if (none) problems.push({ path: [...path, field], message: none });
  }
  return { object: { key: name, fields: own, ...(previously ? { previously } : {}), path }, problems };
}

/** Fields the server ignores on the Owners team (EditTeam: permission and includes_all only `if !team.IsOwnerTeam()`, can_create_org_repo forced true). */
function ownersProblems(d: DesiredObject): Problem[] {
  const f = d.fields;
  const ignored: [boolean, string, string][] = [
    ['permission' in f, 'permission', 'its permission is owner'],
    ['units_map' in f, 'units_map', 'it has every unit'],
    [f.includes_all_repositories === false, 'includes_all_repositories', 'it always has every repository'],
    [f.can_create_org_repo === false, 'can_create_org_repo', 'its members may always create repositories'],
    ['repositories' in f, 'repositories', 'it always has every repository'],
  ];
  return ignored.filter(([set]) => set).map(([, key, why]) => ({ path: [...d.path, key], message: `the server ignores ${key} for the Owners team (${why}): remove it` }));
}

/** What a team to create (or a new name) must be. */
function newNameProblems(d: DesiredObject, facts: TeamFacts | undefined, req: { ctx: { server?: Parameters<typeof serverHas>[0] } }): Problem[] {
  const problems: Problem[] = [];
  if (!TEAM_NAME.test(d.key)) problems.push({ path: d.path, message: `team name "${d.key}" may hold only letters, digits, "-", "_" and "." (the server refuses it)` });
  const server = req.ctx.server;
  if (server && d.key.length > 30 && serverHas(server, NAME_MAX_30)) problems.push({ path: d.path, message: `team name "${d.key}" is longer than the 30 characters ${describeServer(server)} allows (Gitea 1.22 and Forgejo 8 allow 255)` });
  const other = facts?.otherCase.get(d.key);
  if (other) problems.push({ path: d.path, message: `the server has a team "${other}": team names are case-insensitive, so write it as the server does (or rename it with previously: [${other}])` });
  return problems;
}

export const planning = {
  async desired({ entry, scope, ctx }) {
    if (!entry?.teams) return undefined;
    const objects: DesiredObject[] = [];
    const problems: Problem[] = [];
    for (const [name, team] of Object.entries(entry.teams)) {
      const one = declared(name, team, ['orgs', scope.name, 'teams', name], ctx.server);
      objects.push(one.object);
      problems.push(...one.problems);
    }
    return { objects, problems };
  },

  check(req) {
    const { desired: d, current, prepared } = req;
    const f = d.fields;
    const problems: Problem[] = [];
    if (!current || current.key !== d.key) problems.push(...newNameProblems(d, prepared, req));
    if (!current && !isAdminLevel(f.permission) && f.units_map === undefined)
      problems.push({ path: d.path, message: `team "${d.key}" does not exist yet: give it units or units_map (or permission: admin) to create it` });
    if (f.includes_all_repositories === true && 'repositories' in f)
      problems.push({ path: [...d.path, 'repositories'], message: 'a team with includes_all_repositories has every repository of the organisation: remove repositories, or includes_all_repositories' });
    if (d.key === OWNERS || (current && isOwners(current))) problems.push(...ownersProblems(d));
    problems.push(...(prepared.missing.get(d.key) ?? []));
    return problems;
  },

  keep({ current }) {
    return isOwners(current) ? 'the Owners team is never deleted: its members are the organisation’s owners' : undefined;
  },
} satisfies Planning<TeamTypes>;

/** Below admin, only "admin or not" of the team's own permission is compared (see units.ts). */
export const comparing = {
  compare(field) {
    return field === 'permission' ? (want: unknown, have: unknown) => isAdminLevel(want) === isAdminLevel(have) : undefined;
  },
} satisfies Pick<Reading<TeamTypes>, 'compare'>;

/** Whether a change of the Owners team's members can remove the token's own user: then who it is must be known. */
function ownersLoseMembers(desired: DesiredObject[], current: CurrentObject[]): boolean {
  const owners = current.find(isOwners);
  const want = desired.find((d) => d.key === owners?.key || (d.previously ?? []).includes(owners?.key ?? ''));
  if (!owners || !want || !('members' in want.fields)) return false;
  const keep = new Set(nameSet(want.fields.members));
  return nameSet(owners.fields.members).some((m) => !keep.has(m));
}

export const preparing = {
  /** The facts check and the guards judge with, at plan time and again at apply. */
  async prepare(req) {
    const { desired, current, ctx, run } = req;
    const onServer = new Map(current.map((c) => [lc(c.key), c.key]));
    const otherCase = new Map<string, string>();
    for (const d of desired) {
      const other = onServer.get(lc(d.key));
      if (other !== undefined && other !== d.key) otherCase.set(d.key, other);
    }
    const me = ownersLoseMembers(desired, current) ? await ctx.cachedGet<{ login?: string } | undefined>('user', { object: "the token's own user", shape: { login: 'string' } }) : undefined;
    run.facts = { self: lc(String(me?.login ?? '')), otherCase, missing: await missingReferences(req) };
    for (const d of desired) {
      // A former name in another case renames nothing (the match is by name): it would create a second team.
      const wrong = (d.previously ?? []).flatMap((old) => (onServer.has(lc(old)) && onServer.get(lc(old)) !== old && !current.some((c) => c.key === d.key) ? [[old, onServer.get(lc(old))] as const] : []));
      const problems = wrong.map(([old, have]) => ({ path: [...d.path, 'previously'], message: `previously: "${old}" is the server's team "${have}" in another case: team names are case-insensitive, so write it as the server does (previously: [${have}])` }));
      if (problems.length) run.facts.missing.set(d.key, [...(run.facts.missing.get(d.key) ?? []), ...problems]);
    }
    return run.facts;
  },
} satisfies Pick<Writing<TeamTypes>, 'prepare'>;

/** The members a change leaves the team with, or undefined when it does not change them. */
const membersAfter = (intent: Intent): string[] | undefined => ('members' in intent.fields ? nameSet(intent.fields.members) : undefined);

export const safety = {
  /**
   * What the server lets through and must never happen: the Owners team deleted (DeleteTeam has no owner
   * check in any release read), renamed (it is the Owners team by its name only), left without members,
   * or without the token's own user (the token would lose the organisation).
   */
  guard({ change, intent, current, run }) {
    if (!current || !isOwners(current)) return undefined;
    if (change.action === 'delete') return 'the Owners team is never deleted: without it the organisation has no owners (the server does not refuse it)';
    if (change.action === 'rename') return 'the Owners team is never renamed: the server knows it by the name "Owners" alone, and a renamed one is an ordinary team';
    const after = membersAfter(intent);
    if (!after) return undefined;
    if (after.length === 0) return "the Owners team's last member is never removed: the organisation would have no owner";
    const removed = nameSet(current.fields.members).filter((m) => !after.includes(m));
    if (!removed.length) return undefined;
    if (!run.facts?.self) return "the token's own user is not known, so no member is removed from the Owners team (forgeform cannot tell whether it would lock itself out)";
    if (removed.includes(run.facts.self)) return "the token's own user is never removed from the Owners team: forgeform would lose the organisation";
    return undefined;
  },
} satisfies Safety<TeamTypes>;
