// What a change means, derived once from what it shows: the values it gives its object's fields, which
// fields those are, a rename's old name, and the copy a delete addresses. The plan file keeps the
// change as it is (its id names a copy as `…#ID`); this is the one place that reads it back.
import type { Action, Change, FieldChange } from './plan.js';

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

/** The copy a change id addresses after its object's own change id (`own`), as copyChangeId writes it; undefined: the object itself. */
export function copyIn(id: string, own: string): string | undefined {
  return id.startsWith(`${own}#`) ? id.slice(own.length + 1) : undefined;
}

/**
 * A rename's `name` (before: the old name, after: the new one): what its headline shows and its key
 * says, not a field its requests set. A plan file's rename carries it among its fields; nothing else
 * is read from it. Every reader of a change's fields asks this, where it checks, shows or sends them.
 */
export function isRenamedName(action: Action, path: string): boolean {
  return action === 'rename' && path === 'name';
}

/** The field values a change plans for its object: neither its context values nor a rename's name. */
export function plannedFields(change: Pick<Change, 'action' | 'fields'>): FieldChange[] {
  return change.fields.filter((f) => !f.context && !isRenamedName(change.action, f.path));
}

export function intentOf(change: Change): Intent {
  const planned = plannedFields(change);
  // The id of the change of the object itself (changeId: kind/scope/key); a copy's has `#ID` after it.
  const own = `${change.kind}/${change.scope}/${change.key}`;
  const copy = change.action === 'delete' ? copyIn(change.id, own) : undefined;
  return {
    fields: Object.fromEntries(planned.map((f) => [f.path, f.after])),
    changed: planned.map((f) => f.path),
    ...(change.from !== undefined ? { from: change.from } : {}),
    ...(copy !== undefined ? { copy } : {}),
  };
}
