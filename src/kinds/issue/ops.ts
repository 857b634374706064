import { apiPath } from '../../gitea/path.js';
import type { Op, Writing } from '../../model/index.js';
import { notAnActionOf } from '../actions.js';
import { dueDateToSend } from './due-date.js';
import type { IssueTypes } from './types.js';
import { bodyLockedByServer, mode } from './read.js';

/** How declared labels apply: not a field of the issue; shown with a labels change when exact. */
const LABELS_MODE = 'labels_mode';
/** The body version a body edit was planned from: shown with it, sent, and Gitea answers 409 when it moved on. */
const CONTENT_VERSION = 'content_version';

export const writing = {
  context: [LABELS_MODE, CONTENT_VERSION],

  shown({ action, desired, current, changed, ctx }) {
    if (action !== 'update') return notAnActionOf('issue', action);
    return {
      ...(changed.includes('labels') && mode(desired) === 'exact' ? { [LABELS_MODE]: 'exact' } : {}),
      ...(changed.includes('body') && bodyLockedByServer(ctx.server) ? { [CONTENT_VERSION]: current.meta?.contentVersion } : {}),
    };
  },

  ops({ scope, action, desired: d, current, changed, prepared, shown, ctx }) {
    if (action !== 'update') return notAnActionOf('issue', action);
    const base = apiPath(...scope.segments, 'issues', d.key.slice(1));
    const p = prepared.get(d.key);
    // prepare resolves every issue the changes name, at plan time and again at apply.
    if (!p) throw new Error(`issue ${d.key} of ${scope.name}: its labels and milestone were not resolved`);
    const exact = shown[LABELS_MODE] === 'exact';
    const locked = bodyLockedByServer(ctx.server);
    const ops: Op[] = [];
    // No lock on the server: read the issue again before the first write, and stop if its body moved on.
    if (changed.includes('body') && !locked)
      ops.push({
        method: 'GET',
        path: base,
        expect: { fields: ['body'], message: `issue ${d.key} of ${scope.name}: its body changed since the plan was made (checked by forgeform: the server has no content_version to refuse a stale edit): plan again` },
        onStatus: { '404': `issue ${d.key} of ${scope.name} no longer exists: plan again` },
      });
    const writes = ops.length;
    if (changed.includes('labels')) {
      // Ids only (never ids and names mixed): names may be duplicated, ids are exact.
      const additions = p.targets.filter((t) => !p.currentNames.includes(t.name));
      const removes = exact && p.currentNames.some((n) => !p.targets.some((t) => t.name === n));
      if (exact && p.targets.length === 0) ops.push({ method: 'DELETE', path: `${base}/labels` });
      else if (removes) ops.push({ method: 'PUT', path: `${base}/labels`, body: { labels: p.targets.map((t) => t.id) } });
      else ops.push({ method: 'POST', path: `${base}/labels`, body: { labels: additions.map((t) => t.id) } });
    }
    const body: Record<string, unknown> = {};
    for (const name of changed) {
      const value = d.fields[name];
      if (name === 'labels') continue;
      else if (name === 'milestone') body.milestone = value === null ? 0 : p.milestoneId;
      else if (name === 'due_date') Object.assign(body, value === null ? { unset_due_date: true } : { due_date: dueDateToSend(String(value), current.meta?.utcOffset ?? 'Z') });
      else body[name] = value;
    }
    if ('body' in body && locked) body.content_version = shown[CONTENT_VERSION];
    if (Object.keys(body).length)
      ops.push({
        method: 'PATCH',
        path: base,
        body,
        ...(locked ? { onStatus: { '409': `issue ${d.key} of ${scope.name} changed since the plan was made: plan again` } } : {}),
        ...(ops.length > writes ? { reason: 'Gitea changes the labels and the fields of an issue with separate calls' } : {}),
      });
    return ops;
  },

  /** An assignee whom this plan gives access to the repository (a collaborator's PUT, a team's member or repository): the edit waits for it, or Gitea would refuse the assignee. */
  dependsOn(input) {
    return input.action === 'update' ? (input.prepared.get(input.desired.key)?.grants ?? []) : [];
  },
} satisfies Writing<IssueTypes>;
