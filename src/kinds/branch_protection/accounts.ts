// The users and teams a branch protection names (push, merge, approvals, bypass, deletion and
// force-push lists), and those a tag protection names (its allowlists: src/kinds/tag_protection).
// Gitea refuses the whole write with a 422 when one of them does not exist, so the plan checks them
// first: one team list per organisation, and the user list when the plan reads it anyway (the config
// manages users), else one lookup per distinct name.
import { isApiError } from '../../gitea/errors.js';
import { apiPath } from '../../gitea/path.js';
import { asSet } from '../fields.js';
import type { CurrentObject, DesiredObject, OpsRequest, PrepareRequest, Problem, RequestScope, ScopeContext } from '../../model/index.js';
import { collaboratorKind } from '../collaborator/index.js';
import { writesCodeThroughTeam } from '../collaborator/teams.js';
import { teamKind } from '../team/index.js';
import { lookUpUsers } from '../user/accounts.js';
import type { AccountsRun, AccountTypes, KnownAccounts } from './types.js';


export function runState(): AccountsRun {
  return { teams: new Map(), declared: new WeakMap(), accounts: new Map(), collaboratorChanges: new Map() };
}


/**
 * Lists whose users Gitea keeps only when they can write the repository's code, dropping the others
 * without an error: Gitea v1.25.4 models/git/protected_branch.go l.366–383 calls updateUserWhitelist
 * (l.486–511: `if !perm.CanWrite(unit.TypeCode) { continue // Drop invalid user ID }`, the permission
 * being access_model.GetUserRepoPermission) for the push, force-push and merge lists. A dropped name
 * would be planned again on every run, so the plan refuses it instead.
 */
export const WRITE_LISTS: AccessNeeds = { push_whitelist_usernames: 'write', force_push_allowlist_usernames: 'write', merge_whitelist_usernames: 'write' };

/** User lists whose added names need some access to the repository (field → the access), else the server drops them. */
export type AccessNeeds = Readonly<Record<string, 'read' | 'write'>>;

/**
 * What `GET /repos/{owner}/{repo}/collaborators/{user}/permission` answers: the same
 * GetUserRepoPermission, as AccessMode.ToString() (routers/api/v1/repo/collaborators.go l.294–300).
 */
const ENOUGH: Record<'read' | 'write', ReadonlySet<string>> = { write: new Set(['write', 'admin', 'owner']), read: new Set(['read', 'write', 'admin', 'owner']) };

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
function teamsOf(ctx: ScopeContext, byOrg: AccountsRun['teams'], org: string): Promise<Set<string>> {
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
export async function lookUpAccounts(req: PrepareRequest<AccountTypes>, needs: AccessNeeds = WRITE_LISTS): Promise<KnownAccounts> {
  const { scope, desired, current, ctx, run } = req;
  const teamNames = namesIn(desired, isTeamList);
  const created = new Set<string>();
  const [users, teams] = await Promise.all([
    lookUpUsers(req, namesIn(desired, isUserList), created),
    // Team lists on a user's repository are an error of their own (check); no lookup there.
    teamNames.size && scope.repo?.ownerIsOrg && !scope.pendingCreate ? teamsOf(ctx, run.teams, scope.owner) : Promise.resolve(undefined),
  ]);
  const collaborators = collaboratorsPlanned(req, namesIn(desired, isUserList));
  const noWrite = new Map<string, string>();
  for (const need of ['write', 'read'] as const) {
    const lists = Object.keys(needs).filter((f) => needs[f] === need);
    for (const [name, why] of await withoutAccess(scope, need, added(desired, current, lists), users, created, ctx, collaborators)) noWrite.set(`${need} ${name}`, why);
  }
  const known = { users, ...(teams ? { teams } : {}), ...(noWrite.size ? { noWrite } : {}) };
  run.accounts.set(scope.name, known);
  return known;
}

/**
 * The collaborators this plan adds or changes among the users the objects name (lower-cased name → its
 * permission once applied), where the plan manages the repository's collaborators; their changes are
 * what the objects wait for (waitForCollaborators). Nothing is read: a repository whose collaborators
 * the plan does not manage has none here.
 */
function collaboratorsPlanned(req: PrepareRequest<AccountTypes>, names: Set<string>): Map<string, string> {
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

/**
 * The changes this object waits for: the adds and changes of the collaborators its user lists name (Gitea
 * drops from a list a user without the access it needs, so the access comes first). Its kind lists the
 * collaborator kind in `after`.
 */
export function waitForCollaborators(req: OpsRequest<AccountTypes>): string[] {
  if (req.action === 'delete') return [];
  const changes = req.run.collaboratorChanges.get(req.scope.name);
  if (!changes?.size) return [];
  const names = Object.entries(req.desired.fields).flatMap(([field, value]) => (isUserList(field) && Array.isArray(value) ? value.map((v) => lc(String(v))) : []));
  return [...new Set(names.flatMap((n) => changes.get(n) ?? []))];
}

/** The names the lists add to the objects as the server has them (those already listed were kept: nothing to ask). */
function added(desired: DesiredObject[], current: CurrentObject[], lists: string[]): Set<string> {
  const out = new Set<string>();
  for (const d of desired) {
    const cur = current.find((c) => c.key === d.key);
    for (const field of lists) {
      const want = d.fields[field];
      if (!Array.isArray(want)) continue;
      const have = new Set(asSet(cur?.fields[field]).map(lc));
      for (const v of want) if (!have.has(lc(String(v)))) out.add(String(v));
    }
  }
  return out;
}

/**
 * The added names Gitea would drop for want of access (write, or read): a user this plan creates (it
 * has none yet, unless it owns the repository), and an existing user whose permission, one cheap GET
 * per name and repository, is below it (unless this plan gives it enough as a collaborator). A repository
 * the plan creates is not asked.
 */
async function withoutAccess(
  scope: RequestScope,
  need: 'read' | 'write',
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
      // A collaborator this plan gives enough access has it before the object is written (it waits for it).
      if (ENOUGH[need].has(collaborators.get(lc(name)) ?? '')) return;
      if (created.has(lc(name))) {
        // Owning the repository (a user's, created with it) is the one access a new account has: names are unique across users and organisations.
        if (lc(owner) !== lc(name))
          out.set(lc(name), `is created by this plan and has no ${need} access to ${scope.name} yet`);
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
      if (ENOUGH[need].has(permission)) return;
      // The answer leaves out what a team's units give (Gitea 1.24+ teams below admin): Gitea's write check counts them.
      if (need === 'write' && (await writesCodeThroughTeam(ctx, scope, name))) return;
      out.set(lc(name), `has no ${need} access to ${scope.name} (its permission is ${permission})`);
    }),
  );
  return out;
}

/** A problem at each list entry that names an account the server does not have. */
export function accountProblems(desired: DesiredObject, known: KnownAccounts, scope: RequestScope, declared: Record<string, unknown> = desired.fields, needs: AccessNeeds = WRITE_LISTS): Problem[] {
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
        const need = needs[field];
        const reason = need ? known.noWrite?.get(`${need} ${lc(name)}`) : undefined;
        if (reason) problems.push({ path, message: `${field}: user "${name}" ${reason}: Gitea ${need === 'write' ? 'keeps only users who can write the code in this list and drops it silently' : 'answers only the users who can read the repository in this list'}, so every plan would show this change again` });
      } else if (isTeamList(field) && known.teams && !known.teams.has(lc(name)))
        problems.push({ path, message: `${field}: team "${name}" does not exist in organisation ${scope.owner} (Gitea would refuse the whole rule)` });
    });
  }
  return problems;
}
