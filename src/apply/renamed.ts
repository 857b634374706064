// Another run (or a human) renamed an object between the plan's reads and apply's writes: what
// Gitea's redirect for the old name means to the change that was on its way.
import { ApiError, statusText } from '../gitea/errors.js';
import type { Intent } from '../model/index.js';

/** The change's object as its intent names it: its name now, and for a rename (only a rename has one) its old name. */
export type RenameOf = Pick<Intent, 'from'> & { key: string };

/** What a redirect answered to one of a change's requests means (see renamedMeanwhile). */
export interface Redirected {
  /** The change's own rename was already done: the note to show; the change goes on with its next request. */
  note?: string;
  /** The name moved elsewhere since the plan read it: the change stops with this error. */
  error?: string;
}

/**
 * Gitea answers a request for a name that exists only as a rename's leftover (a user's old name) with
 * 307 to the same path under the new name. To a rename that means another run (or a human) did it
 * first: done, nothing to send. To any other request, the object moved on since the plan read it, and
 * the message says so (not "update the config": the config may be right, the plan is stale).
 * Undefined when the answer is no such redirect (one to another origin is a proxy's, left to the client).
 */
export function renamedMeanwhile(change: RenameOf, op: { path: string }, error: unknown, title: string): Redirected | undefined {
  if (!(error instanceof ApiError) || error.status === undefined || error.status < 300 || error.status >= 400) return undefined;
  if (!error.location?.startsWith('/') || error.location.startsWith('//')) return undefined;
  const sent = op.path.split('/').map(decoded);
  // The Location is the whole path (any prefix the server lives under, /api/v1/): its tail matches the request's path.
  const now = new URL(error.location, 'http://server.invalid').pathname.split('/').map(decoded).slice(-sent.length);
  const moved = sent.flatMap((s, i) => (s === now[i] ? [] : [i]));
  if (now.length !== sent.length || moved.length !== 1) return undefined;
  const [was, is] = [sent[moved[0]!]!, now[moved[0]!]!];
  if (change.from !== undefined && was === change.from && is === change.key) return { note: `it was already renamed to "${is}" (by another run?): nothing to do for the rename` };
  const answer = `${error.method} /api/v1/${sent.join('/')} → ${error.status} ${statusText(error.status)}, to ${decoded(error.location)}`;
  return { error: `${title} "${was}" was renamed to "${is}" on the server since the plan read it (by another run or by hand), so nothing more was sent for this change (${answer}): plan again to see what is left` };
}

function decoded(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
