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
import type { FieldDef } from '../http/options.js';
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

/** Releases whose `User` answer has `source_id` (and `html_url`): not Gitea 1.21 nor Forgejo 7. */
const USER_SOURCE_ID: Availability = { gitea: { since: '1.22' }, forgejo: { since: 8 } };
/** `optional.FromNonDefault(VisibilityModes[v])` on user and org PATCH (public = 0 is dropped): Gitea 1.22–1.23, every Forgejo. */
const PUBLIC_DROPPED: Availability = { gitea: { since: '1.22', until: '1.23' }, forgejo: {} };

/** Request bodies: Go option struct name → JSON key → releases that bind it. */
export const REQUEST_FIELDS: Record<string, Record<string, Availability>> = {
  CreateBranchProtectionOption: BRANCH_PROTECTION,
  EditBranchProtectionOption: BRANCH_PROTECTION,
  EditIssueOption: { content_version: GITEA_ONLY('1.26'), projects: MAIN_ONLY },
  CreateHookOption: HOOK_NAME,
  EditHookOption: HOOK_NAME,
};

/** A request field declared otherwise by some releases: what those releases bind instead. */
export interface FieldVariant {
  in: Availability;
  def: Partial<Omit<FieldDef, 'json'>>;
}

const TEAM_NAME_30: Availability = { gitea: { until: '1.21' }, forgejo: { until: 7 } };

/** Go struct name → JSON key → the older declarations of that field (first match wins). */
export const FIELD_VARIANTS: Record<string, Record<string, FieldVariant[]>> = {
  // `[]int64` (ids only) before names were accepted (`[]any`): Gitea 1.22 (#30943), Forgejo 8.
  IssueLabelsOption: { labels: [{ in: { gitea: { until: '1.21' }, forgejo: { until: 7 } }, def: { type: 'int[]' } }] },
  // Team names of 30 characters at most: Gitea 1.21 and Forgejo 7 (v1.21.11, v7.0.16 `modules/structs/org_team.go` l.27, l.43); 255 from Gitea 1.22 (#31410) and Forgejo 8.
  CreateTeamOption: { name: [{ in: TEAM_NAME_30, def: { rules: ['Required', 'AlphaDashDot', 'MaxSize(30)'] } }] },
  EditTeamOption: { name: [{ in: TEAM_NAME_30, def: { rules: ['AlphaDashDot', 'MaxSize(30)'] } }] },
  // Forgejo 8 (d07c8c821c): `*int64` / `*string`, no longer required (the handler wants both or neither).
  EditUserOption: {
    source_id: [{ in: { forgejo: { since: 8 } }, def: { pointer: true } }],
    login_name: [{ in: { forgejo: { since: 8 } }, def: { pointer: true, rules: [] } }],
  },
};

/** Answers: Go struct name → JSON key → releases that send it. */
export const ANSWER_FIELDS: Record<string, Record<string, Availability>> = {
  BranchProtection: BRANCH_PROTECTION,
  // `time_estimate` from Gitea 1.25 (v1.25.4 `modules/structs/issue.go` l.79; not in v1.24.7 nor any Forgejo).
  Issue: { content_version: GITEA_ONLY('1.26'), projects: MAIN_ONLY, time_estimate: GITEA_ONLY('1.25') },
  // Forgejo's `Hook` also has `url`, `content_type` and `metadata` (v7.0.16 `modules/structs/hook.go`, `services/webhook/general.go` l.340–349).
  Hook: { ...HOOK_NAME, url: FORGEJO_ONLY, content_type: FORGEJO_ONLY, metadata: FORGEJO_ONLY },
  // Gitea's runner: `disabled` with the runner PATCH (1.26). Forgejo's runner is another struct (QUIRKS.runnerForgejoAnswer).
  ActionRunner: { disabled: GITEA_ONLY('1.26') },
  // `source_id` and `html_url` from Gitea 1.22 and Forgejo 8 (absent in v1.21.11 and v7.0.16 `modules/structs/user.go`);
  // `pronouns` only in Forgejo (v7.0.16 l.32).
  User: { source_id: USER_SOURCE_ID, html_url: USER_SOURCE_ID, pronouns: FORGEJO_ONLY, type: MAIN_ONLY },
  // `last_used_at` from Gitea 1.24 (v1.24.7 `modules/structs/user_key.go` l.19); no Forgejo.
  PublicKey: { last_used_at: GITEA_ONLY('1.24') },
};

