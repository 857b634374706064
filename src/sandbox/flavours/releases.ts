/**
 * What each release has, as data: per request field, per answer field, per route and per quirk,
 * the releases of each fork that have it (`since` / `until`, both inclusive). A fork not named
 * lacks it. Anything not listed here is served by every flavour. NOTES.md ("Flavours") cites the
 * source file each entry was read from.
 *
 * A released flavour takes its routes, request keys and answer keys from its own swagger (swagger.ts,
 * the handler winning where it differs: swagger-exceptions.ts): `ROUTES`, `REQUEST_FIELDS` and
 * `ANSWER_FIELDS` here are what the idealised `gitea@main` plays, and for the releases they are the
 * reading from the sources that test/unit/swagger-tables.test.ts holds against the swagger. The binding
 * layer asks `requestHas` (a field a release lacks is ignored and logged as unknown), the router
 * `routeAvailable` (a route a release lacks is a 404), converters `shapeAnswer` / `answerHas`, and
 * handlers `hasQuirk` where a release behaves differently.
 */
import type { FieldDef } from '../http/options.js';
import type { Flavour, Release } from './flavour.js';
import { available, type Availability } from './availability.js';
import { PUBLIC_DROPPED } from '../../releases/availability.js';
import { swaggerHasKey, swaggerHasRoute } from './swagger.js';
import type { ReaderRules } from '../core/permissions.js';

export { available, type Availability, type Span } from './availability.js';

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
  // `[]int64` (ids only) before names were accepted (`[]any`): Gitea 1.22 (#30943), Forgejo 8 (v8.0.0 `modules/structs/issue_label.go` l.62; v7.0.16 l.61 `[]int64`).
  IssueLabelsOption: { labels: [{ in: { gitea: { until: '1.21' }, forgejo: { until: 7 } }, def: { type: 'int[]' } }] },
  // Team names of 30 characters at most: Gitea 1.21 and Forgejo 7 (v1.21.11, v7.0.16 `modules/structs/org_team.go` l.27, l.43); 255 from Gitea 1.22 (#31410) and Forgejo 8.
  CreateTeamOption: { name: [{ in: TEAM_NAME_30, def: { rules: ['Required', 'AlphaDashDot', 'MaxSize(30)'] } }] },
  EditTeamOption: { name: [{ in: TEAM_NAME_30, def: { rules: ['AlphaDashDot', 'MaxSize(30)'] } }] },
  // Forgejo 8 (d07c8c821c; v8.0.0 `modules/structs/admin_user.go` l.33–34, `admin/user.go` l.195–199): `*int64` / `*string`, no longer required (the handler wants both or neither).
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
  // `created_at` / `last_used_at` from Gitea 1.24.0 (#34339; v1.24.7 `modules/structs/user_app.go` l.19–20, not
  // v1.23.8 l.13–19); Forgejo 15's `repositories` (v15.0.3 l.21, no omitempty: `null` unless the token is
  // limited to repositories; `routers/api/v1/user/app.go` l.105, l.243).
  AccessToken: { created_at: GITEA_ONLY('1.24'), last_used_at: GITEA_ONLY('1.24'), repositories: { forgejo: { since: 15 } } },
};

/**
 * Hook events the hook API sets (`utils.addHook` / `updateHookEvents`); an event a release does not
 * list is ignored there, so a hook never has it. Events not named here: every release. Forgejo's package and
 * action_run_* from v14.0.0 (`routers/api/v1/utils/hook.go` l.213–216; not in v13.0.0).
 */
