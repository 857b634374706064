/**
 * Tag protections, as `routers/api/v1/repo/tag.go` does them (Gitea v1.23.8 l.296–639; the same in Gitea
 * 1.24–1.26 and Forgejo 8–15):
 *
 * - every route needs a token and repository-admin rights (`reqToken(), reqAdmin()`), GET included;
 * - `{id}` is the protection's id; one of another repository is a 404;
 * - create: the pattern trimmed, 400 when empty or when both lists are empty, 403 `Tag protection already
 *   exist`, unknown user or team → 422, team lists ignored on user repositories; 201 with the protection;
 * - PATCH: absent lists unchanged, `[]` empties; DELETE: 204 (no archive check);
 * - POST and PATCH on an archived repository → 423;
 * - the answer lists only allowed users who can read the repository and teams that have it (ToTagProtection).
 */
import { reqToken, scope } from '../../http/auth.js';
import { bind, mustNotBeArchived, notFound, repoAssignment, reqRepoAdmin } from '../../http/checks.js';
import { inRepo, type RepoContext } from '../../http/context.js';
import { empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { explicitReaderIds } from '../../core/permissions.js';
import { teamsWithAccess } from '../teams/records.js';
import type { RepoRecord, SandboxState } from '../../core/state.js';
import type { Flavour } from '../../flavours/flavour.js';
import { readerRules, teamListsByUnits } from '../../flavours/releases.js';
import { fail, isFailure } from '../../core/failure.js';
import { type TagProtectionRecord, TAG_PROTECTIONS, tagProtectionsOfRepo } from './records.js';
import { CreateTagProtectionOption, EditTagProtectionOption } from './options.js';
import { createTagProtection, editTagProtection } from './service.js';

/** `convert.ToTagProtection`: users among the repository's readers (id order), teams among those that have it. */
export function toTagProtection(state: SandboxState, repo: RepoRecord, pt: TagProtectionRecord, flavour?: Flavour): Record<string, unknown> {
  const users = new Set(pt.userIds);
  const teams = new Set(pt.teamIds);
  return {
    id: pt.id,
    name_pattern: pt.namePattern,
    whitelist_usernames: explicitReaderIds(state, repo, readerRules(flavour))
      .filter((id) => users.has(id))
      .map((id) => state.userById(id)?.name ?? ''),
    whitelist_teams: teamsWithAccess(state, repo, teamListsByUnits(flavour))
      .filter((t) => teams.has(t.id))
      .map((t) => t.name),
    created_at: pt.createdAt,
    updated_at: pt.updatedAt,
  };
}

/** `GetProtectedTagByID` and the repository check: a protection of this repository, or none. */
function findProtection(ctx: RepoContext): TagProtectionRecord | undefined {
  const id = Number(ctx.params.id);
  return tagProtectionsOfRepo(ctx.state, ctx.repo.id).find((p) => p.id === id);
}

export function registerTagProtectionRoutes(r: ApiRouter): void {
  const base = '/repos/:owner/:repo/tag_protections';
  const guard = [scope('repository'), repoAssignment, reqToken, reqRepoAdmin];

  r.on('GET', base, ...guard, inRepo((ctx) => json(200, tagProtectionsOfRepo(ctx.state, ctx.repo.id).map((pt) => toTagProtection(ctx.state, ctx.repo, pt, ctx.flavour)))));

  r.on('POST', base, ...guard, bind(CreateTagProtectionOption), mustNotBeArchived, inRepo((ctx) => {
    const res = createTagProtection(ctx.state, ctx.repo, ctx.form);
    return isFailure(res) ? fail(ctx, res) : json(201, toTagProtection(ctx.state, ctx.repo, res, ctx.flavour));
  }));

  r.on('GET', `${base}/:id`, ...guard, inRepo((ctx) => {
    const pt = findProtection(ctx);
    return pt ? json(200, toTagProtection(ctx.state, ctx.repo, pt, ctx.flavour)) : notFound(ctx);
  }));

  r.on('PATCH', `${base}/:id`, ...guard, bind(EditTagProtectionOption), mustNotBeArchived, inRepo((ctx) => {
    const pt = findProtection(ctx);
    if (!pt) return notFound(ctx);
    const res = editTagProtection(ctx.state, ctx.repo, pt, ctx.form);
    return isFailure(res) ? fail(ctx, res) : json(200, toTagProtection(ctx.state, ctx.repo, res, ctx.flavour));
  }));

  r.on(
    'DELETE',
    `${base}/:id`,
    ...guard,
    inRepo((ctx) => {
      const pt = findProtection(ctx);
      if (!pt) return notFound(ctx);
      ctx.state.indexes.of(TAG_PROTECTIONS).remove(pt);
      return empty(204);
    }),
  );
}