/**
 * Hook events the hook API sets (`utils.addHook` / `updateHookEvents`); an event a release does not
 * list is ignored there, so a hook never has it. Events not named here: every release.
 */
export const HOOK_EVENTS: Record<string, Availability> = {
  package: { gitea: { since: '1.23' }, forgejo: { since: 15 } },
  status: GITEA_ONLY('1.23'),
  workflow_job: GITEA_ONLY('1.24'),
  workflow_run: GITEA_ONLY('1.25'),
  action_run_failure: { forgejo: { since: 15 } },
  action_run_recover: { forgejo: { since: 15 } },
  action_run_success: { forgejo: { since: 15 } },
};

/**
 * Hook events an edit sets (`editHook`); an event the release creates with but does not list here
 * keeps its stored value on an edit. Gitea ≤ 1.23 and every Forgejo list the older events one by one
 * in `editHook` (Gitea v1.23.8 `routers/api/v1/utils/hook.go` l.361–392, Forgejo v15.0.3 l.328–399):
 * no `package`, `status`, `action_run_*`. Gitea 1.24 edits through `updateHookEvents` (v1.24.7 l.372),
 * the create's table. Events not named here: every release.
 */
export const HOOK_EDIT_EVENTS: Record<string, Availability> = {
  package: GITEA_ONLY('1.24'),
  status: GITEA_ONLY('1.24'),
  workflow_job: GITEA_ONLY('1.24'),
  workflow_run: GITEA_ONLY('1.25'),
  action_run_failure: {},
  action_run_recover: {},
  action_run_success: {},
};

