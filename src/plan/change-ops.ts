import { enclosingScope, requestOf, type Action, type Intent, type CurrentObject, type DesiredObject, type KindWriting, type OpsInput, type OpsSubject, type ReadingKind, type Scope, type ScopeContext } from '../model/index.js';
import type { Change, Op } from '../model/index.js';

/** What a change's requests are built from besides the change itself: the server object and scope as read now. */
export interface OpsBase {
  scope: Scope;
  current?: CurrentObject;
  ctx: ScopeContext;
  prepared?: unknown;
}

/**
 * The request a kind's ops (and dependsOn) get for a change: ONLY what the change shows (its intent: key,
 * from, action, each field's planned value; and its context values), plus the server as read. The
 * planner and apply both build requests through this, so a saved plan can do nothing its display does not say.
 */
export function opsInputOf(kind: ReadingKind, change: Change, intent: Intent, base: OpsBase): OpsInput {
  const shown = Object.fromEntries(change.fields.filter((f) => f.context).map((f) => [f.path, f.after]));
  const desired = change.action === 'delete' ? undefined : { key: change.key, fields: intent.fields, path: [] };
  return { ...requestOf(kind, base.scope, base.ctx), intent, changed: intent.changed, prepared: base.prepared, shown, ...subjectOf(change.id, change.action, desired, base.current) };
}

/**
 * The objects a change of this action is about, as its kind's ops take them. A change without them
 * is a bug of the planner; apply refuses a change whose object is gone as stale before it builds its
 * requests (see rebuildOne in src/apply/verify.ts).
 */
export function subjectOf(id: string, action: Action, desired: DesiredObject | undefined, current: CurrentObject | undefined): OpsSubject {
  const lacking = (what: string) => new Error(`${id}: a ${action} needs ${what}`);
  if (action === 'create') {
    if (!desired) throw lacking('the declared object');
    return { action, desired };
  }
  if (!current) throw lacking('the object as the server has it');
  if (action === 'delete') return { action, current };
  if (!desired) throw lacking('the declared object');
  return { action, desired, current };
}


/** Ops may point at the object another change creates ({"$ref": change id}): that is a dependency. */
export function refsIn(value: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, out));
  else if (value && typeof value === 'object') {
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') out.add(ref);
    else Object.values(value).forEach((v) => refsIn(v, out));
  }
  return out;
}

/**
 * The changes of this plan that make the objects a change's fields name (Kind.references): a branch
 * protection that whitelists a user the plan creates is sent after that user's create.
 */
export function referencedChanges(kind: KindWriting, id: string, input: OpsInput): string[] {
  const out: string[] = [];
  for (const [path, value] of Object.entries(input.intent.fields)) {
    const target = kind.references?.[path];
    if (!target) continue;
    const where = enclosingScope(target.scopeType, input.scope);
    for (const name of Array.isArray(value) ? value : [value]) {
      const made = typeof name === 'string' ? input.ctx.madeBy(target, where, name) : undefined;
      if (made && made !== id) out.push(made);
    }
  }
  return out;
}

/** The changes this one must wait for: objects its requests reference, objects its fields name, what the kind names, the scope's create or un-archiving. */
export function dependenciesOf(kind: KindWriting, change: Change, ops: Op[], input: OpsInput): string[] {
  const named = kind.dependsOn?.(input) ?? [];
  const scopeFirst = [input.scope.pendingCreate, input.scope.writableAfter].filter((id): id is string => id !== undefined && id !== change.id);
  return [...new Set([...refsIn(ops), ...referencedChanges(kind, change.id, input), ...named, ...scopeFirst])];
}
