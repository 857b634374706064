// What a change means, derived once from what it shows: the values it gives its object's fields, which
// fields those are, a rename's old name, and the copy a delete addresses. The plan file keeps the
// change as it is (its id names a copy as `…#ID`); this is the one place that reads it back.
import type { Change } from './plan.js';

export interface Intent {
  /** The values the change gives its object's fields: not its context values, not a rename's new name. */
  fields: Record<string, unknown>;
  /** The names of those fields, in the change's order. */
  changed: string[];
  /** The old name of a rename. */
  from?: string;
  /** The server id of the copy a delete addresses, when several objects carry its name. */
  copy?: string;
}

/** The change id of a delete of one copy among several of one name: its id with the copy's after `#`. */
export function copyChangeId(id: string, copy: number | string): string {
  return `${id}#${copy}`;
}

export function intentOf(change: Change): Intent {
  const planned = change.fields.filter((f) => !f.context && !(change.action === 'rename' && f.path === 'name'));
  // The id of the change of the object itself (changeId: kind/scope/key); a copy's has `#ID` after it.
  const own = `${change.kind}/${change.scope}/${change.key}`;
  const copy = change.action === 'delete' && change.id.startsWith(`${own}#`) ? change.id.slice(own.length + 1) : undefined;
  return {
    fields: Object.fromEntries(planned.map((f) => [f.path, f.after])),
    changed: planned.map((f) => f.path),
    ...(change.from !== undefined ? { from: change.from } : {}),
    ...(copy !== undefined ? { copy } : {}),
  };
}
