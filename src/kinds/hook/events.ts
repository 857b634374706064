import { asSet } from '../fields.js';

const ISSUE_EVENTS = ['issue_assign', 'issue_label', 'issue_milestone', 'issue_comment'];
const PULL_EVENTS = ['pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment', 'pull_request_review', 'pull_request_review_request', 'pull_request_sync'];
/** Gitea stores one "reviewed" flag and reports it as three events. */
const REVIEW_EVENTS = ['pull_request_review_approved', 'pull_request_review_rejected', 'pull_request_review_comment'];

/** Event names as Gitea reports them: lower case, the review event as its three parts, as a set. */
export function normalizeEvents(value: unknown): string[] {
  return asSet(asSet(value).flatMap((e) => (e.toLowerCase() === 'pull_request_review' ? REVIEW_EVENTS : [e.toLowerCase()])));
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
  const pullSubs = [...PULL_EVENTS.filter((e) => e !== 'pull_request_review'), ...REVIEW_EVENTS];
  const issuesAll = have.has('issues') && all(ISSUE_EVENTS);
  const pullAll = have.has('pull_request') && all(pullSubs);
  if (issuesAll) out.add('issues');
  if (pullAll) out.add('pull_request');
  for (const e of have) {
    if ((issuesAll && (e === 'issues' || ISSUE_EVENTS.includes(e))) || (pullAll && (e === 'pull_request' || pullSubs.includes(e)))) continue;
    if (e === 'issues') out.add('issues_only');
    else if (e === 'pull_request') out.add('pull_request_only');
    else if (REVIEW_EVENTS.includes(e)) out.add('pull_request_review');
    else out.add(e);
  }
  return [...out].sort();
}
