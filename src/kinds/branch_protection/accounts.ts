// The users and teams a branch protection names (push, merge, approvals, bypass, deletion and
// force-push lists). Gitea refuses the whole write with a 422 when one of them does not exist, so
// the plan checks them first: one team list per organisation, and the user list when the plan
// reads it anyway (the config manages users), else one lookup per distinct name.
import { isApiError } from '../../gitea/errors.js';
import { apiPath } from '../../gitea/path.js';
import { asSet } from '../fields.js';
import { type CurrentObject, type DesiredObject, type PrepareRequest, type Problem, type RequestScope, type ScopeContext } from '../../model/index.js';
import { collaboratorKind } from '../collaborator/index.js';
import { teamKind } from '../team/index.js';
import { lookUpUsers } from '../user/accounts.js';
import type { BranchProtectionRun, BranchProtectionTypes, KnownAccounts } from './types.js';


export function runState(): BranchProtectionRun {
  return { teams: new Map(), declared: new WeakMap(), accounts: new Map(), collaboratorChanges: new Map() };
}


/**
 * Lists whose users Gitea keeps only when they can write the repository's code, dropping the others
 * without an error: Gitea v1.25.4 models/git/protected_branch.go l.366–383 calls updateUserWhitelist
 * (l.486–511: `if !perm.CanWrite(unit.TypeCode) { continue // Drop invalid user ID }`, the permission
 * being access_model.GetUserRepoPermission) for the push, force-push and merge lists. A dropped name
 * would be planned again on every run, so the plan refuses it instead.
 */
const WRITE_LISTS = ['push_whitelist_usernames', 'force_push_allowlist_usernames', 'merge_whitelist_usernames'];
/**
 * What `GET /repos/{owner}/{repo}/collaborators/{user}/permission` answers: the same
 * GetUserRepoPermission, as AccessMode.ToString() (routers/api/v1/repo/collaborators.go l.294–300).
 */
const WRITERS: ReadonlySet<string> = new Set(['write', 'admin', 'owner']);

const isUserList = (field: string) => /_usernames?$/.test(field);
const isTeamList = (field: string) => field.endsWith('_teams');
const lc = (s: string) => s.toLowerCase();

function namesIn(desired: DesiredObject[], list: (field: string) => boolean): Set<string> {
  const out = new Set<string>();
  for (const d of desired)
    for (const [field, value] of Object.entries(d.fields)) if (list(field) && Array.isArray(value)) for (const v of value) out.add(String(v));
  return out;
}

/**
 * The teams of an organisation as this plan leaves them (those it creates or renames included, those it
 * deletes left out), from the team kind's one list of the organisation, shared with it.
 */
function teamsOf(ctx: ScopeContext, byOrg: BranchProtectionRun['teams'], org: string): Promise<Set<string>> {
  let p = byOrg.get(lc(org));
  if (!p) {
    p = ctx.projected(teamKind, { type: 'org', name: org }).then((teams) => new Set(teams.map((t) => lc(t.key))));
    byOrg.set(lc(org), p);
  }
  return p;
}

/**
 * The accounts the desired protections of one repository name, looked up: at plan time for check, and
 * again at apply (the desired objects then being what the saved plan's changes show) for the guard,
 * so that a rule naming an account gone since the plan is refused before anything is written.
 */
export async function lookUpAccounts(req: PrepareRequest<BranchProtectionTypes>): Promise<KnownAccounts> {
  const { scope, desired, current, ctx, run } = req;
  const teamNames = namesIn(desired, isTeamList);
  const created = new Set<string>();
  const [users, teams] = await Promise.all([
    lookUpUsers(req, namesIn(desired, isUserList), created),
    // Team lists on a user's repository are an error of their own (check); no lookup there.
    teamNames.size && scope.repo?.ownerIsOrg && !scope.pendingCreate ? teamsOf(ctx, run.teams, scope.owner) : Promise.resolve(undefined),
  ]);
  const collaborators = collaboratorsPlanned(req, namesIn(desired, isUserList));
  const noWrite = await withoutWriteAccess(scope, added(desired, current), users, created, ctx, collaborators);
  const known = { users, ...(teams ? { teams } : {}), ...(noWrite.size ? { noWrite } : {}) };
  run.accounts.set(scope.name, known);
  return known;
}

/**
 * The collaborators this plan adds or changes among the users the rules name (lower-cased name → its
 * permission once applied), where the plan manages the repository's collaborators; their changes are
 * what the rules wait for (dependsOn). Nothing is read: a repository whose collaborators the plan does
 * not manage has none here.
 */
