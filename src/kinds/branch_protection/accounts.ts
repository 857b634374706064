// The users and teams a branch protection names (push, merge, approvals, bypass, deletion and
// force-push lists), and those a tag protection names (its allowlists: src/kinds/tag_protection).
// Gitea refuses the whole write with a 422 when one of them does not exist, so the plan checks them
// first: one team list per organisation, and the user list when the plan reads it anyway (the config
// manages users), else one lookup per distinct name.
import { asSet, inEither, inForgejo, inGitea } from '../fields.js';
import { serverHas, type CurrentObject, type DesiredObject, type OpsRequest, type PrepareRequest, type Problem, type RequestScope, type ScopeContext } from '../../model/index.js';
import { projectedAccess, teamListed, teamsOnRepo, type Access, type Wants } from '../collaborator/access.js';
import { teamKind } from '../team/index.js';
import { lookUpUsers } from '../user/accounts.js';
import type { AccountsRun, AccountTypes, KnownAccounts } from './types.js';


export function runState(): AccountsRun {
  return { teams: new Map(), declared: new WeakMap(), accounts: new Map(), grants: new Map() };
}

/** What a list needs of a user it names, else Gitea drops the name: write access to the code, or to be one of the repository's readers (Access.reader). */
export type Need = 'write' | 'reader';

/** User lists (field → what each name needs of the repository, after the plan), else the server drops the name without an error. */
export type AccessNeeds = Readonly<Record<string, readonly Need[]>>;

/**
 * Whether the release answers a rule's user lists through its readers (ToBranchProtection keeps only the
 * listed users found in GetRepoReaders: Gitea v1.22.6 services/convert/convert.go l.130–133, v1.23.8 l.132–135,
 * GetUsersWithUnitAccess(read, pulls) in v1.25.4 l.141–150; Forgejo v7.0.16 l.130–133). Gitea 1.21 answers
 * the saved lists as they are (v1.21.11 l.109–112: GetUserNamesByIDs).
 */
const READ_BACK_BY_READERS = inEither(inGitea('1.22'), inForgejo());

/**
 * What each user list needs on a release. The push, force-push and merge lists keep only users who can write
 * the code: Gitea v1.25.4 models/git/protected_branch.go l.366–383 calls updateUserWhitelist (l.486–511:
 * `if !perm.CanWrite(unit.TypeCode) { continue // Drop invalid user ID }`, the permission being
 * access_model.GetUserRepoPermission); the approvals list keeps only readers: updateApprovalWhitelist
 * (l.463–484: GetUserIDsWithUnitAccess(read, pulls); IsRepoReader in v1.24.7 l.465–484, v1.21.11 l.376–395,
 * Forgejo v11.0.15 l.394). The bypass and deletion lists of Gitea's development builds are judged as the push list.
 */
export function branchNeeds(ctx: ScopeContext): AccessNeeds {
  const write: Need[] = serverHas(ctx.server, READ_BACK_BY_READERS) ? ['write', 'reader'] : ['write'];
  return {
    push_whitelist_usernames: write,
    force_push_allowlist_usernames: write,
    merge_whitelist_usernames: write,
    bypass_allowlist_usernames: write,
    deletion_allowlist_usernames: write,
    approvals_whitelist_username: ['reader'],
  };
}

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
 * so that a rule naming an account gone since the plan is refused before anything is written. The access
 * each added name will have once the plan is applied comes from the projected permission model
 * (src/kinds/collaborator/access.ts), for a repository or a user the plan creates as for existing ones.
 */
export async function lookUpAccounts(req: PrepareRequest<AccountTypes>, needs: AccessNeeds = branchNeeds(req.ctx)): Promise<KnownAccounts> {
  const { scope, desired, ctx, run } = req;
  const teamNames = namesIn(desired, isTeamList);
  const created = new Set<string>();
  const [users, teams] = await Promise.all([
    lookUpUsers(req, namesIn(desired, isUserList), created),
    // Team lists on a user's repository are an error of their own (check); no lookup there.
    teamNames.size && scope.repo?.ownerIsOrg ? teamsOf(ctx, run.teams, scope.owner) : Promise.resolve(undefined),
  ]);
  const grants = new Map<string, string[]>();
  const noAccess = await usersWithoutAccess(req, needs, users, created, grants);
  const teamsWithout = teams ? await teamsWithoutRepo(req, teams, grants) : new Map<string, string>();
  run.grants.set(scope.name, grants);
  const known: KnownAccounts = { users, ...(teams ? { teams } : {}), ...(noAccess.size ? { noAccess } : {}), ...(teamsWithout.size ? { teamsWithoutRepo: teamsWithout } : {}) };
  run.accounts.set(scope.name, known);
  return known;
}

/** What a list's need reads like in a message. */
const NEED_TEXT: Record<Need, string> = { write: 'write access', reader: 'explicit access' };

/**
 * The user names the lists add that Gitea would drop (field + lower-cased name → why), judged on the access
 * each will have after the plan; the changes that give it are recorded (grants) for the objects to wait for.
 */
