/** Admin hooks: event sets, the API object, and creating a hook (`utils.addHook`), for the routes and the seed loader. */
import type { AdminHookRecord, HookEventMap, WebhookRecord } from './records.js';
import { nowIso, type SandboxState } from '../../core/state.js';
import { failure, isFailure, type Failure } from '../../core/failure.js';
import type { Flavour } from '../../flavours/flavour.js';
import type { Availability } from '../../flavours/availability.js';
import { available, hasQuirk, HOOK_EVENTS, shapeAnswer } from '../../flavours/releases.js';
import { CreateHookOption } from './options.js';
import type { FormOf } from '../../http/options.js';
import { parseGoBool } from '../../http/form.js';

/** `IsValidHookTaskType`: gitea, gogs and the registered handlers (matrix included, although the swagger enum lacks it). */
export const HOOK_TYPES = ['gitea', 'gogs', 'slack', 'discord', 'dingtalk', 'telegram', 'msteams', 'feishu', 'matrix', 'wechatwork', 'packagist'];

/**
 * Forgejo's handlers add `forgejo` (`defaultHandler{true}`) and `sourcehut_builds`
 * (`services/webhook/webhook.go` `webhookHandlers`, v7.0.16, v11.0.15 and v15.0.3 l.43–58).
 */
const FORGEJO_HOOK_TYPES = ['forgejo', 'sourcehut_builds'];

/** The hook types a release accepts (no flavour: the seed loader, which accepts every one). */
export function hookTypes(flavour?: Flavour): string[] {
  return !flavour || flavour.fork === 'forgejo' ? [...HOOK_TYPES, ...FORGEJO_HOOK_TYPES] : HOOK_TYPES;
}

/** `webhook_module.AllEvents()`: what a "send everything" hook lists. */
export const ALL_HOOK_EVENTS = [
  'create', 'delete', 'fork', 'push', 'issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment', 'pull_request', 'pull_request_assign',
  'pull_request_label', 'pull_request_milestone', 'pull_request_comment', 'pull_request_review_approved', 'pull_request_review_rejected',
  'pull_request_review_comment', 'pull_request_sync', 'pull_request_review_request', 'wiki', 'repository', 'release', 'package', 'status', 'workflow_run',
  'workflow_job',
];

const PLAIN_EVENTS = ['create', 'push', 'delete', 'fork', 'repository', 'wiki', 'release', 'package', 'status', 'workflow_run', 'workflow_job', 'action_run_failure', 'action_run_recover', 'action_run_success'];
export const ISSUE_EVENTS = ['issue_assign', 'issue_label', 'issue_milestone', 'issue_comment'];
export const PULL_EVENTS = ['pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment', 'pull_request_review', 'pull_request_review_request', 'pull_request_sync'];

/**
 * `updateHookEvents`: names compared case-insensitively, unknown ones ignored, none → `push`;
 * `issues` / `pull_request` select their whole group, `issues_only` / `pull_request_only` just
 * the main event.
 */
export function updateHookEvents(input: string[] | undefined, flavour?: Flavour): HookEventMap {
  const events = (input && input.length > 0 ? input : ['push']).map((e) => e.toLowerCase());
  // An event the release's handler does not look at is never set (releases.ts HOOK_EVENTS).
  const has = (e: string): boolean => events.includes(e) && (!flavour || available(flavour, HOOK_EVENTS[e]));
  const map: HookEventMap = {};
  for (const e of PLAIN_EVENTS) map[e] = has(e);
  map.issues = has('issues_only') || has('issues');
  for (const e of ISSUE_EVENTS) map[e] = has(e) || has('issues');
  map.pull_request = has('pull_request_only') || has('pull_request');
  for (const e of PULL_EVENTS) map[e] = has(e) || has('pull_request');
  return map;
}

