/**
 * What each release has, as data: per request field, per answer field, per route and per quirk,
 * the releases of each fork that have it (`since` / `until`, both inclusive). A fork not named
 * lacks it. Anything not listed here is served by every flavour. NOTES.md ("Flavours") cites the
 * source file each entry was read from.
 *
 * The binding layer reads `REQUEST_FIELDS` (a field a release lacks is ignored and logged as
 * unknown), the router reads `ROUTES` (a route a release lacks is a 404), converters read
 * `ANSWER_FIELDS`, and handlers ask `hasQuirk` where a release behaves differently.
 */
import { releaseNumber, type Flavor, type Release } from './flavor.js';

export interface Span {
  since?: Release;
  until?: Release;
}

/** The releases that have something, per fork; a fork not named has none. */
export interface Availability {
  gitea?: Span;
  forgejo?: Span;
}

export function available(flavor: Flavor, a: Availability | undefined): boolean {
  if (!a) return true;
  const span = a[flavor.fork];
  if (!span) return false;
  const since = span.since === undefined ? Number.NEGATIVE_INFINITY : releaseNumber(flavor.fork, span.since);
  const until = span.until === undefined ? Number.POSITIVE_INFINITY : releaseNumber(flavor.fork, span.until);
  return flavor.release >= since && flavor.release <= until;
}

const GITEA_ONLY = (since: Release): Availability => ({ gitea: { since } });
const FORGEJO_ONLY: Availability = { forgejo: {} };
/** Only the idealised sandbox (`gitea@main`): read in no released source. */
const MAIN_ONLY: Availability = { gitea: { since: 'main' } };

const BRANCH_PROTECTION: Record<string, Availability> = {
  priority: GITEA_ONLY('1.23'),
  enable_force_push: GITEA_ONLY('1.23'),
  enable_force_push_allowlist: GITEA_ONLY('1.23'),
  force_push_allowlist_usernames: GITEA_ONLY('1.23'),
  force_push_allowlist_teams: GITEA_ONLY('1.23'),
  force_push_allowlist_deploy_keys: GITEA_ONLY('1.23'),
  block_admin_merge_override: GITEA_ONLY('1.23'),
  ignore_stale_approvals: { gitea: { since: '1.22' }, forgejo: {} },
  apply_to_admins: FORGEJO_ONLY,
  block_on_codeowner_reviews: MAIN_ONLY,
  enable_bypass_allowlist: MAIN_ONLY,
  bypass_allowlist_usernames: MAIN_ONLY,
  bypass_allowlist_teams: MAIN_ONLY,
  enable_deletion: MAIN_ONLY,
  enable_deletion_allowlist: MAIN_ONLY,
  deletion_allowlist_usernames: MAIN_ONLY,
  deletion_allowlist_teams: MAIN_ONLY,
};

const HOOK_NAME: Record<string, Availability> = { name: GITEA_ONLY('1.26') };

/** Request bodies: Go option struct name → JSON key → releases that bind it. */
export const REQUEST_FIELDS: Record<string, Record<string, Availability>> = {
  CreateBranchProtectionOption: BRANCH_PROTECTION,
  EditBranchProtectionOption: BRANCH_PROTECTION,
  EditIssueOption: { content_version: GITEA_ONLY('1.26'), projects: MAIN_ONLY },
  CreateHookOption: HOOK_NAME,
  EditHookOption: HOOK_NAME,
};

/** Answers: Go struct name → JSON key → releases that send it. */
export const ANSWER_FIELDS: Record<string, Record<string, Availability>> = {
  BranchProtection: BRANCH_PROTECTION,
  Issue: { content_version: GITEA_ONLY('1.26'), projects: MAIN_ONLY },
  Hook: HOOK_NAME,
};

/** Routes, as registered (`METHOD /path/:param` under /api/v1) → releases that serve them. */
export const ROUTES: Record<string, Availability> = {
  'POST /repos/:owner/:repo/branch_protections/priority': GITEA_ONLY('1.23'),
  'GET /admin/users/:username/badges': GITEA_ONLY('1.22'),
  'POST /admin/users/:username/badges': GITEA_ONLY('1.22'),
  'DELETE /admin/users/:username/badges': GITEA_ONLY('1.22'),
  'GET /admin/actions/runners': { gitea: { since: '1.24' }, forgejo: { since: 15 } },
  'GET /admin/actions/runners/:runner_id': { gitea: { since: '1.24' }, forgejo: { since: 15 } },
  'DELETE /admin/actions/runners/:runner_id': { gitea: { since: '1.24' }, forgejo: { since: 15 } },
  'PATCH /admin/actions/runners/:runner_id': GITEA_ONLY('1.26'),
  'POST /admin/actions/runners/registration-token': GITEA_ONLY('1.24'),
  'GET /admin/actions/runs': GITEA_ONLY('1.25'),
  'GET /admin/actions/jobs': GITEA_ONLY('1.25'),
  // Registered only with federation on. Gitea 1.26.0-dev answers 501 there (unverified): not served.
  'GET /nodeinfo': { gitea: { until: '1.25' }, forgejo: {} },
};

/** Behaviours that differ between releases (not a field or a route). */
export const QUIRKS = {
  /** `PATCH /orgs/{org}` writes full_name, description, website and location even when omitted: omitted = cleared. */
  orgEditClearsOmitted: { gitea: { until: '1.25' }, forgejo: {} },
  /** `PATCH /orgs/{org}` with `email: ""` (or none) keeps the e-mail: it cannot be cleared. */
  orgEditKeepsEmptyEmail: { gitea: { until: '1.25' }, forgejo: { until: 9 } },
  /** `PATCH /orgs/{org}` drops `visibility: public` (`optional.FromNonDefault`, public = 0). */
  orgEditIgnoresPublic: FORGEJO_ONLY,
  /** Hooks return `authorization_header` in clear in every answer. */
  hookAuthorizationInClear: { gitea: { until: '1.26' }, forgejo: {} },
  /** `GET /admin/hooks?type=system|default|all`; without it, the list is system hooks whatever `type` says. */
  adminHooksListType: GITEA_ONLY('1.24'),
  /** `GET /admin/actions/runners` answers a bare array with X-Total-Count (not `{runners, total_count}`). */
  runnerListBareArray: { forgejo: { since: 15 } },
} satisfies Record<string, Availability>;

export type Quirk = keyof typeof QUIRKS;

export function hasQuirk(flavor: Flavor, quirk: Quirk): boolean {
  return available(flavor, QUIRKS[quirk]);
}

export function routeAvailable(flavor: Flavor, method: string, path: string): boolean {
  return available(flavor, ROUTES[`${method} ${path}`]);
}

/** An answer without the fields the release does not send. */
export function shapeAnswer<T extends Record<string, unknown>>(flavor: Flavor | undefined, struct: keyof typeof ANSWER_FIELDS, answer: T): T {
  const fields = ANSWER_FIELDS[struct];
  if (!flavor || !fields) return answer;
  for (const [key, a] of Object.entries(fields)) if (key in answer && !available(flavor, a)) delete answer[key];
  return answer;
}
