// The users and repositories a team is given, checked when the plan is made: Gitea answers the PUT of a
// member who does not exist 404 (v1.25.4 routers/api/v1/org/team.go AddTeamMember l.455–494:
// `user.GetContextUserByPathParam`, 404 on no user) and of a repository the organisation does not have 404
// (AddTeamRepository l.647–: getRepositoryByParams l.633–645, repo_model.GetRepositoryByName(team's org,
// name) → APIErrorNotFound), after the team's own edits: apply would stop half way, on what the plan could know.
// Only names added are looked up; the plan's own creates count as existing.
import { isApiError } from '../../gitea/errors.js';
import { apiPath } from '../../gitea/path.js';
import { SERVER_SCOPE, type CurrentObject, type DesiredObject, type PrepareRequest, type Problem } from '../../model/index.js';
import { repoKind } from '../repo/index.js';
import { lookUpUsers } from '../user/accounts.js';
import { nameSet } from './fields.js';
import type { TeamTypes } from './read.js';

const lc = (s: string) => s.toLowerCase();

/** Per declared team (its key), the problems of the members and repositories it adds. */
export type MissingReferences = Map<string, Problem[]>;

/** The names a declared team has that its server team (by name or a former one) does not, of one list. */
function added(d: DesiredObject, current: CurrentObject[], list: 'members' | 'repositories'): string[] {
  if (!(list in d.fields)) return [];
  const names = new Set([d.key, ...(d.previously ?? [])].map(lc));
  const team = current.find((c) => names.has(lc(c.key)));
  const have = new Set(nameSet(team?.fields[list]).map(lc));
  return nameSet(d.fields[list]).filter((n) => !have.has(lc(n)));
}

/** The place of a name in the team's list as written (its index), else the list. */
function placeOf(req: PrepareRequest<TeamTypes>, d: DesiredObject, list: 'members' | 'repositories', name: string): (string | number)[] {
  const written = req.phase === 'plan' ? req.config.orgs?.[req.scope.name]?.teams?.[d.key]?.[list] : undefined;
  const at = (written ?? []).findIndex((n) => lc(String(n)) === lc(name));
  return at < 0 ? [...d.path, list] : [...d.path, list, at];
}

/** Whether the organisation has a repository of this name: from the list a glob read, else one cached GET. */
async function repoMissing(req: PrepareRequest<TeamTypes>, name: string): Promise<boolean> {
  const { ctx, scope } = req;
  if (ctx.madeBy(repoKind, SERVER_SCOPE, `${scope.name}/${name}`)) return false;
  const listed = req.phase === 'plan' ? req.ctx.listedRepos.get(lc(scope.name)) : undefined;
  if (listed) return !listed.has(lc(name));
  try {
    await ctx.cachedGet(apiPath('repos', scope.name, name), { object: `repository ${scope.name}/${name}` });
    return false;
  } catch (e) {
    if (isApiError(e, 404)) return true;
    throw e;
  }
}

/** At plan time: the members and repositories added to teams that do not exist (a saved plan asks nothing: the server refuses, and nothing is written then). */
export async function missingReferences(req: PrepareRequest<TeamTypes>): Promise<MissingReferences> {
  const out: MissingReferences = new Map();
  if (req.phase !== 'plan') return out;
  const { desired, current, scope } = req;
  const members = new Set(desired.flatMap((d) => added(d, current, 'members')));
  const repos = [...new Set(desired.flatMap((d) => added(d, current, 'repositories')).map(lc))];
  const [users, gone] = await Promise.all([
    lookUpUsers(req, members),
    Promise.all(repos.map(async (r) => ((await repoMissing(req, r)) ? [r] : []))).then((r) => new Set(r.flat())),
  ]);
  for (const d of desired) {
    const problems: Problem[] = [];
    for (const m of added(d, current, 'members'))
      if (users.get(lc(m)) === 'missing') problems.push({ path: placeOf(req, d, 'members', m), message: `members: user "${m}" does not exist on the server, and this configuration does not create it (Gitea would refuse to add it)` });
    for (const r of added(d, current, 'repositories'))
      if (gone.has(lc(r))) problems.push({ path: placeOf(req, d, 'repositories', r), message: `repositories: repository "${r}" does not exist in organisation ${scope.name}, and this configuration does not create it (Gitea would refuse to add it)` });
    if (problems.length) out.set(d.key, problems);
  }
  return out;
}