/**
 * `Webhook.EventCheckers()` (models/webhook/webhook.go: Gitea v1.21.11 l.308, v1.22.6 l.309, v1.23.8
 * l.314; Forgejo v7.0.16 l.309, v11.0.15 l.309, v15.0.3 l.326): what `EventsArray` reports where
 * it walks this list (QUIRKS `hookEventsByCheckers`), in this order, each entry true when the stored
 * flag it checks is. The review is reported as approved and rejected (`HasPullRequestApprovedEvent`,
 * `…RejectedEvent`: the `pull_request_review` flag), and `pull_request_review_comment` by
 * `HasPullRequestCommentEvent` (v1.21.11 l.332, v1.23.8 l.338, v7.0.16 l.333, v15.0.3 l.350): the
 * `pull_request_comment` flag, not the review's. `status` is listed from Gitea 1.23, `action_run_*`
 * in Forgejo (v15.0.3 l.353–355).
 */
const EVENT_CHECKERS: readonly (readonly [reported: string, flag: string, has?: Availability])[] = [
  ['create', 'create'], ['delete', 'delete'], ['fork', 'fork'], ['push', 'push'],
  ['issues', 'issues'], ['issue_assign', 'issue_assign'], ['issue_label', 'issue_label'], ['issue_milestone', 'issue_milestone'], ['issue_comment', 'issue_comment'],
  ['pull_request', 'pull_request'], ['pull_request_assign', 'pull_request_assign'], ['pull_request_label', 'pull_request_label'],
  ['pull_request_milestone', 'pull_request_milestone'], ['pull_request_comment', 'pull_request_comment'],
  ['pull_request_review_approved', 'pull_request_review'], ['pull_request_review_rejected', 'pull_request_review'], ['pull_request_review_comment', 'pull_request_comment'],
  ['pull_request_sync', 'pull_request_sync'], ['wiki', 'wiki'], ['repository', 'repository'], ['release', 'release'], ['package', 'package'],
  ['pull_request_review_request', 'pull_request_review_request'], ['status', 'status', { gitea: { since: '1.23' } }],
  ['action_run_failure', 'action_run_failure', { forgejo: {} }], ['action_run_recover', 'action_run_recover', { forgejo: {} }], ['action_run_success', 'action_run_success', { forgejo: {} }],
];

/**
 * `Webhook.EventsArray()`: from Gitea 1.24 it iterates a Go map (a new random order on every call,
 * the stored keys: `pull_request_review` as such); before, and in every Forgejo, it walks
 * {@link EVENT_CHECKERS}. Without a flavour (the stored flags): the map.
 */
export function eventsArray(h: AdminHookRecord, flavour?: Flavour): string[] {
  if (flavour && hasQuirk(flavour, 'hookEventsByCheckers')) {
    const listed = EVENT_CHECKERS.filter(([, , has]) => available(flavour, has));
    if (h.pushOnly && !h.sendEverything) return ['push'];
    return listed.filter(([, flag]) => h.sendEverything || h.events[flag] === true).map(([reported]) => reported);
  }
  if (h.sendEverything) return [...ALL_HOOK_EVENTS];
  if (h.pushOnly) return ['push'];
  const out = Object.keys(h.events).filter((e) => h.events[e]);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** `webhook_service.ToHook`: `config` holds url and content type (and the Slack settings) only. */
export function toHook(h: AdminHookRecord, flavour?: Flavour): Record<string, unknown> {
  const config: Record<string, string> = { url: h.url, content_type: h.contentType };
  if (h.type === 'slack') {
    config.channel = h.slack?.channel ?? '';
    config.username = h.slack?.username ?? '';
    config.icon_url = h.slack?.iconUrl ?? '';
    config.color = h.slack?.color ?? '';
  }
  return shapeAnswer(flavour, 'Hook', {
    id: h.id,
    name: h.name,
    type: h.type,
    branch_filter: h.branchFilter,
    // Forgejo only (shapeAnswer drops them elsewhere); `metadata` is the handler's, nil (null) but for Slack.
    url: h.url,
    content_type: h.contentType,
    metadata: h.type === 'slack' ? { channel: h.slack?.channel ?? '', username: h.slack?.username ?? '', icon_url: h.slack?.iconUrl ?? '', color: h.slack?.color ?? '' } : null,
    config,
    events: eventsArray(h, flavour),
    // Hidden since PR #38406 (upstream main after v1.27.0-rc0); every release before returns it decrypted.
    authorization_header: flavour && hasQuirk(flavour, 'hookAuthorizationInClear') ? h.authorizationHeader : '',
    active: h.active,
    updated_at: h.updatedAt,
    created_at: h.createdAt,
  });
}

/** `validation.IsValidURL`: an absolute http(s) URL whose port, if any, is digits. */
export function isValidHookUrl(url: string): boolean {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)/.exec(url);
  if (!m || !['http', 'https'].includes(m[1]!.toLowerCase())) return false;
  try {
    new URL(url);
  } catch {
    return false;
  }
  const hostport = m[2]!.replace(/^[^@]*@/, '');
  const bracket = hostport.lastIndexOf(']:');
  const port = bracket >= 0 ? hostport.slice(bracket + 2) : hostport.includes(']') ? '' : hostport.includes(':') ? hostport.slice(hostport.indexOf(':') + 1) : '';
  return /^\d*$/.test(port);
}


