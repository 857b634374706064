/**
 * The reviewed plan travels through the forge: the plan job writes what it showed (its changes,
 * fingerprinted, and the commit and shard it planned) into a hidden part of its own pull-request
 * comment, and the apply job on merge reads it back from there. No cache, no artifact: every forge
 * keeps comments, and only the workflow's own user can write this one (see comment.ts).
 *
 * The apply compares changes, not configurations: it plans the merged configuration again and
 * applies only when that plan's changes are exactly the reviewed ones — the same objects, the same
 * fields, the same values. Another pull request merged in between touches other objects, so it does
 * not stop this one; a change to one of the reviewed objects does.
 */
import { createHash } from 'node:crypto';
import type { Change, Plan } from '../plan/types.js';

export interface Reviewed {
  v: 1;
  /** The commit that was planned (the pull request's head). */
  head: string;
  /** K/N, or ''. */
  shard: string;
  /** Digest of all the changes below. */
  digest: string;
  /** How many changes, and how many of them delete something (for the budget shared by shards). */
  count: number;
  deletes: number;
  /** [change id, fingerprint], when they fit in a comment; else only the digest is compared. */
  changes?: [string, string][];
}

/** JSON with sorted object keys: the same value always gives the same text. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * What a reviewer saw of a change: which object, what happens to it, each field with its values.
 * Not the requests (ids the server picks) nor the precondition digests (fields nobody manages).
 * Taken from a saved plan file, where a secret is its `${NAME}` reference, never its value.
 */
function fingerprint(c: Change): string {
  return sha256(canonical({ kind: c.kind, scope: c.scope, key: c.key, action: c.action, from: c.from, fields: c.fields })).slice(0, 16);
}

/** Changes listed above this many characters are compared by their digest alone. */
const MAX_LISTED = 24_000;

export function reviewedRecord(planFile: Plan, head: string, shard: string): Reviewed {
  const changes = planFile.changes.map((c): [string, string] => [c.id, fingerprint(c)]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const record: Reviewed = {
    v: 1,
    head,
    shard,
    digest: sha256(canonical(changes)),
    count: changes.length,
    deletes: planFile.changes.filter((c) => c.action === 'delete').length,
  };
  return JSON.stringify(changes).length <= MAX_LISTED ? { ...record, changes } : record;
}

const RECORD = /<!-- forgeform:reviewed ([A-Za-z0-9_-]+) -->/;

/** The record as a hidden line of the comment (base64url: nothing in it can end the HTML comment). */
export function recordLine(r: Reviewed): string {
  return `<!-- forgeform:reviewed ${Buffer.from(JSON.stringify(r)).toString('base64url')} -->`;
}

export function readRecord(body: string): Reviewed | undefined {
  const m = RECORD.exec(body);
  if (!m) return undefined;
  try {
    const r = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8')) as Reviewed;
    return r && r.v === 1 && typeof r.digest === 'string' && typeof r.head === 'string' ? r : undefined;
  } catch {
    return undefined;
  }
}

/** Why the fresh plan is not the reviewed one, in the user's words; empty when it is exactly. */
export function differences(reviewed: Reviewed, fresh: Plan): string[] {
  const now = reviewedRecord(fresh, reviewed.head, reviewed.shard);
  if (now.digest === reviewed.digest) return [];
  if (!reviewed.changes || !now.changes) return [`the plan made now (${now.count} changes) is not the reviewed one (${reviewed.count} changes)`];
  const label = new Map(fresh.changes.map((c) => [c.id, `${c.action} ${c.kind} "${c.key}" in ${c.scope}`]));
  const before = new Map(reviewed.changes);
  const after = new Map(now.changes);
  const reasons: string[] = [];
  for (const [id, fp] of before) {
    const n = after.get(id);
    if (n === undefined) reasons.push(`${id} was reviewed but is no longer needed`);
    else if (n !== fp) reasons.push(`${label.get(id)} is not what was reviewed: the server or the configuration changed since the plan was made`);
  }
  for (const id of after.keys()) if (!before.has(id)) reasons.push(`${label.get(id)} is needed now but was not reviewed`);
  return reasons;
}