function collaboratorsPlanned(req: PrepareRequest<BranchProtectionTypes>, names: Set<string>): Map<string, string> {
  const { scope, ctx, run } = req;
  const planned = new Map<string, string>();
  const changes = new Map<string, string>();
  const wanted = new Set([...names].map(lc));
  for (const c of ctx.planned(collaboratorKind, scope) ?? []) {
    if (!wanted.has(lc(c.key))) continue;
    planned.set(lc(c.key), String(c.fields.permission ?? ''));
    const by = c.madeBy ?? c.changedBy;
    if (by) changes.set(lc(c.key), by);
  }
  run.collaboratorChanges.set(scope.name, changes);
  return planned;
}

/** The names the write lists add to the rules as the server has them (those already listed were kept: nothing to ask). */
function added(desired: DesiredObject[], current: CurrentObject[]): Set<string> {
  const out = new Set<string>();
  for (const d of desired) {
    const cur = current.find((c) => c.key === d.key);
    for (const field of WRITE_LISTS) {
      const want = d.fields[field];
      if (!Array.isArray(want)) continue;
      const have = new Set(asSet(cur?.fields[field]).map(lc));
      for (const v of want) if (!have.has(lc(String(v)))) out.add(String(v));
    }
  }
  return out;
}

/**
 * The added names Gitea would drop for want of write access: a user this plan creates (it has none
 * yet, unless it owns the repository), and an existing user whose permission, one cheap GET per
 * name and repository, is below write. A repository the plan creates is not asked.
 */
async function withoutWriteAccess(
  scope: RequestScope,
  names: Set<string>,
  users: KnownAccounts['users'],
  created: Set<string>,
  ctx: ScopeContext,
  collaborators: Map<string, string>,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const { owner } = scope;
  await Promise.all(
    [...names].map(async (name) => {
      // A collaborator this plan gives write (or admin) has it before the rule is written (the rule waits for it).
      if (WRITERS.has(collaborators.get(lc(name)) ?? '')) return;
      if (created.has(lc(name))) {
        // Owning the repository (a user's, created with it) is the one access a new account has: names are unique across users and organisations.
        if (lc(owner) !== lc(name))
          out.set(lc(name), `is created by this plan and has no write access to ${scope.name} (make it a collaborator with write, or a member of a team with write)`);
        return;
      }
      if (users.get(lc(name)) !== 'exists' || scope.pendingCreate) return;
      const answer = await ctx
        .cachedGet<{ permission?: string } | undefined>(apiPath(...scope.segments, 'collaborators', name, 'permission'), { object: `${name}'s permission on ${scope.name}` })
        // 403: only administrators (of the site or the repository) may ask about others; nothing is known then.
        .catch((e: unknown) => {
          if (isApiError(e, 403)) return { permission: 'write' };
          throw e;
        });
      const permission = String(answer?.permission ?? 'none');
      if (!WRITERS.has(permission)) out.set(lc(name), `has no write access to ${scope.name} (its permission is ${permission})`);
    }),
  );
  return out;
}

/** A problem at each list entry that names an account the server does not have. */
export function accountProblems(desired: DesiredObject, known: KnownAccounts, scope: RequestScope, declared: Record<string, unknown> = desired.fields): Problem[] {
  const problems: Problem[] = [];
  for (const [field, value] of Object.entries(declared)) {
    if (!Array.isArray(value)) continue;
    value.forEach((v, i) => {
      const name = String(v);
      const path = [...desired.path, field, i];
      if (isUserList(field)) {
        const state = known.users.get(lc(name));
        if (state === 'missing') problems.push({ path, message: `${field}: user "${name}" does not exist on the server (Gitea would refuse the whole rule)` });
        if (state === 'renamed') problems.push({ path, message: `${field}: user "${name}" was renamed on the server: write the new name` });
        const reason = WRITE_LISTS.includes(field) ? known.noWrite?.get(lc(name)) : undefined;
        if (reason) problems.push({ path, message: `${field}: user "${name}" ${reason}: Gitea keeps only users who can write the code in this list and drops it silently, so every plan would show this change again` });
      } else if (isTeamList(field) && known.teams && !known.teams.has(lc(name)))
        problems.push({ path, message: `${field}: team "${name}" does not exist in organisation ${scope.owner} (Gitea would refuse the whole rule)` });
    });
  }
  return problems;
}