export const HOOK_EVENTS: Record<string, Availability> = {
  package: { gitea: { since: '1.23' }, forgejo: { since: 14 } },
  status: GITEA_ONLY('1.23'),
  workflow_job: GITEA_ONLY('1.24'),
  workflow_run: GITEA_ONLY('1.25'),
  action_run_failure: { forgejo: { since: 14 } },
  action_run_recover: { forgejo: { since: 14 } },
  action_run_success: { forgejo: { since: 14 } },
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
  // The scoped runner lists came with the admin one (Gitea v1.24.0 `routers/api/v1/api.go` l.939, l.1074, the
  // organisation's through `addActionsRoutes`; Forgejo v15.0.0 l.856, l.1021, l.1585; none in Gitea v1.23.8, Forgejo v14).
  'GET /repos/:owner/:repo/actions/runners': { gitea: { since: '1.24' }, forgejo: { since: 15 } },
  'GET /orgs/:org/actions/runners': { gitea: { since: '1.24' }, forgejo: { since: 15 } },
  'GET /user/actions/runners': { gitea: { since: '1.24' }, forgejo: { since: 15 } },
  // Registering a runner through the API: Forgejo v15.0.0 (v15.0.3 `routers/api/v1/api.go` l.1707–1709; not in v14.0.0).
  'POST /admin/actions/runners': { forgejo: { since: 15 } },
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
  // A user's addresses for an admin: Forgejo 14 (v14.0.0 `routers/api/v1/api.go` l.1670–1672, v15.0.3 l.1679–1681; not in v13.0.0).
  'GET /admin/users/:username/emails': { forgejo: { since: 14 } },
  'DELETE /admin/users/:username/emails': { forgejo: { since: 14 } },
  'GET /admin/actions/runs': GITEA_ONLY('1.25'),
  'GET /admin/actions/jobs': GITEA_ONLY('1.25'),
  // The pull request a commit was merged by: Gitea #29243, first in v1.22.0 (`routers/api/v1/api.go` l.1277;
  // not in v1.21.11), every Forgejo (v7.0.16 l.1188, v11.0.15 l.1313, v15.0.3 l.1364).
  'GET /repos/:owner/:repo/commits/:sha/pull': { gitea: { since: '1.22' }, forgejo: {} },
  // The GET's path has no POST in any release (the POST is under /admin/actions/runners): Gitea v1.24.7 api.go
  // l.1732–1740, v1.25.4 l.1757–1768.
  'POST /admin/runners/registration-token': {},
  // In no tag's route table (Gitea v1.21.11 … v1.25.4, upstream main, Forgejo 7/11/15 register only
  // `/packages/{username}`): only the idealised sandbox lists every package for an admin.
  'GET /admin/packages': MAIN_ONLY,
  // Registered only with federation on. Gitea 1.26.0-dev answers 501 there (main 423cdd4d94 api.go l.933,
  // activitypub/person.go l.12–14; #36789): not served.
  'GET /nodeinfo': { gitea: { until: '1.25' }, forgejo: {} },
};

