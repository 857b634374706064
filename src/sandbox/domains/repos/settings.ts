/**
 * What the repository settings keep beyond the units: the pull-request unit's config and the topics
 * (Gitea v1.25.4: routers/api/v1/repo/repo.go updateRepoUnits, services/convert/repository.go ToRepo,
 * routers/api/v1/repo/topic.go, models/repo/topic.go; the same in every supported release).
 */
import { reqToken } from '../../http/auth.js';
import { bind, formOf, reqRepoAdmin } from '../../http/checks.js';
import { inRepo, type RepoContext, type Step } from '../../http/context.js';
import { listOptions, paginate, setTotalCountHeader } from '../../http/paging.js';
import { empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { f, option } from '../../http/options.js';
import { nowIso, type RepoRecord } from '../../core/state.js';
import type { Flavour } from '../../flavours/flavour.js';
import { hasQuirk } from '../../flavours/releases.js';

/** `repo_model.PullRequestsConfig`, under the API's names. */
export interface PullSettings {
  ignore_whitespace_conflicts: boolean;
  allow_merge_commits: boolean;
  allow_rebase: boolean;
  allow_rebase_explicit: boolean;
  allow_squash_merge: boolean;
  allow_fast_forward_only_merge: boolean;
  allow_manual_merge: boolean;
  autodetect_manual_merge: boolean;
  allow_rebase_update: boolean;
  default_delete_branch_after_merge: boolean;
  default_merge_style: string;
  default_allow_maintainer_edit: boolean;
}

declare module '../../core/state.js' {
  interface RepoRecord {
    /** The pull-request unit's config while the unit is enabled (absent: as a new repository has it). */
    pulls?: PullSettings;
    /** Sorted by name, as syncTopicsInRepository stores them (absent: none). */
    topics?: string[];
  }
}

/** A new repository's pull-request config (services/repository/create.go: AllowManualMerge left false). */
export const CREATED_PULLS: PullSettings = {
  ignore_whitespace_conflicts: false,
  allow_merge_commits: true,
  allow_rebase: true,
  allow_rebase_explicit: true,
  allow_squash_merge: true,
  allow_fast_forward_only_merge: true,
  allow_manual_merge: false,
  autodetect_manual_merge: false,
  allow_rebase_update: true,
  default_delete_branch_after_merge: false,
  default_merge_style: 'merge',
  default_allow_maintainer_edit: false,
};

/** The unit enabled again by an edit (updateRepoUnits' defaults when it has none: AllowManualMerge true). */
const ENABLED_PULLS: PullSettings = { ...CREATED_PULLS, allow_manual_merge: true };

/** What ToRepo answers while the unit is disabled: every flag false but allow_manual_merge, style merge. */
const DISABLED_PULLS: PullSettings = {
  ...Object.fromEntries(Object.keys(CREATED_PULLS).map((k) => [k, false])),
  allow_manual_merge: true,
  default_merge_style: 'merge',
} as PullSettings;

/** The pull-request settings as ToRepo answers them. */
export function pullSettingsOf(repo: RepoRecord): PullSettings {
  return repo.units.hasPullRequests ? (repo.pulls ?? CREATED_PULLS) : DISABLED_PULLS;
}

const PULL_KEYS = Object.keys(CREATED_PULLS) as (keyof PullSettings)[];

/**
 * updateRepoUnits: has_pull_requests: false deletes the unit; the settings go onto the unit's config
 * (or the defaults when the unit is being enabled) — in Gitea 1.25 only when the same body says
 * has_pull_requests: true, elsewhere while the unit is (or is being) enabled, and in Gitea 1.26 a
 * setting alone enables it (QUIRKS.pullSettingsOnlyWithUnitInBody, pullSettingsEnableUnit).
 */
export function editPullSettings(flavour: Flavour, repo: RepoRecord, form: Partial<Record<string, unknown>>): void {
  if (form.has_pull_requests === false) {
    repo.units.hasPullRequests = false;
    delete repo.pulls;
    return;
  }
  const enabling = form.has_pull_requests === true;
  const named = PULL_KEYS.some((k) => form[k] !== undefined);
  const applies = hasQuirk(flavour, 'pullSettingsOnlyWithUnitInBody')
    ? enabling
    : enabling || repo.units.hasPullRequests || (named && hasQuirk(flavour, 'pullSettingsEnableUnit'));
  if (!applies || (!enabling && !named)) return;
  const config: PullSettings = repo.units.hasPullRequests ? { ...(repo.pulls ?? CREATED_PULLS) } : { ...ENABLED_PULLS };
  for (const k of PULL_KEYS) if (form[k] !== undefined) (config as unknown as Record<string, unknown>)[k] = form[k];
  repo.units.hasPullRequests = true;
  repo.pulls = config;
}

const TOPIC = /^[a-z0-9][-.a-z0-9]*$/;

/** SanitizeAndValidateTopics (models/repo/topic.go:68-92): lower-cased, trimmed, empty and repeated dropped. */
function sanitize(topics: readonly string[]): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const raw of topics) {
    const t = raw.trim().toLowerCase();
    if (t === '' || valid.includes(t)) continue;
    if (t.length <= 35 && TOPIC.test(t)) valid.push(t);
    else invalid.push(t);
  }
  return { valid, invalid };
}

const RepoTopicOptions = option('RepoTopicOptions', [f('topics', 'string[]')]);

/** `repo.UpdateTopics`: 25 at most, then every name valid, else 422 with the invalid ones; 204. */
function updateTopics(ctx: RepoContext): Response {
  const repo = ctx.repo;
  const { valid, invalid } = sanitize(formOf(ctx, RepoTopicOptions).topics ?? []);
  if (valid.length > 25) return json(422, { invalidTopics: null, message: 'Exceeding maximum number of topics per repo' });
  if (invalid.length > 0) return json(422, { invalidTopics: invalid, message: 'Topic names are invalid' });
  repo.topics = [...valid].sort();
  repo.updatedAt = nowIso();
  return empty(204);
}

/** `repo.ListTopics`: `{"topics": [...]}`, paged, with X-Total-Count. */
function listTopics(ctx: RepoContext): Response {
  const topics = ctx.repo.topics ?? [];
  setTotalCountHeader(ctx, topics.length);
  return json(200, { topics: paginate(topics, listOptions(ctx)) });
}

export function registerTopicRoutes(r: ApiRouter, repoRoute: Step[]): void {
  r.on('GET', '/repos/:owner/:repo/topics', ...repoRoute, inRepo(listTopics));
  r.on('PUT', '/repos/:owner/:repo/topics', ...repoRoute, reqToken, reqRepoAdmin, bind(RepoTopicOptions), inRepo(updateTopics));
}
