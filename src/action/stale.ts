import { isDeepStrictEqual } from 'node:util';
import type { Change, Plan } from '../plan/types.js';

/** What decides a change: everything but presentation (notes). */
function essence(c: Change): unknown {
  return { kind: c.kind, scope: c.scope, key: c.key, action: c.action, from: c.from, fields: c.fields, precondition: c.precondition, depends_on: c.depends_on, ops: c.ops };
}

/**
 * Why a reviewed plan no longer describes what applying it would do, compared with a plan made now
 * from the same inputs (both as saved plan files, so secrets are references on both sides). Empty
 * when they agree. Stricter than the CLI's own check, which refuses only the changed objects and
 * applies the rest: a GitOps merge applies the reviewed plan whole, or nothing.
 */
export function staleReasons(reviewed: Plan, now: Plan): string[] {
  const reasons: string[] = [];
  if (reviewed.server.url.replace(/\/+$/, '') !== now.server.url.replace(/\/+$/, '')) reasons.push(`it was made for ${reviewed.server.url}, not ${now.server.url}`);
  else if (reviewed.server.flavour !== now.server.flavour || reviewed.server.version !== now.server.version)
    reasons.push(`it was made for ${reviewed.server.flavour ?? 'an unknown server'} ${reviewed.server.version ?? ''}, but the server now runs ${now.server.flavour ?? '?'} ${now.server.version ?? '?'}`.replace(/ +/g, ' '));
  if (reviewed.config_digest !== now.config_digest) reasons.push('the configuration changed since the plan was made (another change was merged, or commits were added after the review)');
  const before = new Map(reviewed.changes.map((c) => [c.id, c]));
  const after = new Map(now.changes.map((c) => [c.id, c]));
  const label = (c: Change) => `${c.action} ${c.kind} "${c.key}" in ${c.scope}`;
  for (const [id, c] of before) {
    const n = after.get(id);
    if (!n) reasons.push(`${label(c)} is no longer needed`);
    else if (n.action !== c.action) reasons.push(`${label(c)} would now be ${n.action === 'update' ? 'an' : 'a'} ${n.action}: the server changed since the plan was made`);
    else if (!isDeepStrictEqual(essence(c), essence(n))) reasons.push(`${label(c)} is not the same any more: the server or the configuration changed since the plan was made`);
  }
  for (const [id, c] of after) if (!before.has(id)) reasons.push(`${label(c)} is needed now but was not reviewed`);
  return reasons;
}