/** Behaviours that differ between releases (not a field or a route). */
export const QUIRKS = {
  /**
   * A hook's `events` are reported by walking `Webhook.EventCheckers()` (struct order; the review as
   * approved + rejected, `pull_request_review_comment` from the `pull_request_comment` flag), not the
   * stored map's keys: Gitea ≤ 1.23 (v1.23.8 models/webhook/webhook.go l.350) and every Forgejo
   * (v15.0.3 l.364); Gitea v1.24.7 l.186 iterates the map (domains/hooks/service.ts EVENT_CHECKERS).
   */
  hookEventsByCheckers: { gitea: { until: '1.23' }, forgejo: {} },
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
  /**
   * Hook create and edit check `config.url` (`validation.IsValidURL` → 422 `Invalid url`): Gitea v1.24.0+
   * `utils/hook.go` l.96 (create) and l.340 (edit), Forgejo v12.0.0 l.97 and l.330, v15.0.3 l.97 and l.331; no
   * `IsValidURL` in v1.23.8, v1.21.11, Forgejo v7.0.16, v10.0.0 nor v11.0.15 (any URL is stored).
   */
  hookChecksUrl: { gitea: { since: '1.24' }, forgejo: { since: 12 } },
  /** `APIErrorNotFound()` says the locale's "The target couldn't be found." (Gitea ≤ 1.24, Forgejo); Gitea 1.25 says "not found". */
  notFoundLocaleWording: { gitea: { until: '1.24' }, forgejo: {} },
  /** `APIErrorNotFound()`'s `errors` is `[]` (Forgejo 10+: `make([]string, 0)`, v10.0.0 services/context/api.go l.300; v9.0.0 l.255 `var errors []string`), not `null`. */
  notFoundErrorsArray: { forgejo: { since: 10 } },
  /**
   * `GET /admin/hooks` ignores `page` and `limit`: every hook, no X-Total-Count, no Link (ListHooks calls
   * `GetSystemWebhooks`/`GetSystemOrDefaultWebhooks` and `ctx.JSON` with no ListOptions; see NOTES.md). Forgejo up
   * to v13.0.0 (`routers/api/v1/admin/hooks.go` l.40 `GetSystemWebhooks(ctx, false)`).
   */
  adminHooksUnpaged: { gitea: { until: '1.25' }, forgejo: { until: 13 } },
  /** `GET /admin/hooks` pages, with X-Total-Count and no Link header (Forgejo 14+: v14.0.0 `admin/hooks.go` l.40 `GetListOptions`, l.54; see NOTES.md). */
  adminHooksTotalOnly: { forgejo: { since: 14 } },
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
  /**
   * `GET /admin/users?sort=`: Forgejo's names (oldest, newest, alphabetically, reversealphabetically, recentupdate,
   * leastupdate; anything else alphabetical, no 422) — Forgejo v11.0.15 `routers/api/v1/admin/user.go` l.440–458,
   * v15.0.3 `utils/db_search_order.go` l.11–27 (v10.0.0 `admin/user.go` l.440–458, dbbd359984); not in v7.0.16 nor
   * v9.0.0 (l.438: always `SearchOrderByAlphabetically`).
   */
  adminUsersForgejoSort: { forgejo: { since: 10 } },
  /**
   * `GET /admin/users?source_id=`: any integer filters, 0 included (local users only): Forgejo #6240
   * (70348e159f; v10.0.0 `admin/user.go` l.460–465, `models/user/search.go` l.101–102), v15.0.3 `admin/user.go`
   * l.440–446 and `models/user/search.go` l.104–106. Forgejo v9.0.0 `admin/user.go` l.437 reads `FormInt64`.
   * Gitea and Forgejo 7: `FormInt64`, and `SourceID > 0` filters (Gitea v1.25.4 `models/user/search.go` l.96).
   */
  adminUsersSourceIdZero: { forgejo: { since: 10 } },
  /**
   * `PATCH …/issues/{i}` `state`: anything but `closed` reopens (`issue.IsClosed = api.StateClosed == …`), no 412:
   * Gitea v1.21.11 `routers/api/v1/repo/issue.go` l.876, Forgejo v7.0.16 l.892, v11.0.15 l.921, v15.0.3 l.947.
   * Gitea v1.22.6 l.910–916 (and later) answer 412 `unknown state: X`.
   */
  issueStateAnyOpens: { gitea: { until: '1.21' }, forgejo: {} },
  /**
   * `PATCH …/issues/{i}` with `unset_due_date: false` and no `due_date`: `form.Deadline.IsZero()` on a nil pointer
   * panics (500) — Gitea v1.21.11 `repo/issue.go` l.818–823, Forgejo v7.0.16 l.835–840. Gitea v1.22.6 l.846 and
   * Forgejo v8.0.0 l.839–844 still panics; v9.0.0 l.843–844, v10.0.0 / v11.0.15 l.863 answer 400 `The due_date cannot be empty`.
   */
  issueDueDateNilPanics: { gitea: { until: '1.21' }, forgejo: { until: 8 } },
  /**
   * `POST /users/{u}/tokens` with no scope creates the token (Normalize of "" is ""), and the create answer has
   * no `scopes` (null): Gitea v1.21.11 `routers/api/v1/user/app.go` l.120–135, Forgejo v7.0.16 l.116–132. Gitea
   * v1.22.6 l.121–122 and Forgejo v11.0.15 l.125–126 answer 400 `access token must have a scope` and echo the
   * scopes (l.136 / l.140). Forgejo v8.0.0 l.116–121 still takes no scope; v9.0.0 l.121–122 and v10.0.0 l.125–126
   * refuse it (the check is Gitea #32085, 526054332a, September 2024).
   */
  tokenScopeOptional: { gitea: { until: '1.21' }, forgejo: { until: 8 } },
  /**
   * A rule name is one path segment (`/branch_protections/{name}`): an unencoded `/` in it matches no route (404,
   * never 405), only `%2F` works — Gitea v1.25.4 `routers/api/v1/api.go` l.1267, Forgejo v15.0.3 l.1214. Upstream
   * main (1.26.0-dev) routes `/branch_protections/*` (l.1231, #37096, 2c2d7e6f64): the rest of the path is the name.
   */
  wildcardOneSegment: { gitea: { until: '1.25' }, forgejo: {} },
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
  /**
   * The readers (GetUserIDsWithUnitAccess) count every member of a team whose pull-request unit is at read or
   * above (GetTeamUserIDsWithAccessToAnyRepoUnit: Gitea v1.25.4 models/perm/access/repo_permission.go l.476–500).
   */
  readersFromTeamUnits: GITEA_ONLY('1.25'),
  /** A branch protection answers its user lists as saved, not only the readers among them (v1.21.11 services/convert/convert.go l.109–112; GetRepoReaders from v1.22.6 l.130–133). */
  protectionAnswersSavedUsers: { gitea: { until: '1.21' } },
  /** `GET /teams/{id}/members` without `page` lists every member (GetTeamMembers limits only when page > 0; page.go passes 0 through before Gitea main). */
  teamMembersUnpagedWithoutPage: { gitea: { until: '1.25' }, forgejo: {} },
  /**
   * `GET /orgs/{org}/public_members` lists every member to a site administrator: ListPublicMembers calls
   * listMembers(ctx, false) and PublicOnly() is false for an admin (Gitea v1.23.8 org/member.go l.119,
   * models/organization/org.go l.198–200, #32234; Forgejo v10.0.0 member.go l.119, org.go l.197–199; v9.0.0 member.go
   * l.115 still `listMembers(ctx, true)`).
   */
  adminListsAllAsPublicMembers: { gitea: { since: '1.23' }, forgejo: { since: 10 } },
  /** `PUT`/`DELETE /orgs/{org}/public_members/{u}` by a site administrator or an owner for another member: checkCanChangeOrgUserStatus (Gitea v1.24.7 org/member.go l.214–226, #28294); before, and in Forgejo, only the user themself. */
  orgMemberStatusByAdmins: GITEA_ONLY('1.24'),
  /** The team lists (`/orgs/{org}/teams`, `/teams/{id}/members`, `/teams/{id}/repos`) send a `Link` header (Gitea main, 1.26). */
  teamListsLink: GITEA_ONLY('1.26'),
  /**
   * `GET /repos/{o}/{r}/collaborators` without `page` lists every collaborator: utils/page.go passes page 0
   * through (Gitea v1.21.11 l.15) and the query limits only when page ≥ 1 (v1.21.11 models/repo/collaboration.go
   * l.88–90; v1.22.6 … v1.25.4 models/db/list.go l.189 FindAndCount). Gitea main (1.26) makes it 1 (page.go
   * l.15 `max(…, 1)`); Forgejo's db.Find turns 0 into 1 (v7.0.16 and v15.0.3 models/db/list.go l.153).
   */
  collaboratorsUnpagedWithoutPage: { gitea: { until: '1.25' } },
  /**
   * `PUT …/collaborators/{u}` is AddOrUpdateCollaborator (Gitea 1.23+, v1.23.8 routers/api/v1/repo/collaborators.go
   * l.181–183, services/repository/collaboration.go l.21–25): the permission given, write without one (an
   * existing collaborator too), a 500 `Invalid access mode` for another. Gitea ≤ 1.22 and Forgejo (v15.0.3 l.187–201):
   * AddCollaborator at write (an existing one kept), then ChangeCollaborationAccessMode, which ignores an unknown one.
   */
  collaboratorAddOrUpdate: GITEA_ONLY('1.23'),
  /** `POST /admin/users/{u}/badges` with a badge the user has: inserted again (no unique index), 204. */
  badgeAddDuplicates: { gitea: { since: '1.22', until: '1.25' } },
  /**
   * `PATCH /repos/{o}/{r}`: the pull-request settings are applied only when the same body says
   * `has_pull_requests: true` (Gitea v1.25.4 routers/api/v1/repo/repo.go:884 `if opts.HasPullRequests != nil`).
   * Before (v1.24.7 l.887) and in Forgejo (v15.0.3 l.983) they apply while the unit is enabled
   * (`if currHasPullRequests || newHasPullRequests`).
   */
  pullSettingsOnlyWithUnitInBody: { gitea: { since: '1.25', until: '1.25' } },
  /**
   * Gitea main (1.26): a pull-request setting on a repository without the unit creates the unit with
   * `DefaultPullRequestsUnit` (routers/api/v1/repo/repo.go:867-905 at 423cdd4d94, `*changed || mustInsertPullRequestUnit`).
   */
  pullSettingsEnableUnit: GITEA_ONLY('1.26'),
  /**
   * `GET /repos/{o}/{r}/actions/variables` answers each variable without its value (`data: ""`): the
   * handler fills only owner_id, repo_id and name (Gitea v1.22.6 routers/api/v1/repo/action.go:473-477,
   * v1.23.8 :478-482; Forgejo v8.0.0 :476-480, v10.0.0 :474-478, v11.0.15 :474-478, v13.0.0 :471-475); Gitea 1.24+
   * (v1.24.7 :496-502) and Forgejo 14+ (v14.0.0 :471-476, v15.0.3 :472-477) fill data too. The organisation list
   * has data everywhere.
   */
  repoVariableListWithoutData: { gitea: { since: '1.22', until: '1.23' }, forgejo: { since: 8, until: 13 } },
  /** `POST …/actions/variables/{name}` answers 201 (Gitea v1.25.4 repo/action.go:376, org/action.go:422); 204 before and in Forgejo. */
  variableCreateAnswers201: GITEA_ONLY('1.25'),
  /**
   * Variable names starting with CI are refused, `(?i)^CI` (`envNameCIRegexMatch`, services/actions/variables.go:
   * Gitea v1.22.6 :91, v1.24.7 :88, Forgejo v8.0.0 :91, v11.0.15 :90, v12.0.0 :90), also on delete. Forgejo 13+
   * refuses CI exactly (`(?i)^CI$`, v13.0.0 and v14.0.0 :90, v15.0.3 :83).
   */
  variableNameCIPrefixRefused: { gitea: { since: '1.22', until: '1.24' }, forgejo: { until: 12 } },
  variableNameCIRefused: { forgejo: { since: 13 } },
  /** `ValidateName` refuses the name CI for secrets and variables (Gitea v1.25.4 services/secrets/validation.go:29), and says "invalid variable or secret name". */
  actionsNameCIRefused: GITEA_ONLY('1.25'),
  /** `ValidateName` refuses FORGEJO_ as it does GITEA_ and GITHUB_ (Forgejo v15.0.3 models/secret/secret.go:23). */
  actionsNameForgejoPrefixRefused: { forgejo: { since: 15 } },
  /**
   * Deleting a secret or a variable checks the name first (400): Forgejo up to v14.0.0 (services/secrets/secrets.go:58-61,
   * services/actions/variables.go:52-59). Gitea 1.25+ (v1.25.4 services/secrets/secrets.go:58) and Forgejo 15
   * (v15.0.0 secrets.go:58-63, variables.go:52-57) look it up as given (404).
   */
  actionsDeleteValidatesName: { gitea: { until: '1.24' }, forgejo: { until: 14 } },
  /**
   * A repository's secret put through the API is stored with the repository's owner as its owner too
   * (`CreateOrUpdateSecret(ctx, owner.ID, repo.ID, …)`: Gitea v1.21.11 routers/api/v1/repo/action.go:61, Forgejo
   * v7.0.16 :61, v8.0.0 :125; Gitea 1.22 passes 0, v1.22.6 :123, and Forgejo 9, v9.0.0 :124, #31724).
   */
  repoSecretStoresOwner: { gitea: { until: '1.21' }, forgejo: { until: 8 } },
  /**
   * Secret lookups match `owner_id` alone when no repository is given (`FindSecretsOptions.toConds`: Gitea v1.21.11
   * models/secret/secret.go:84-100, v1.22.6 :84-100, Forgejo v7.0.16 :84-100): an organisation's list, PUT and DELETE
   * also find the secrets of its repositories that carry it as owner (above); so does Forgejo v8.0.0 (:84-100). Gitea
   * 1.23 (v1.23.8 :95-114) and Forgejo 9 (v9.0.0 :95-113, #31724, 6844258c67) ask `repo_id = 0` too.
   */
  secretOwnerOnlyLookup: { gitea: { until: '1.22' }, forgejo: { until: 8 } },
  /**
   * A repository's Actions routes (secrets, variables, runners) answer `ctx.NotFound()` while its Actions unit is off,
   * site administrators too: `reqOwner(unit.TypeActions)` (Forgejo v15.0.3 routers/api/v1/api.go l.428–441,
   * l.1145–1149; #10726, ba2a6fbc41). Forgejo v14.0.0 l.1136–1140 and Gitea (main 423cdd4d94 l.1164: the reader
   * check only on …/actions/runs and …/jobs) pass `reqOwner()` alone.
   */
  repoActionsNeedUnit: { forgejo: { since: 15 } },
  /** A secret's value over 65536 bytes and a variable's over 65536 characters are refused (400 `data too long`; Gitea v1.24.7 models/secret/secret.go:76, models/actions/variable.go:58). */
  actionsDataMaxLength: GITEA_ONLY('1.24'),
  /**
   * A user name or password in the URL of `POST /repos/{o}/{r}/push_mirrors` (`remote_address`): 400 "The URL contains
   * credentials", and of `POST /repos/migrate` (`clone_addr`): 422 "The URL contains credentials." (Forgejo v11.0.15
   * services/forms/repo_form.go l.108-110, routers/api/v1/repo/mirror.go l.444-445, migrate.go l.286-287; from v11.0.4,
   * none in v11.0.0–v11.0.3 nor v10.0.3). Gitea and Forgejo 7 take them and answer the address without them
   * (`util.SanitizeURL`, Gitea v1.25.4 mirror.go l.360).
   */
  remoteUrlCredentialsRefused: { forgejo: { since: 11 } },
  /**
   * A push mirror to an ssh:// address: Forgejo 9+ (IsMigrateURLAllowed takes ssh in v9.0.0 and v10.0.0
   * services/migrations/migrate.go l.74; `IsPushMirrorURLAllowed`, v11.0.15 l.83). Gitea and Forgejo 7–8 check push
   * mirror addresses with IsMigrateURLAllowed: http, https and git only (Gitea v1.25.4 l.74, Forgejo v7.0.16 and
   * v8.0.0 l.74), 400 "Invalid mirror protocol".
   */
  pushMirrorSsh: { forgejo: { since: 9 } },
  /** The `/push_mirrors` group has no `mustNotBeArchived` (Gitea v1.21.11 routers/api/v1/api.go l.1173-1179; from v1.22.6 l.1269, and Forgejo v7.0.16 l.1129). */
  pushMirrorsIgnoreArchive: { gitea: { until: '1.21' } },
  /**
   * `PATCH /repos/{o}/{r}` with `mirror_interval` on a repository that is no mirror: 422 "repo is not a mirror, can not
   * change mirror interval" (Gitea v1.21.11 routers/api/v1/repo/repo.go l.1034-1039); later releases and Forgejo skip
   * it without an error (v1.22.6 l.1070, Forgejo v7.0.16 l.1057).
   */
  mirrorEditOfNonMirror422: { gitea: { until: '1.21' } },
  /**
   * `DELETE /repos/{o}/{r}/keys/{id}` with the id of another repository's deploy key: 500 "deploy key N does not belong
   * to repository M" from Gitea 1.24 (v1.24.7 services/asymkey/deploy_key.go l.66-67); Gitea up to 1.23 (models/repo.go
   * v1.21.11 l.320-360) and Forgejo up to 14 (v14.0.5 services/asymkey/deploy_key.go l.16) delete it.
   */
  deployKeyOfOtherRepo500: { gitea: { since: '1.24' } },
  /** The same in Forgejo 15: 403 "You do not have access to this key" (v15.0.3 models/repo.go l.287-291, routers/api/v1/repo/key.go l.283-284). */
  deployKeyOfOtherRepo403: { forgejo: { since: 15 } },
} satisfies Record<string, Availability>;

