/** Creating and editing branch protection rules (`UpdateProtectBranch` with its access filters), for the routes and the seed loader. */
import { isExplicitReader, repoAccessMode, type ReaderRules } from '../../core/permissions.js';
import type { Flavour } from '../../flavours/flavour.js';
import { readerRules, teamListsByUnits } from '../../flavours/releases.js';
import { teamByName, teamsWithAccess } from '../teams/records.js';
import { AccessMode, nowIso, type RepoRecord, type SandboxState } from '../../core/state.js';
import { type BranchProtectionRecord, protectionsOfRepo } from './records.js';
import { failure, isFailure, type Failure } from '../../core/failure.js';

/** User lists, in the order the handler resolves them, and the access they require. */
const USER_LISTS: { field: string; need: 'write' | 'read' }[] = [
  { field: 'push_whitelist_usernames', need: 'write' },
  { field: 'force_push_allowlist_usernames', need: 'write' },
  { field: 'merge_whitelist_usernames', need: 'write' },
  { field: 'approvals_whitelist_username', need: 'read' },
  { field: 'bypass_allowlist_usernames', need: 'write' },
  { field: 'deletion_allowlist_usernames', need: 'write' },
];

const TEAM_LISTS = ['push_whitelist_teams', 'force_push_allowlist_teams', 'merge_whitelist_teams', 'approvals_whitelist_teams', 'bypass_allowlist_teams', 'deletion_allowlist_teams'];

/** Flags copied as given, on create and (when present) on PATCH. */
const PLAIN_FLAGS = [
  'enable_merge_whitelist',
  'enable_status_check',
  'enable_approvals_whitelist',
  'block_on_rejected_reviews',
  'block_on_official_review_requests',
  'block_on_codeowner_reviews',
  'block_on_outdated_branch',
  'dismiss_stale_approvals',
  'ignore_stale_approvals',
  'require_signed_commits',
  'block_admin_merge_override',
  'enable_bypass_allowlist',
  'enable_deletion',
  'enable_deletion_allowlist',
  // Forgejo only: the binder of every other release drops it (flavours/releases.ts).
  'apply_to_admins',
];

type BpForm = Record<string, unknown>;

const bool = (v: unknown): boolean => v === true;
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? (v as string[]) : undefined);

/** Characters `gobwas/glob` treats as special: a rule containing one is a glob. */
export function isGlobRule(name: string): boolean {
  return /[*?\\[\]{}]/.test(name);
}

function resolveUsers(state: SandboxState, names: string[]): number[] | Failure {
  const ids: number[] = [];
  for (const name of names) {
    const owner = state.ownerByName(name);
    if (!owner) return failure(422, `user does not exist [uid: 0, name: ${name}]`);
    ids.push(owner.id);
  }
  return ids;
}

function resolveTeams(state: SandboxState, orgId: number, names: string[]): number[] | Failure {
  const ids: number[] = [];
  for (const name of names) {
    const team = teamByName(state, orgId, name);
    if (!team) return failure(422, `team does not exist [org_id ${orgId}, team_id 0, name: ${name}]`);
    ids.push(team.id);
  }
  return ids;
}