async function usersWithoutAccess(req: PrepareRequest<AccountTypes>, needs: AccessNeeds, users: KnownAccounts['users'], created: Set<string>, grants: Map<string, string[]>): Promise<NonNullable<KnownAccounts['noAccess']>> {
  const { scope, desired, current } = req;
  const out: NonNullable<KnownAccounts['noAccess']> = new Map();
  // Each added name once, with what all the lists that add it need.
  const byName = new Map<string, { name: string; fields: string[]; wants: Wants }>();
  for (const field of Object.keys(needs))
    for (const name of added(desired, current, [field])) {
      if (users.get(lc(name)) !== 'exists') continue;
      const entry = byName.get(lc(name)) ?? { name, fields: [], wants: { write: false, reader: false } };
      entry.fields.push(field);
      for (const n of needs[field] ?? []) entry.wants[n === 'write' ? 'write' : 'reader'] = true;
      byName.set(lc(name), entry);
    }
  await Promise.all(
    [...byName.values()].map(async ({ name, fields, wants }) => {
      const got = await projectedAccess(req, name, !created.has(lc(name)), wants);
      grants.set(`user:${lc(name)}`, got.grants);
      for (const field of fields) {
        const missing = (needs[field] ?? []).find((n) => (n === 'write' ? !got.writesCode : !got.reader));
        if (missing) out.set(`${field} ${lc(name)}`, { need: missing, reason: lacking(scope, name, got, missing, created.has(lc(name))) });
      }
    }),
  );
  return out;
}

/** Why a user lacks what a list needs: the access needed, the level it will have, and how. */
function lacking(scope: RequestScope, name: string, got: Access, missing: Need, isNew: boolean): string {
  if (isNew && got.level === 'none') return `is created by this plan and has no ${NEED_TEXT[missing]} to ${scope.name} yet`;
  const how = got.how.length ? `, as ${got.how.join(' and ')}` : '';
  return `has no ${NEED_TEXT[missing]} to ${scope.name} (its permission is ${got.level}${how}${missing === 'reader' ? publicNote(scope, got) : ''})`;
}

/** Why a collaborator below write is no reader of a public repository (RecalculateUserAccess: v1.24.7 models/perm/access/access.go l.189–193, l.226–233). */
function publicNote(scope: RequestScope, got: Access): string {
  return scope.repo?.private === false && got.how.some((h) => h.endsWith('read collaborator')) ? '; on a public repository Gitea keeps no access row for a read collaborator' : '';
}

/**
 * The team names the lists add that will not have the repository after the plan (updateTeamWhitelist keeps
 * only teams with access to it: Gitea v1.25.4 models/git/protected_branch.go l.515–535, v1.21.11 l.426–445;
 * the tag protections' answer likewise: convert.ToTagProtection), and the changes that give the others it.
 */
async function teamsWithoutRepo(req: PrepareRequest<AccountTypes>, existing: Set<string>, grants: Map<string, string[]>): Promise<Map<string, string>> {
  const { scope, desired, current, ctx } = req;
  const out = new Map<string, string>();
  const fields = [...new Set(desired.flatMap((d) => Object.keys(d.fields).filter(isTeamList)))];
  const named = added(desired, current, fields);
  if (!named.size) return out;
  const onRepo = new Map((await teamsOnRepo(req)).map((t) => [lc(t.name), t]));
  for (const name of named) {
    if (!existing.has(lc(name))) continue;
    const team = onRepo.get(lc(name));
    if (team?.grant && team.hasRepo) grants.set(`team:${lc(name)}`, [team.grant]);
    if (team && teamListed(ctx, team)) continue;
    out.set(lc(name), team?.hasRepo ? `has ${scope.name} with no access to its code or pull requests` : `does not have ${scope.name}`);
  }
  return out;
}

/**
 * The changes this object waits for: those that give the users and teams its lists name their access to the
 * repository (a collaborator's PUT, a team's member or repository added), since Gitea drops from a list a
 * name without the access it needs. Its kind lists the collaborator and team kinds in `after`.
 */
export function waitForGrants(req: OpsRequest<AccountTypes>): string[] {
  if (req.action === 'delete') return [];
  const grants = req.run.grants.get(req.scope.name);
  if (!grants?.size) return [];
  const keys = Object.entries(req.desired.fields).flatMap(([field, value]) =>
    Array.isArray(value) ? value.map((v) => (isUserList(field) ? `user:${lc(String(v))}` : isTeamList(field) ? `team:${lc(String(v))}` : '')) : [],
  );
  return [...new Set(keys.flatMap((k) => grants.get(k) ?? []))];
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

/** Why a list drops a name without the access it needs. */
const DROPS: Record<Need, string> = {
  write: 'Gitea keeps only users who can write the code in this list and drops it silently',
  reader:
    "Gitea keeps (and answers) only the repository's explicit readers in this list (its collaborators, the members of its teams, its owner: not a site administrator nor a user who reads it only because it is public) and drops the others silently",
};

/** A problem at each list entry that names an account the server does not have, or one without the access the list needs after the plan. */
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
        const lacking = known.noAccess?.get(`${field} ${lc(name)}`);
        if (lacking) problems.push({ path, message: `${field}: user "${name}" ${lacking.reason}: ${DROPS[lacking.need]}, so every plan would show this change again` });
      } else if (isTeamList(field) && known.teams) {
        const without = known.teamsWithoutRepo?.get(lc(name));
        if (!known.teams.has(lc(name))) problems.push({ path, message: `${field}: team "${name}" does not exist in organisation ${scope.owner} (Gitea would refuse the whole rule)` });
        else if (without)
          problems.push({ path, message: `${field}: team "${name}" ${without} after this plan: Gitea keeps only teams with access to the repository in this list and drops the others silently, so every plan would show this change again (give the team the repository)` });
      }
    });
  }
  return problems;
}