export type Quirk = keyof typeof QUIRKS;

export function hasQuirk(flavour: Flavour, quirk: Quirk): boolean {
  return available(flavour, QUIRKS[quirk]);
}

/** How the release counts a repository's readers (core/permissions.ts ReaderRules); without a flavour, as the newest Gitea. */
export function readerRules(flavour: Flavour | undefined): ReaderRules {
  return { teamUnits: flavour ? hasQuirk(flavour, 'readersFromTeamUnits') : true };
}

/** Whether a protection's team lists are judged by the teams' code and pull-request units (Gitea 1.24+), else by their stored mode (teams/records.ts teamsWithAccess). */
export function teamListsByUnits(flavour: Flavour | undefined): boolean {
  return flavour ? hasQuirk(flavour, 'teamPermissionInUnits') : true;
}

/** Whether the release serves `METHOD /path` (the router's form, `/repos/:owner/:repo`). */
export function routeAvailable(flavour: Flavour, method: string, path: string): boolean {
  return swaggerHasRoute(flavour, method, path) ?? available(flavour, ROUTES[`${method} ${path}`]);
}

/** The pattern the release registers a route under: `…/*` (the rest of the path) is one segment before Gitea 1.26. */
export function releasePattern(flavour: Flavour, path: string): string {
  return path.endsWith('/*') && hasQuirk(flavour, 'wildcardOneSegment') ? `${path.slice(0, -2)}/:name` : path;
}