function sameSet(a: number[], b: number[]): boolean {
  const x = [...a].sort((m, n) => m - n);
  const y = [...b].sort((m, n) => m - n);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** `updateUserWhitelist` / `updateApprovalWhitelist`: unchanged lists are kept, new ones filtered. */
function filterUsers(state: SandboxState, repo: RepoRecord, current: number[], next: number[], need: 'write' | 'read', rules: ReaderRules): number[] {
  if (sameSet(current, next)) return current;
  return next.filter((id) => {
    if (need === 'read') return isExplicitReader(state, repo, id, rules);
    const user = state.userById(id);
    return user !== undefined && repoAccessMode(state, repo, user) >= AccessMode.Write;
  });
}

/** `updateTeamWhitelist`: teams with at least read access to the repository. */
function filterTeams(state: SandboxState, repo: RepoRecord, current: number[], next: number[], byUnits: boolean): number[] {
  if (sameSet(current, next)) return current;
  const allowed = new Set(teamsWithAccess(state, repo, byUnits).map((t) => t.id));
  return next.filter((id) => allowed.has(id));
}

/** Resolves the user lists present in the form (all-or-nothing: the first unknown name is 422). */
function resolveUserLists(state: SandboxState, form: BpForm, present: (field: string) => boolean): Record<string, number[]> | Failure {
  const out: Record<string, number[]> = {};
  for (const { field } of USER_LISTS) {
    if (!present(field)) continue;
    const ids = resolveUsers(state, strings(form[field]) ?? []);
    if (isFailure(ids)) return ids;
    out[field] = ids;
  }
  return out;
}

function resolveTeamLists(state: SandboxState, repo: RepoRecord, form: BpForm, present: (field: string) => boolean): Record<string, number[]> | Failure {
  const out: Record<string, number[]> = {};
  const owner = state.repoOwner(repo);
  // Team lists are resolved only for organisation repositories; elsewhere they are ignored.
  if (owner.kind !== 'org') return out;
  for (const field of TEAM_LISTS) {
    if (!present(field)) continue;
    const ids = resolveTeams(state, owner.id, strings(form[field]) ?? []);
    if (isFailure(ids)) return ids;
    out[field] = ids;
  }
  return out;
}

/** Saves resolved lists through the access filters (`UpdateProtectBranch`). */
function saveLists(state: SandboxState, repo: RepoRecord, bp: BranchProtectionRecord, users: Record<string, number[]>, teams: Record<string, number[]>, flavour?: Flavour): void {
  const rules = readerRules(flavour);
  for (const { field, need } of USER_LISTS) {
    bp.users[field] = filterUsers(state, repo, bp.users[field] ?? [], users[field] ?? bp.users[field] ?? [], need, rules);
  }
  const orgRepo = state.repoOwner(repo).kind === 'org';
  for (const field of TEAM_LISTS) {
    bp.teams[field] = orgRepo ? filterTeams(state, repo, bp.teams[field] ?? [], teams[field] ?? bp.teams[field] ?? [], teamListsByUnits(flavour)) : [];
  }
}

/** `CreateBranchProtection` after binding. Shared with the seed loader. */
export function createProtection(state: SandboxState, repo: RepoRecord, form: BpForm, flavour?: Flavour): BranchProtectionRecord | Failure {
  const ruleName = (form.rule_name as string | undefined) || (form.branch_name as string | undefined) || '';
  if (ruleName === '') return failure(400, 'both rule_name and branch_name are empty');
  if (protectionsOfRepo(state, repo.id).some((p) => p.ruleName === ruleName)) return failure(403, 'Branch protection already exist');

  const always = (): boolean => true;
  const users = resolveUserLists(state, form, always);
  if (isFailure(users)) return users;
  const teams = resolveTeamLists(state, repo, form, always);
  if (isFailure(teams)) return teams;

  const ep = bool(form.enable_push);
  const epw = ep && bool(form.enable_push_whitelist);
  const efp = ep && bool(form.enable_force_push);
  const efpa = efp && bool(form.enable_force_push_allowlist);
  const flags: Record<string, boolean> = {
    enable_push: ep,
    enable_push_whitelist: epw,
    push_whitelist_deploy_keys: epw && bool(form.push_whitelist_deploy_keys),
    enable_force_push: efp,
    enable_force_push_allowlist: efpa,
    force_push_allowlist_deploy_keys: efpa && bool(form.force_push_allowlist_deploy_keys),
  };
  for (const f of PLAIN_FLAGS) flags[f] = bool(form[f]);

  let priority = typeof form.priority === 'number' ? form.priority : 0;
  if (priority === 0) priority = protectionsOfRepo(state, repo.id).reduce((max, p) => Math.max(max, p.priority), 0) + 1;
  const approvals = typeof form.required_approvals === 'number' && form.required_approvals > 0 ? form.required_approvals : 0;
  const now = nowIso();
  const bp: BranchProtectionRecord = {
    id: state.nextId('branchProtection'),
    repoId: repo.id,
    ruleName,
    priority,
    flags,
    requiredApprovals: approvals,
    statusCheckContexts: strings(form.status_check_contexts) ?? null,
    protectedFilePatterns: (form.protected_file_patterns as string | undefined) ?? '',
    unprotectedFilePatterns: (form.unprotected_file_patterns as string | undefined) ?? '',
    users: {},
    teams: {},
    createdAt: now,
    updatedAt: now,
  };
  saveLists(state, repo, bp, users, teams, flavour);
  state.data.branchProtections.push(bp);
  return bp;
}

/** The push and force-push flags: the switch, its allow list, the list's deploy keys (each needs the one before it). */
const NESTED_FLAGS: readonly (readonly [string, string, string])[] = [
  ['enable_push', 'enable_push_whitelist', 'push_whitelist_deploy_keys'],
  ['enable_force_push', 'enable_force_push_allowlist', 'force_push_allowlist_deploy_keys'],
];

/** One chain of NESTED_FLAGS as `EditBranchProtection` edits it: a level given false turns off the levels below it; one not given is kept. */
function editNestedFlags(fl: Record<string, boolean>, form: BpForm, has: (f: string) => boolean, [on, list, deployKeys]: readonly [string, string, string]): void {
  if (!has(on)) return;
  if (!bool(form[on])) {
    fl[on] = fl[list] = fl[deployKeys] = false;
    return;
  }
  fl[on] = true;
  if (!has(list)) return;
  if (!bool(form[list])) {
    fl[list] = fl[deployKeys] = false;
    return;
  }
  fl[list] = true;
  if (has(deployKeys)) fl[deployKeys] = bool(form[deployKeys]);
}

/** `EditBranchProtection` after binding and the 404 check. */
export function editProtection(state: SandboxState, repo: RepoRecord, bp: BranchProtectionRecord, form: BpForm, flavour?: Flavour): BranchProtectionRecord | Failure {
  const has = (f: string): boolean => form[f] !== undefined;
  // Resolve first: a 422 leaves the rule untouched.
  const users = resolveUserLists(state, form, (f) => (f === 'force_push_allowlist_usernames' ? has('force_push_allowlist_deploy_keys') : has(f)));
  if (isFailure(users)) return users;
  const teams = resolveTeamLists(state, repo, form, has);
  if (isFailure(teams)) return teams;

  const fl = bp.flags;
  for (const chain of NESTED_FLAGS) editNestedFlags(fl, form, has, chain);
  if (has('priority')) bp.priority = form.priority as number;
  for (const f of PLAIN_FLAGS) if (has(f)) fl[f] = bool(form[f]);
  if (has('status_check_contexts')) bp.statusCheckContexts = strings(form.status_check_contexts) ?? [];
  if (has('required_approvals') && (form.required_approvals as number) >= 0) bp.requiredApprovals = form.required_approvals as number;
  if (has('protected_file_patterns')) bp.protectedFilePatterns = form.protected_file_patterns as string;
  if (has('unprotected_file_patterns')) bp.unprotectedFilePatterns = form.unprotected_file_patterns as string;
  saveLists(state, repo, bp, users, teams, flavour);
  bp.updatedAt = nowIso();
  return bp;
}