const REGISTRATION_TOKEN_GET: Availability = { gitea: { since: '1.22', until: '1.25' }, forgejo: {} };

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
  // Runner registration tokens: GET from Gitea 1.22 (#27144) until 1.25 (gone in 1.26, #36801) and in
  // every Forgejo; POST from Gitea 1.24 (#33873); Forgejo 15 adds a GET under /admin/actions/runners.
  'GET /admin/runners/registration-token': REGISTRATION_TOKEN_GET,
  'GET /admin/actions/runners/registration-token': { forgejo: { since: 15 } },
  'POST /admin/actions/runners/registration-token': GITEA_ONLY('1.24'),
  'GET /repos/:owner/:repo/actions/runners/registration-token': REGISTRATION_TOKEN_GET,
  'POST /repos/:owner/:repo/actions/runners/registration-token': GITEA_ONLY('1.24'),
  'GET /orgs/:org/actions/runners/registration-token': REGISTRATION_TOKEN_GET,
  'POST /orgs/:org/actions/runners/registration-token': GITEA_ONLY('1.24'),
  'GET /user/actions/runners/registration-token': REGISTRATION_TOKEN_GET,
  'POST /user/actions/runners/registration-token': GITEA_ONLY('1.24'),
  // A user's addresses for an admin: Forgejo 15 (v15.0.3 `routers/api/v1/api.go` l.1679–1681; not in v11.0.15).
  'GET /admin/users/:username/emails': { forgejo: { since: 15 } },
  'DELETE /admin/users/:username/emails': { forgejo: { since: 15 } },
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
  orgEditIgnoresPublic: PUBLIC_DROPPED,
  /** `PATCH /orgs/{org}` answers the e-mail sent (`org.Email = form.Email`) but does not save it (not among `UpdateUserCols`' columns). */
  orgEditEmailNotStored: { gitea: { until: '1.21' } },
  /** Hooks return `authorization_header` in clear in every answer. */
  hookAuthorizationInClear: { gitea: { until: '1.26' }, forgejo: {} },
  /** `PATCH /admin/hooks/{id}` checks `config.url` (`Invalid url`): Gitea v1.24.7 `utils/hook.go` l.341, Forgejo v15.0.3 l.332; not in v1.23.8 nor v11.0.15. */
  hookEditChecksUrl: { gitea: { since: '1.24' }, forgejo: { since: 15 } },
  /** `APIErrorNotFound()` says the locale's "The target couldn't be found." (Gitea ≤ 1.24, Forgejo); Gitea 1.25 says "not found". */
  notFoundLocaleWording: { gitea: { until: '1.24' }, forgejo: {} },
  /** `APIErrorNotFound()`'s `errors` is `[]` (Forgejo 11+: `make([]string, 0)`), not `null`. */
  notFoundErrorsArray: { forgejo: { since: 11 } },
  /**
   * `GET /admin/hooks` ignores `page` and `limit`: every hook, no X-Total-Count, no Link (ListHooks calls
   * `GetSystemWebhooks`/`GetSystemOrDefaultWebhooks` and `ctx.JSON` with no ListOptions; see NOTES.md).
   */
  adminHooksUnpaged: { gitea: { until: '1.25' }, forgejo: { until: 11 } },
  /** `GET /admin/hooks` pages, with X-Total-Count and no Link header (Forgejo 15; see NOTES.md). */
  adminHooksTotalOnly: { forgejo: { since: 15 } },
  /** `GET /admin/hooks?type=system|default|all`; without it, the list is system hooks whatever `type` says. */
  adminHooksListType: GITEA_ONLY('1.24'),
  /** `GET /admin/actions/runners` answers a bare array with X-Total-Count (not `{runners, total_count}`). */
  runnerListBareArray: { forgejo: { since: 15 } },
  /** `GET /admin/actions/runners` lists only the instance's own runners unless `visible=true` (`FindRunnerOptions.WithVisible`). */
  runnerListInstanceOnly: { forgejo: { since: 15 } },
  /** Runners answer Forgejo's `ActionRunner`: uuid, owner_id, repo_id, version, description, labels as names, status offline/idle/active; no busy. */
  runnerForgejoAnswer: { forgejo: { since: 15 } },
  /** `DELETE /repos/{o}/{r}/issues/{i}/labels/{identifier}`: a label name (repository, then organisation), else a numeric id. */
  issueLabelDeleteByName: { forgejo: { since: 13 } },
  /** `PATCH /admin/users/{u}`: source_id and login_name optional but together (else 422); an explicit source_id 0 makes the user local. */
  userEditLoginTogether: { forgejo: { since: 8 } },
  /** `PATCH /admin/users/{u}` drops `visibility: public` (`optional.FromNonDefault`, public = 0). */
  userEditIgnoresPublic: PUBLIC_DROPPED,
  /**
   * `PATCH /admin/users/{u}` with a new e-mail keeps the old primary address as a secondary one
   * (`AdminAddOrSetPrimaryEmailAddress`, Gitea 1.21's `UpdateUser`), and promotes an address the user
   * already has; Gitea 1.25 (`ReplacePrimaryEmailAddress`) deletes the old one and refuses any existing one.
   */
  userEmailChangeKeepsOld: { gitea: { until: '1.24' }, forgejo: {} },
  /** The e-mail step of `PATCH /admin/users/{u}` answers a conflict with 422 (the error of `UpdateUser`), an invalid address with 500. */
  userEmailErrors1_21: { gitea: { until: '1.21' } },
  /** `POST /admin/users/{u}/rename` of a user of an external login source: `ErrUserIsNotLocal`, a 500. Forgejo 13 lets an admin rename. */
  renameNonLocalUserFails: { gitea: {}, forgejo: { until: 12 } },
  /** Branch protection writes have no archive check at all (create, edit and delete work on an archived repository). */
  protectionIgnoresArchive: { gitea: { until: '1.21' } },
  /** `DELETE …/branch_protections/{name}` on an archived repository: the model's `ErrRepoIsArchived`, a 500 (no `mustNotBeArchived` on the route). */
  protectionDeleteArchived500: { gitea: { since: '1.22', until: '1.25' }, forgejo: {} },
  /**
   * A team below admin is stored with the permission `none`: its units carry the levels (#34128, 07c6087878;
   * Gitea v1.24.7 `routers/api/v1/org/team.go` l.209 `ParseAccessMode(permission, none, admin)`). Before, and
   * in every Forgejo, the permission is kept, or the lowest level of `units_map` (MinUnitAccessMode, v1.21.11 l.216–219).
   */
  teamPermissionInUnits: GITEA_ONLY('1.24'),
  /** `GET /teams/{id}/members` without `page` lists every member (GetTeamMembers limits only when page > 0; page.go passes 0 through before Gitea main). */
  teamMembersUnpagedWithoutPage: { gitea: { until: '1.25' }, forgejo: {} },
  /** The team lists (`/orgs/{org}/teams`, `/teams/{id}/members`, `/teams/{id}/repos`) send a `Link` header (Gitea main, 1.26). */
  teamListsLink: GITEA_ONLY('1.26'),
  /** `POST /admin/users/{u}/badges` with a badge the user has: inserted again (no unique index), 204. */
  badgeAddDuplicates: { gitea: { since: '1.22', until: '1.25' } },
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
