import { serverHas, type Availability, type KindFeature, type KindMeta, type ServerInfo } from '../../model/index.js';
import { asSet } from '../fields.js';

const ISSUE_EVENTS = ['issue_assign', 'issue_label', 'issue_milestone', 'issue_comment'];
const PULL_EVENTS = ['pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment', 'pull_request_review', 'pull_request_review_request', 'pull_request_sync'];
/**
 * What releases report for the one stored "reviewed" flag: Gitea ≤ 1.23 and every Forgejo walk
 * `Webhook.EventCheckers()` (models/webhook/webhook.go, v1.21.11 l.330–332, v1.23.8 l.336–338, Forgejo
 * v7.0.16 l.331–333, v15.0.3 l.348–350) and report it as approved and rejected, and report
 * `pull_request_review_comment` for the `pull_request_comment` flag (`HasPullRequestCommentEvent`);
 * Gitea 1.24+ reports the stored key `pull_request_review` (v1.24.7 l.186, the map's keys).
 */
const REVIEW_PARTS: ReadonlySet<string> = new Set(['pull_request_review_approved', 'pull_request_review_rejected']);
/** Reported beside `pull_request_comment` by the releases that walk the checkers; stored by none, so it says nothing more. */
const MIRRORS_PULL_COMMENT = 'pull_request_review_comment';

/** Event names as the stored flags they report, whatever the release: lower case, the review as `pull_request_review`, as a set. */
export function normalizeEvents(value: unknown): string[] {
  return asSet(
    asSet(value).flatMap((raw) => {
      const e = raw.toLowerCase();
      if (REVIEW_PARTS.has(e)) return ['pull_request_review'];
      return e === MIRRORS_PULL_COMMENT ? [] : [e];
    }),
  );
}

/** The events Gitea stores for the events a create or edit names (`routers/api/v1/utils/hook.go`). */
export function expandEvents(events: string[]): string[] {
  const out: string[] = [];
  for (const raw of events) {
    const e = raw.toLowerCase();
    if (e === 'issues') out.push('issues', ...ISSUE_EVENTS);
    else if (e === 'pull_request') out.push('pull_request', ...PULL_EVENTS);
    else if (e === 'issues_only') out.push('issues');
    else if (e === 'pull_request_only') out.push('pull_request');
    else out.push(e);
  }
  return normalizeEvents(out.length ? out : ['push']);
}

/** The shortest config names that select exactly the events a server reports (export, and edits that keep them). */
export function eventsToConfig(server: unknown): string[] {
  const have = new Set(normalizeEvents(server));
  const out = new Set<string>();
  const all = (list: string[]) => list.every((e) => have.has(e));
  const pullSubs = PULL_EVENTS;
  const issuesAll = have.has('issues') && all(ISSUE_EVENTS);
  const pullAll = have.has('pull_request') && all(pullSubs);
  if (issuesAll) out.add('issues');
  if (pullAll) out.add('pull_request');
  for (const e of have) {
    if ((issuesAll && (e === 'issues' || ISSUE_EVENTS.includes(e))) || (pullAll && (e === 'pull_request' || pullSubs.includes(e)))) continue;
    if (e === 'issues') out.add('issues_only');
    else if (e === 'pull_request') out.add('pull_request_only');
    else out.add(e);
  }
  return [...out].sort();
}

/**
 * Events only some releases set when a hook is created (`addHook`, `routers/api/v1/utils/hook.go`):
 * `package` and `status` from Gitea 1.23 (v1.23.8 l.208–209), `workflow_job` from 1.24 and
 * `workflow_run` from 1.25 (`updateHookEvents`, v1.24.7 l.162, v1.25.4 l.162); Forgejo 14 `package`
 * and `action_run_*` (v14.0.0 and v15.0.3 l.213–216; not in v13.0.0 nor v11.0.15). Elsewhere the server
 * ignores them. The others: every release.
 */
export const CREATE_EVENTS: Record<string, Availability> = {
  package: { gitea: { since: '1.23' }, forgejo: { since: '14' } },
  status: { gitea: { since: '1.23' } },
  workflow_job: { gitea: { since: '1.24' } },
  workflow_run: { gitea: { since: '1.25' } },
  action_run_failure: { forgejo: { since: '14' } },
  action_run_recover: { forgejo: { since: '14' } },
  action_run_success: { forgejo: { since: '14' } },
};

/**
 * Events an edit sets (`editHook`); those a release creates with but does not list here keep their
 * stored value on an edit. Gitea ≤ 1.23 and every Forgejo list the older events one by one (v1.23.8
 * l.361–392, Forgejo v15.0.3 l.328–399); Gitea 1.24 edits through `updateHookEvents` (v1.24.7 l.372).
 */
export const EDIT_EVENTS: Record<string, Availability> = {
  package: { gitea: { since: '1.24' } },
  status: { gitea: { since: '1.24' } },
  workflow_job: { gitea: { since: '1.24' } },
  workflow_run: { gitea: { since: '1.25' } },
  action_run_failure: {},
  action_run_recover: {},
  action_run_success: {},
};

/** Each release-dependent event as a kind feature: a config naming it on a release without it is a plan error at its place. */
export const eventFeatures: Record<string, KindFeature> = Object.fromEntries(
  Object.entries(CREATE_EVENTS).map(([event, availability]) => [
    `event_${event}`,
    { availability, what: `event ${event}`, usedBy: (d: Record<string, unknown>) => (Array.isArray(d.events) && d.events.some((e) => String(e).toLowerCase() === event) ? 'events' : undefined) },
  ]),
);

/** The events of an existing hook that differ from what is declared and that this release's edit cannot change. */
export function eventsEditCannotChange(want: string[], have: string[], server: ServerInfo): string[] {
  const a = new Set(want);
  const b = new Set(have);
  const differ = [...new Set([...want, ...have])].filter((e) => a.has(e) !== b.has(e));
  return differ.filter((e) => e in EDIT_EVENTS && !serverHas(server, EDIT_EVENTS[e])).sort();
}

/**
 * Hook types only some releases accept (`IsValidHookTaskType`): `forgejo` is Forgejo's own
 * (`services/webhook/webhook.go` `webhookHandlers`, `defaultHandler{true}`, v7.0.16 l.44), and so is
 * `sourcehut_builds` (l.57); Gitea answers 422 `Invalid hook type`.
 */
const TYPE_FEATURES: Record<string, KindFeature> = Object.fromEntries(
  ['forgejo', 'sourcehut_builds'].map((type) => [`type_${type}`, { availability: { forgejo: {} }, what: `type ${type}`, usedBy: (d: Record<string, unknown>) => (d.type === type ? 'type' : undefined) }]),
);

/** Every release-dependent thing a hook's config may ask for: its type, its events. */
export const hookFeatures: Record<string, KindFeature> = { ...TYPE_FEATURES, ...eventFeatures };

/**
 * What admin hooks and repository or organisation webhooks are alike in (the same create and edit handlers,
 * routers/api/v1/utils/hook.go): their actions, a replace (delete + create) for --rotate-secrets, since Gitea
 * cannot change a hook's secret in place, and the release-dependent types and events.
 */
export const hookMeta = {
  actions: ['create', 'update', 'delete', 'replace'],
  replaceToRotate: true,
  features: hookFeatures,
} satisfies Pick<KindMeta, 'actions' | 'replaceToRotate' | 'features'>;