/** Whether the release's answer struct has the key. */
export function answerHas(flavour: Flavour, struct: string, key: string): boolean {
  // Asked for every key of every object answered (a list of 50 labels: 350 times): kept per flavour once judged.
  let known = ANSWER_KEYS.get(flavour);
  if (!known) ANSWER_KEYS.set(flavour, (known = new Map()));
  const id = `${struct}.${key}`;
  let has = known.get(id);
  if (has === undefined) known.set(id, (has = swaggerHasKey(flavour, struct, key) ?? available(flavour, ANSWER_FIELDS[struct]?.[key])));
  return has;
}

/** answerHas's verdicts, per flavour (a flavour's tables never change once parsed). */
const ANSWER_KEYS = new WeakMap<Flavour, Map<string, boolean>>();

/** Whether the release binds the key of a request struct (`CreateHookOption.name`). */
export function requestHas(flavour: Flavour, struct: string, key: string): boolean {
  return swaggerHasKey(flavour, struct, key) ?? available(flavour, REQUEST_FIELDS[struct]?.[key]);
}

/** An answer without the keys the release's struct does not have. */
export function shapeAnswer<T extends Record<string, unknown>>(flavour: Flavour | undefined, struct: string, answer: T): T {
  if (!flavour) return answer;
  for (const key of Object.keys(answer)) if (!answerHas(flavour, struct, key)) delete answer[key];
  return answer;
}
