/**
 * Pull mirrors: `POST /repos/migrate` (routers/api/v1/repo/migrate.go) with `mirror: true`, and
 * `mirror_interval` of `PATCH /repos/{o}/{r}` (repo.go updateMirror). The sandbox clones nothing and
 * resolves no host: a migrated repository is an empty repository with its source recorded.
 *
 * - the owner: `repo_owner`, else `uid`, else the caller (422 for an unknown one); a caller who is not a
 *   site admin may migrate into their own account or an organisation they own (403 otherwise);
 * - the address (ParseRemoteAddr, IsMigrateURLAllowed): http, https and git only (no ssh), no local path
 *   (non-admins), not a loopback or private address literal unless ALLOW_LOCALNETWORKS, the allowed and
 *   blocked domains: 422;
 * - `mirror` with `[mirror] DISABLE_NEW_PULL` (or ENABLED = false) 403, `[repository] DISABLE_MIGRATIONS` 403;
 * - a taken name 409; then the interval (modules/repository/repo.go MigrateRepositoryGitData): "" the
 *   default 8h, 0 no periodic sync, unparsable or below MIN_INTERVAL a 500 and the new repository removed;
 * - the API migrates within the request (MigrateRepository in the handler, no task): 201 with the repository.
 */
import { reqToken, scope } from '../../http/auth.js';
import { bind, formOf, internalError } from '../../http/checks.js';
import { type ApiContext, type SignedInContext, signedIn } from '../../http/context.js';
import { apiError, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { isOrgOwner } from '../../core/permissions.js';
import { AccessMode, REPOS, type Owner, type RepoRecord } from '../../core/state.js';
import { fail, isFailure } from '../../core/failure.js';
import { hasQuirk } from '../../flavours/releases.js';
import { toRepo } from '../repos/convert.js';
import { createRepo } from '../repos/service.js';
import { formatGoDuration, parseGoDuration } from '../../../go-duration.js';
import { MigrateRepoOptions } from './options.js';
import { hostRefused, migrationSettings, mirrorSettings, pullMirrorOf } from './records.js';
import { sanitizeUrl } from './service.js';

/** `ErrInvalidCloneAddr.Error()` (models/error.go). */
const notAllowed = (host: string, why: string): string => `migration/cloning from '${host}' is not allowed${why}`;

/** ParseRemoteAddr and IsMigrateURLAllowed, as the answer of handleRemoteAddrError (all 422). */
function addressRefusal(ctx: ApiContext, address: string): string | undefined {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    return ctx.doer?.isAdmin ? 'Invalid local path, it does not exist or not a directory.' : 'You are not allowed to import local repositories.';
  }
  if (url.protocol === 'file:') return ctx.doer?.isAdmin ? 'Invalid local path, it does not exist or not a directory.' : 'You are not allowed to import local repositories.';
  if (!['http:', 'https:', 'git:'].includes(url.protocol)) return notAllowed(url.host, ': the provided url protocol is not allowed');
  if ((url.username || url.password) && hasQuirk(ctx.flavour, 'remoteUrlCredentialsRefused')) return 'The URL contains credentials.';
  if (hostRefused(ctx.state, url.hostname)) return 'You can not import from disallowed hosts.';
  return undefined;
}

/** The owner the repository goes to, or the refusal. */
function migrateOwner(ctx: SignedInContext, form: { repo_owner?: string; uid?: number }): Owner | Response {
  const doer = ctx.doer;
  const owner = form.repo_owner ? ctx.state.ownerByName(form.repo_owner) : form.uid ? ctx.state.ownerById(form.uid) : ctx.state.ownerById(doer.id);
  if (!owner) return apiError(ctx.root, 422, `user does not exist [uid: ${form.uid ?? 0}, name: ${form.repo_owner ?? ''}]`);
  if (doer.isAdmin) return owner;
  if (owner.kind !== 'org' && owner.id !== doer.id) return apiError(ctx.root, 403, 'Given user is not an organization.');
  if (owner.kind === 'org' && !isOrgOwner(ctx.state, owner.org, doer.id)) return apiError(ctx.root, 403, 'Given user is not owner of organization.');
  return owner;
}

/** The interval of a mirror migrated without one: 8h (above), in nanoseconds. */
const DEFAULT_INTERVAL_NS = 8n * 3600n * 1_000_000_000n;

