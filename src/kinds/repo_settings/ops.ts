import { apiPath } from '../../gitea/path.js';
import type { Op, Writing } from '../../model/index.js';
import { notAnActionOf } from '../actions.js';
import { PULL_REQUEST_SETTINGS } from './fields.js';
import type { RepoSettingsTypes } from './types.js';

const PR_SETTINGS: ReadonlySet<string> = new Set(PULL_REQUEST_SETTINGS);

/**
 * One PATCH /repos/{o}/{r} with the changed fields (a repository this plan creates: every declared
 * one), and one PUT /repos/{o}/{r}/topics with the whole set when the topics differ. Nothing else is
 * written to an archived repository: when this change archives it, the topics go first and the PATCH
 * (which archives last, after the other properties: repo.Edit) follows; when it un-archives, the PATCH
 * comes first.
 */
export const writing = {
  ops(req) {
    const { scope, action, changed } = req;
    if (action === 'delete') return notAnActionOf('repository settings', action);
    const { desired, current } = req;
    const want = desired.fields;
    const names = action === 'create' ? Object.keys(want) : changed;
    const body: Record<string, unknown> = {};
    for (const name of names) if (name !== 'topics') body[name] = want[name];
    // updateRepoUnits applies pull-request settings only when has_pull_requests: true is in the same body.
    if (Object.keys(body).some((n) => PR_SETTINGS.has(n)) && !('has_pull_requests' in body))
      body.has_pull_requests = want.has_pull_requests ?? current?.fields.has_pull_requests ?? true;
    const repo = apiPath(...scope.segments);
    // An edit of a repository read by its own GET rests on no list but its own: left to the default
    // (`repos/`), it would prove every list of every repository that ended on X-Total-Count.
    const patch: Op[] = Object.keys(body).length ? [{ method: 'PATCH', path: repo, body, idempotent: true, restsOn: `${repo}/` }] : [];
    const topics: Op[] = names.includes('topics') ? [{ method: 'PUT', path: apiPath(...scope.segments, 'topics'), body: { topics: want.topics }, idempotent: true }] : [];
    return body.archived === true ? [...topics, ...patch] : [...patch, ...topics];
  },
} satisfies Writing<RepoSettingsTypes>;