const SLACK_CHANNEL = /^#?[a-z0-9_-]{1,80}$/;

export type CreateHookForm = FormOf<typeof CreateHookOption>;

/** `utils.addHook` for an admin hook (no owner, no repository), after binding. */
export function createAdminHook(state: SandboxState, form: CreateHookForm, flavour?: Flavour): AdminHookRecord | Failure {
  const hook = newHook(state, form, flavour);
  if (!isFailure(hook)) state.data.adminHooks.push(hook);
  return hook;
}

/** `utils.AddRepoHook` / `AddOwnerHook`: the same `addHook`, with the repository's or the owner's id. */
export function createWebhook(state: SandboxState, place: { repoId: number } | { ownerId: number }, form: CreateHookForm, flavour?: Flavour): WebhookRecord | Failure {
  const hook = newHook(state, form, flavour);
  if (isFailure(hook)) return hook;
  const row: WebhookRecord = { ...hook, repoId: 'repoId' in place ? place.repoId : 0, ownerId: 'ownerId' in place ? place.ownerId : 0 };
  state.data.webhooks.push(row);
  return row;
}

/** `utils.addHook`: checks, then the row (not stored yet). */
function newHook(state: SandboxState, form: CreateHookForm, flavour?: Flavour): AdminHookRecord | Failure {
  const config = form.config ?? {};
  // checkCreateHookOption
  if (!hookTypes(flavour).includes(form.type)) return failure(422, `Invalid hook type: ${form.type}`);
  for (const name of ['url', 'content_type']) if (!Object.hasOwn(config, name)) return failure(422, `Missing config option: ${name}`);
  if (config.content_type !== 'json' && config.content_type !== 'form') return failure(422, 'Invalid content type');
  if ((!flavour || hasQuirk(flavour, 'hookChecksUrl')) && !isValidHookUrl(config.url!)) return failure(422, 'Invalid url');
  let isSystem = false;
  if (config.is_system_webhook) {
    const v = parseGoBool(config.is_system_webhook);
    if (v === undefined) return failure(422, 'Invalid is_system_webhook value');
    isSystem = v;
  }
  let slack: AdminHookRecord['slack'] = null;
  if (form.type === 'slack') {
    if (!Object.hasOwn(config, 'channel')) return failure(422, 'Missing config option: channel');
    const channel = config.channel!.trim();
    if (!SLACK_CHANNEL.test(channel)) return failure(400, 'Invalid slack channel name');
    slack = { channel, username: config.username ?? '', iconUrl: config.icon_url ?? '', color: config.color ?? '' };
  }
  const now = nowIso();
  const hook: AdminHookRecord = {
    id: state.nextId('webhook'),
    type: form.type.trim(),
    name: (form.name ?? '').trim(),
    url: config.url!,
    contentType: config.content_type,
    secret: config.secret ?? '',
    authorizationHeader: form.authorization_header ?? '',
    isSystem,
    active: form.active ?? false,
    branchFilter: form.branch_filter ?? '',
    pushOnly: false,
    sendEverything: false,
    events: updateHookEvents(form.events, flavour),
    slack,
    createdAt: now,
    updatedAt: now,
  };
  return hook;
}
