/**
 * Branch protections, as `routers/api/v1/repo/branch.go` (≈ v1.25) does them:
 *
 * - every route needs a token and repository-admin rights, GET included;
 * - `{name}` is a catch-all, URL-unescaped once, looked up exactly (case-sensitive);
 * - create: 400 when both names are empty, 403 `Branch protection already exist`, unknown user or
 *   team → 422, team lists ignored on user repositories, the push / force-push gating, priority
 *   max+1 when 0; users and teams without access are dropped silently;
 * - PATCH: omitted or null = unchanged, `[]` clears, the flag hierarchy, and the ≤ v1.25 bug that
 *   re-reads `force_push_allowlist_usernames` only when `force_push_allowlist_deploy_keys` is sent;
 * - writes on an archived repository → 423; responses have no `id`, `branch_name` is "" for globs.
 */
import { reqToken, scope } from '../../http/auth.js';
import { bind, mustNotBeArchived, notFound, repoAssignment, reqRepoAdmin, formOf } from '../../http/checks.js';
import { inRepo, type RepoContext, type Step } from '../../http/context.js';
import { apiError, empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { explicitReaderIds } from '../../core/permissions.js';
import { teamsWithAccess } from '../teams/records.js';
import { type RepoRecord, type SandboxState } from '../../core/state.js';
import { type BranchProtectionRecord, PROTECTIONS, protectionsOfRepo } from './records.js';
import { fail, isFailure } from '../../core/failure.js';
import { CreateBranchProtectionOption, EditBranchProtectionOption, UpdateBranchProtectionPriories } from './options.js';
import { createProtection, editProtection, isGlobRule } from './service.js';
import type { Flavour } from '../../flavours/flavour.js';
import { hasQuirk, readerRules, shapeAnswer, teamListsByUnits } from '../../flavours/releases.js';

/** `GetProtectedBranchRules` order: priority, plain names before globs, creation. */
function sortedRules(state: SandboxState, repoId: number): BranchProtectionRecord[] {
  return [...protectionsOfRepo(state, repoId)].sort(
    (a, b) => a.priority - b.priority || Number(isGlobRule(a.ruleName)) - Number(isGlobRule(b.ruleName)) || a.id - b.id,
  );
}

/** `convert.ToBranchProtection` (v1.24 generation): lists filtered to explicit readers, no `id`. */
export function toBranchProtection(state: SandboxState, repo: RepoRecord, bp: BranchProtectionRecord, flavour?: Flavour): Record<string, unknown> {
  const readers = explicitReaderIds(state, repo, readerRules(flavour));
  const teamReaders = teamsWithAccess(state, repo, teamListsByUnits(flavour));
  const asSaved = flavour !== undefined && hasQuirk(flavour, 'protectionAnswersSavedUsers');
  const users = (field: string): string[] => {
    const saved = new Set(bp.users[field] ?? []);
    if (asSaved) return (bp.users[field] ?? []).map((id) => state.ownerById(id)?.name ?? '');
    return readers.filter((id) => saved.has(id)).map((id) => state.ownerById(id)?.name ?? '');
  };
  const teams = (field: string): string[] => {
    const saved = new Set(bp.teams[field] ?? []);
    return teamReaders.filter((t) => saved.has(t.id)).map((t) => t.name);
  };
  const f = bp.flags;
  return shapeAnswer(flavour, 'BranchProtection', {
    branch_name: isGlobRule(bp.ruleName) ? '' : bp.ruleName,
    rule_name: bp.ruleName,
    priority: bp.priority,
    enable_push: f.enable_push ?? false,
    enable_push_whitelist: f.enable_push_whitelist ?? false,
    push_whitelist_usernames: users('push_whitelist_usernames'),
    push_whitelist_teams: teams('push_whitelist_teams'),
    push_whitelist_deploy_keys: f.push_whitelist_deploy_keys ?? false,
    enable_force_push: f.enable_force_push ?? false,
    enable_force_push_allowlist: f.enable_force_push_allowlist ?? false,
    force_push_allowlist_usernames: users('force_push_allowlist_usernames'),
    force_push_allowlist_teams: teams('force_push_allowlist_teams'),
    force_push_allowlist_deploy_keys: f.force_push_allowlist_deploy_keys ?? false,
    enable_merge_whitelist: f.enable_merge_whitelist ?? false,
    merge_whitelist_usernames: users('merge_whitelist_usernames'),
    merge_whitelist_teams: teams('merge_whitelist_teams'),
    enable_bypass_allowlist: f.enable_bypass_allowlist ?? false,
    bypass_allowlist_usernames: users('bypass_allowlist_usernames'),
    bypass_allowlist_teams: teams('bypass_allowlist_teams'),
    enable_deletion: f.enable_deletion ?? false,
    enable_deletion_allowlist: f.enable_deletion_allowlist ?? false,
    deletion_allowlist_usernames: users('deletion_allowlist_usernames'),
    deletion_allowlist_teams: teams('deletion_allowlist_teams'),
    enable_status_check: f.enable_status_check ?? false,
    status_check_contexts: bp.statusCheckContexts,
    required_approvals: bp.requiredApprovals,
    enable_approvals_whitelist: f.enable_approvals_whitelist ?? false,
    approvals_whitelist_username: users('approvals_whitelist_username'),
    approvals_whitelist_teams: teams('approvals_whitelist_teams'),
    block_on_rejected_reviews: f.block_on_rejected_reviews ?? false,
    block_on_official_review_requests: f.block_on_official_review_requests ?? false,
    block_on_codeowner_reviews: f.block_on_codeowner_reviews ?? false,
    block_on_outdated_branch: f.block_on_outdated_branch ?? false,
    dismiss_stale_approvals: f.dismiss_stale_approvals ?? false,
    ignore_stale_approvals: f.ignore_stale_approvals ?? false,
    require_signed_commits: f.require_signed_commits ?? false,
    protected_file_patterns: bp.protectedFilePatterns,
    unprotected_file_patterns: bp.unprotectedFilePatterns,
    block_admin_merge_override: f.block_admin_merge_override ?? false,
    apply_to_admins: f.apply_to_admins ?? false,
    created_at: bp.createdAt,
    updated_at: bp.updatedAt,
  });
}

/**
 * The `{name}` of the catch-all route, taken from the raw path and unescaped once (`url.PathUnescape`;
 * an invalid escape gives "" as in production Gitea). Both `release%2F*` and `release/*` work.
 */
export function ruleNameFromPath(rawPath: string): string {
  const marker = '/branch_protections/';
  const i = rawPath.indexOf(marker);
  const raw = i < 0 ? '' : rawPath.slice(i + marker.length);
  try {
    return decodeURIComponent(raw);
  } catch {
    return '';
  }
}

function findRule(ctx: RepoContext): BranchProtectionRecord | undefined {
  const name = ruleNameFromPath(ctx.rawPath);
  return protectionsOfRepo(ctx.state, ctx.repo.id).find((p) => p.ruleName === name);
}

/** `mustNotBeArchived` on create and edit, except where the release has no archive check (Gitea 1.21). */
const archiveCheck: Step = (ctx) => (hasQuirk(ctx.flavour, 'protectionIgnoresArchive') ? undefined : mustNotBeArchived(ctx));
/** On delete only where the route has it (Gitea main); older releases fail in the model or not at all. */
const deleteArchiveCheck: Step = (ctx) => (hasQuirk(ctx.flavour, 'protectionIgnoresArchive') || hasQuirk(ctx.flavour, 'protectionDeleteArchived500') ? undefined : mustNotBeArchived(ctx));

export function registerBranchProtectionRoutes(r: ApiRouter): void {
  const base = '/repos/:owner/:repo/branch_protections';
  const guard = [scope('repository'), repoAssignment, reqToken, reqRepoAdmin];

  r.on('GET', base, ...guard, inRepo((ctx) => json(200, sortedRules(ctx.state, ctx.repo.id).map((bp) => toBranchProtection(ctx.state, ctx.repo, bp, ctx.flavour)))));

  r.on('POST', base, ...guard, bind(CreateBranchProtectionOption), archiveCheck, inRepo((ctx) => {
    const res = createProtection(ctx.state, ctx.repo, ctx.form, ctx.flavour);
    return isFailure(res) ? fail(ctx, res) : json(201, toBranchProtection(ctx.state, ctx.repo, res, ctx.flavour));
  }));

  // POST …/priority is the priority endpoint; GET/PATCH/DELETE …/priority address a rule named "priority".
  r.on('POST', `${base}/priority`, ...guard, bind(UpdateBranchProtectionPriories), mustNotBeArchived, inRepo((ctx) => {
    const ids = formOf(ctx, UpdateBranchProtectionPriories).ids ?? [];
    const rules = protectionsOfRepo(ctx.state, ctx.repo.id);
    // Unknown and foreign ids are skipped but still use up a number.
    ids.forEach((id, i) => {
      const rule = rules.find((p) => p.id === id);
      if (rule) rule.priority = i + 1;
    });
    return empty(204);
  }));

  r.on('GET', `${base}/*`, ...guard, inRepo((ctx) => {
    const bp = findRule(ctx);
    return bp ? json(200, toBranchProtection(ctx.state, ctx.repo, bp, ctx.flavour)) : notFound(ctx);
  }));

  r.on('PATCH', `${base}/*`, ...guard, bind(EditBranchProtectionOption), archiveCheck, inRepo((ctx) => {
    const bp = findRule(ctx);
    if (!bp) return notFound(ctx);
    const res = editProtection(ctx.state, ctx.repo, bp, ctx.form, ctx.flavour);
    return isFailure(res) ? fail(ctx, res) : json(200, toBranchProtection(ctx.state, ctx.repo, res, ctx.flavour));
  }));

  r.on('DELETE', `${base}/*`, ...guard, deleteArchiveCheck, inRepo((ctx) => {
    const bp = findRule(ctx);
    if (!bp) return notFound(ctx);
    // The route has no archive check; the model's `MustNotBeArchived` fails inside the delete.
    const repo = ctx.repo;
    if (repo.archived && hasQuirk(ctx.flavour, 'protectionDeleteArchived500')) return apiError(ctx.root, 500, `<Repository ${repo.id}:${ctx.state.repoOwner(repo).name}/${repo.name}> is archived`);
    ctx.state.indexes.of(PROTECTIONS).remove(bp);
    return empty(204);
  }));
}
