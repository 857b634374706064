// The planner's project step: each kind's objects in each scope as the plan leaves them, for the
// kinds planned after it (issue labels resolved against the labels as the plan leaves them, a
// repository waiting for its owner's creation). Kinds ask through ctx.projected; plan and apply
// (for a saved plan) record what they planned here.
import { intentOf, scopeId, type Change, type Intent, type CurrentObject, type KindMeta, type ProjectedObject, type ReadingKind, type Scope, type ScopeContext } from '../model/index.js';

/** What one plan (or one check of a saved plan) has projected, kind by kind and scope by scope. */
export class Projection {
  private readonly done = new Map<string, ProjectedObject[] | undefined>();
  private readonly pending = new Set<string>();
  /** The kind being planned: it may ask only for the kinds its `after` names. */
  asking: KindMeta | undefined;
  /**
   * Whether this plan creates the scope (nothing is in it to read). A kind may name a scope it builds
   * itself (the organisation of a repository, as `{ type: 'org', name }`), without its pendingCreate: the
   * run that knows the scopes says it here (the planner from the scopes it resolved, a saved plan's check
   * from its creates).
   */
  createsScope: (scope: Scope) => boolean = (scope) => scope.pendingCreate !== undefined;

  /** This kind is planned in this scope later: until it is, its projection is not known. */
  expect(kind: KindMeta, scope: Scope): void {
    this.pending.add(keyOf(kind, scope));
  }

  /** This kind is planned in this scope; without objects (it could not be read), it is as the server has it. */
  record(kind: KindMeta, scope: Scope, objects?: ProjectedObject[]): void {
    this.pending.delete(keyOf(kind, scope));
    this.done.set(keyOf(kind, scope), objects);
  }

  /** The objects as the plan leaves them; where the plan does not plan the kind, as the server has them. */
  async get(kind: ReadingKind, scope: Scope, ctx: ScopeContext): Promise<ProjectedObject[]> {
    const objects = this.planned(kind, scope);
    if (objects) return objects;
    // Not managed here by this plan: as the server has it (nothing in a scope the plan creates).
    return this.createsScope(scope) ? [] : project(await ctx.currentOf(kind, scope), [], { sourceOf: () => undefined, intentOf });
  }

  /** The change after which the object `key` exists under that name, when this plan makes one. */
  madeBy(kind: KindMeta, scope: Scope, key: string): string | undefined {
    return this.planned(kind, scope)?.find((o) => o.key === key && o.madeBy)?.madeBy;
  }

  /** The objects as the plan leaves them where it plans the kind in the scope (see ScopeContext.planned); nothing is read. */
  planned(kind: KindMeta, scope: Scope): ProjectedObject[] | undefined {
    const asking = this.asking;
    if (asking && asking.name !== kind.name && !(asking.after ?? []).includes(kind.name))
      throw new Error(`kind ${asking.name} asks for the ${kind.name} objects as the plan leaves them, but its after does not name ${kind.name}`);
    const key = keyOf(kind, scope);
    if (this.pending.has(key)) throw new Error(`the ${kind.name} objects of ${scopeId(scope)} are asked for before they are planned`);
    return this.done.get(key);
  }
}

function keyOf(kind: KindMeta, scope: Scope): string {
  return `${kind.name} ${scopeId(scope)}`;
}

/** What projecting a group's changes asks of the run: the server object each was computed from, and what each means. */
export interface ProjectionSources {
  sourceOf(changeId: string): CurrentObject | undefined;
  /** The change's intent as the run derived it (src/model/intent.ts): the values it gives its object's fields. */
  intentOf(change: Change): Intent;
}

/**
 * The objects once the changes are made: each server object with the change computed from it (found
 * by `sourceOf`) applied with the values its intent plans, those deleted left out, and those created added.
 */
export function project(current: CurrentObject[], changes: Change[], run: ProjectionSources): ProjectedObject[] {
  const changeOf = new Map<CurrentObject, Change>();
  for (const c of changes) {
    const source = run.sourceOf(c.id);
    // A create has no server object, even when one of its name appeared since the plan (a stale create).
    if (source && c.precondition.digest !== null) changeOf.set(source, c);
  }
  const planned = (c: Change) => run.intentOf(c).fields;
  const out: ProjectedObject[] = [];
  for (const o of current) {
    const c = changeOf.get(o);
    if (c?.action === 'delete') continue;
    if (c?.action === 'replace') out.push({ key: c.key, id: { $ref: c.id }, fields: { ...o.fields, ...planned(c) }, madeBy: c.id });
    else if (c?.action === 'rename') out.push({ key: c.key, id: o.id, fields: { ...o.fields, ...planned(c) }, madeBy: c.id });
    else if (c) out.push({ key: o.key, id: o.id, fields: { ...o.fields, ...planned(c) }, changedBy: c.id });
    // Unchanged, it is as read: the server object stands for itself (no copy of every object read).
    else out.push(o as ProjectedObject);
  }
  for (const c of changes) if (c.action === 'create') out.push({ key: c.key, id: { $ref: c.id }, fields: planned(c), madeBy: c.id });
  return out;
}