/**
 * MigrateRepositoryGitData's interval: nanoseconds, or the error the migration fails with. 0 is "no periodic
 * sync", anything else below MIN_INTERVAL fails (`parsedInterval == 0` first, then `< setting.Mirror.MinInterval`:
 * Gitea v1.25.4 services/repository/migrate.go l.201–207, v1.21.11 modules/repository/repo.go l.205–211,
 * Forgejo v15.0.3 services/repository/migrate.go l.202–208). The plan refuses it first (src/kinds/repo/mirror-interval.ts).
 */
function migrateInterval(ctx: ApiContext, given: string | undefined): bigint | string {
  if (!given) return DEFAULT_INTERVAL_NS;
  const ns = parseGoDuration(given);
  if (ns === undefined) return `time: invalid duration ${JSON.stringify(given)}`;
  const min = BigInt(mirrorSettings(ctx.state).minInterval);
  if (ns !== 0n && ns < min) return `interval ${formatGoDuration(ns)} is set below Minimum Interval of ${formatGoDuration(min)}`;
  return ns;
}

function migrate(ctx: SignedInContext): Response {
  const form = formOf(ctx, MigrateRepoOptions);
  const owner = migrateOwner(ctx, form);
  if (owner instanceof Response) return owner;
  const refused = addressRefusal(ctx, form.clone_addr);
  if (refused) return apiError(ctx.root, 422, refused);
  if (form.mirror && mirrorSettings(ctx.state).disableNewPull) return apiError(ctx.root, 403, 'the site administrator has disabled the creation of new pull mirrors');
  if (migrationSettings(ctx.state).disabled) return apiError(ctx.root, 403, 'the site administrator has disabled migrations');
  const repo = createRepo(ctx.state, owner.id, { name: form.repo_name, description: form.description ?? '', private: form.private ?? false });
  if (isFailure(repo)) return fail(ctx, repo);
  repo.originalUrl = form.clone_addr;
  if (form.mirror) {
    const interval = migrateInterval(ctx, form.mirror_interval);
    if (typeof interval === 'string') {
      // The handler's deferred cleanup deletes the repository the migration failed for.
      ctx.state.indexes.of(REPOS).remove(repo);
      return internalError(ctx, interval);
    }
    ctx.state.data.pullMirrors.push({ repoId: repo.id, interval: String(interval), remoteAddress: sanitizeUrl(form.clone_addr.trim()), enablePrune: true });
  }
  return json(201, toRepo(ctx, repo, AccessMode.Admin));
}

/**
 * updateMirror (repo.go): on a repository that is no mirror Gitea 1.21 answers 422, later releases and
 * Forgejo skip it; an unparsable interval or one below MIN_INTERVAL (but 0) is 422. Undefined: done.
 */
export function updateMirror(ctx: ApiContext, repo: RepoRecord, form: { mirror_interval?: string; enable_prune?: boolean }): Response | undefined {
  if (form.mirror_interval === undefined && form.enable_prune === undefined) return undefined;
  const m = pullMirrorOf(ctx.state, repo.id);
  if (!m) return hasQuirk(ctx.flavour, 'mirrorEditOfNonMirror422') ? apiError(ctx.root, 422, 'repo is not a mirror, can not change mirror interval') : undefined;
  if (form.mirror_interval !== undefined) {
    const ns = parseGoDuration(form.mirror_interval);
    if (ns === undefined) return apiError(ctx.root, 422, `time: invalid duration ${JSON.stringify(form.mirror_interval)}`);
    const min = BigInt(mirrorSettings(ctx.state).minInterval);
    // `interval != 0 && interval < setting.Mirror.MinInterval` (Gitea v1.25.4 routers/api/v1/repo/repo.go l.1094–1097,
    // v1.21.11 l.1061–1064, Forgejo v15.0.3 l.1182–1185).
    if (ns !== 0n && ns < min) return apiError(ctx.root, 422, `invalid mirror interval: ${formatGoDuration(ns)} is below minimum interval: ${formatGoDuration(min)}`);
    m.interval = String(ns);
  }
  if (form.enable_prune !== undefined) m.enablePrune = form.enable_prune;
  return undefined;
}

export function registerMigrateRoute(r: ApiRouter): void {
  r.on('POST', '/repos/migrate', scope('repository'), reqToken, bind(MigrateRepoOptions), signedIn(migrate));
}
