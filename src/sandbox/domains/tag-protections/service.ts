/** Creating and editing tag protections (`routers/api/v1/repo/tag.go`, Gitea v1.23.8), for the routes and the seed loader. */
import { teamByName } from '../teams/records.js';
import { nowIso, type RepoRecord, type SandboxState } from '../../core/state.js';
import { failure, isFailure, type Failure } from '../../core/failure.js';
import { type TagProtectionRecord, tagProtectionsOfRepo } from './records.js';

type Form = Record<string, unknown>;

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? (v as string[]) : undefined);

/** `user_model.GetUserIDsByNames(…, false)`: individual users only, the first unknown name a 422. */
function resolveUsers(state: SandboxState, names: string[]): number[] | Failure {
  const ids: number[] = [];
  for (const name of names) {
    const user = state.userByName(name);
    if (!user) return failure(422, `user does not exist [uid: 0, name: ${name}]`);
    ids.push(user.id);
  }
  return ids;
}

/** `organization.GetTeamIDsByNames(…, false)` in the owning organisation; nothing on a user's repository (the list is ignored there). */
function resolveTeams(state: SandboxState, repo: RepoRecord, names: string[]): number[] | Failure {
  const owner = state.repoOwner(repo);
  if (owner.kind !== 'org') return [];
  const ids: number[] = [];
  for (const name of names) {
    const team = teamByName(state, owner.id, name);
    if (!team) return failure(422, `team does not exist [org_id ${owner.id}, team_id 0, name: ${name}]`);
    ids.push(team.id);
  }
  return ids;
}

/** `CreateTagProtection` after binding (l.412–480). Shared with the seed loader. */
export function createTagProtection(state: SandboxState, repo: RepoRecord, form: Form): TagProtectionRecord | Failure {
  const namePattern = String(form.name_pattern ?? '').trim();
  if (namePattern === '') return failure(400, 'name_pattern are empty');
  const userNames = strings(form.whitelist_usernames) ?? [];
  const teamNames = strings(form.whitelist_teams) ?? [];
  if (userNames.length === 0 && teamNames.length === 0) return failure(400, 'both whitelist_usernames and whitelist_teams are empty');
  // GetProtectedTagByNamePattern: an exact match of the trimmed pattern.
  if (tagProtectionsOfRepo(state, repo.id).some((p) => p.namePattern === namePattern)) return failure(403, 'Tag protection already exist');
  const userIds = resolveUsers(state, userNames);
  if (isFailure(userIds)) return userIds;
  const teamIds = resolveTeams(state, repo, teamNames);
  if (isFailure(teamIds)) return teamIds;
  const now = nowIso();
  const pt: TagProtectionRecord = { id: state.nextId('tagProtection'), repoId: repo.id, namePattern, userIds, teamIds, createdAt: now, updatedAt: now };
  state.data.tagProtections.push(pt);
  return pt;
}

/**
 * `EditTagProtection` after binding and the 404 check (l.537–575): name_pattern is taken as sent (not trimmed,
 * not checked for copies), each list only when present ([] empties it), teams before users; a 422 leaves it untouched.
 */
export function editTagProtection(state: SandboxState, repo: RepoRecord, pt: TagProtectionRecord, form: Form): TagProtectionRecord | Failure {
  const teamNames = strings(form.whitelist_teams);
  const userNames = strings(form.whitelist_usernames);
  const teamIds = teamNames ? resolveTeams(state, repo, teamNames) : undefined;
  if (isFailure(teamIds)) return teamIds;
  const userIds = userNames ? resolveUsers(state, userNames) : undefined;
  if (isFailure(userIds)) return userIds;
  if (typeof form.name_pattern === 'string') pt.namePattern = form.name_pattern;
  if (teamIds) pt.teamIds = teamIds;
  if (userIds) pt.userIds = userIds;
  pt.updatedAt = nowIso();
  return pt;
}
