/**
 * Deploy keys, as `routers/api/v1/repo/key.go` serves them (Gitea v1.25.4; the same in every release played but
 * where said), in the repository group with `reqToken(), reqAdmin()` (routers/api/v1/api.go Gitea v1.25.4
 * l.1306-1311, v1.21.11 l.1120-1125, Forgejo v15.0.3 l.1248-1253): no archive check.
 *
 * - GET list (l.47-114): paged (`GetListOptions`, `FindAndCount`), X-Total-Count; each key with its public key's
 *   stored text (GetContent), and `repository` for site admins and the repository's owner (appendPrivateInformation);
 * - GET {id} (l.117-173): 404 when missing or of another repository;
 * - POST (l.203-250): 201 with the key, its text as this request normalised it, without `repository`;
 * - DELETE {id} (l.253-292): 204, also for an id that does not exist (services/asymkey/deploy_key.go l.53-57); one of
 *   another repository: deleted by Gitea up to 1.23 and Forgejo up to 14 (models/repo.go Gitea v1.21.11 l.320-360
 *   checks only that the doer administers that key's repository), 500 "deploy key N does not belong to repository M"
 *   from Gitea 1.24 (v1.24.7 services/asymkey/deploy_key.go l.66-67), 403 "You do not have access to this key" in
 *   Forgejo 15 (v15.0.3 models/repo.go l.287-291, key.go l.283-284).
 */
import { reqToken, scope } from '../../http/auth.js';
import { bind, formOf, notFound, repoAssignment, reqRepoAdmin } from '../../http/checks.js';
import { type ApiContext, inRepo, type RepoFacts } from '../../http/context.js';
import { listOptions, paginate, setTotalCountHeader } from '../../http/paging.js';
import { apiError, empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { hasQuirk, shapeAnswer } from '../../flavours/releases.js';
import { fail, isFailure } from '../../core/failure.js';
import { AccessMode } from '../../core/state.js';
import { repoApiUrl, toRepo } from '../repos/convert.js';
import { pathInt64 } from '../users/badges-keys.js';
import { CreateKeyOption } from '../users/options.js';
import { deployKeysOf, type DeployKeyRecord } from './records.js';
import { addDeployKey, removeDeployKey } from './service.js';

/** `convert.ToDeployKey` (services/convert/convert.go Gitea v1.25.4 l.623-634), and `repository` where appendPrivateInformation adds it. */
function toDeployKey(ctx: ApiContext & RepoFacts, k: DeployKeyRecord, content: string, withRepo: boolean): Record<string, unknown> {
  const repo = ctx.repo;
  const out: Record<string, unknown> = {
    id: k.id,
    key_id: k.keyId,
    key: content,
    url: `${repoApiUrl(ctx, repo)}/keys/${k.id}`,
    title: k.name,
    fingerprint: k.fingerprint,
    created_at: k.createdAt,
    read_only: k.readOnly,
  };
  if (withRepo) out.repository = toRepo(ctx, repo, k.readOnly ? AccessMode.Read : AccessMode.Write);
  return shapeAnswer(ctx.flavour, 'DeployKey', out);
}

/** `ctx.Doer.IsAdmin || (repo is the key's && doer is the repository's owner)`. */
const seesPrivate = (ctx: ApiContext & RepoFacts): boolean => Boolean(ctx.doer && (ctx.doer.isAdmin || ctx.doer.id === ctx.repo.ownerId));

const contentOf = (ctx: ApiContext, k: DeployKeyRecord): string => ctx.state.data.publicKeys.find((p) => p.id === k.keyId)?.content ?? '';

export function registerDeployKeyRoutes(r: ApiRouter): void {
  const base = '/repos/:owner/:repo/keys';
  const guard = [scope('repository'), repoAssignment, reqToken, reqRepoAdmin];

  r.on('GET', base, ...guard, inRepo((ctx) => {
    const all = deployKeysOf(ctx.state, ctx.repo.id);
    const fingerprint = ctx.query.get('fingerprint') ?? '';
    const matching = fingerprint ? all.filter((k) => k.fingerprint === fingerprint) : all;
    setTotalCountHeader(ctx, matching.length);
    return json(200, paginate(matching, listOptions(ctx)).map((k) => toDeployKey(ctx, k, contentOf(ctx, k), seesPrivate(ctx))));
  }));

  r.on('POST', base, ...guard, bind(CreateKeyOption), inRepo((ctx) => {
    const form = formOf(ctx, CreateKeyOption);
    const res = addDeployKey(ctx.state, ctx.repo, form.title, form.key, form.read_only ?? false);
    return isFailure(res) ? fail(ctx, res) : json(201, toDeployKey(ctx, res.record, res.content, false));
  }));

  r.on('GET', `${base}/:id`, ...guard, inRepo((ctx) => {
    const k = deployKeysOf(ctx.state, ctx.repo.id).find((d) => d.id === pathInt64(ctx.params.id));
    return k ? json(200, toDeployKey(ctx, k, contentOf(ctx, k), seesPrivate(ctx))) : notFound(ctx);
  }));

  r.on('DELETE', `${base}/:id`, ...guard, inRepo((ctx) => {
    const k = ctx.state.data.deployKeys.find((d) => d.id === pathInt64(ctx.params.id));
    if (!k) return empty(204);
    if (k.repoId !== ctx.repo.id) {
      if (hasQuirk(ctx.flavour, 'deployKeyOfOtherRepo500')) return apiError(ctx.root, 500, `deploy key ${k.id} does not belong to repository ${ctx.repo.id}`);
      if (hasQuirk(ctx.flavour, 'deployKeyOfOtherRepo403')) return apiError(ctx.root, 403, 'You do not have access to this key');
    }
    removeDeployKey(ctx.state, k);
    return empty(204);
  }));
}
