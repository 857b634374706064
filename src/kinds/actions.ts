import type { Action, CurrentObject } from '../model/index.js';

/**
 * A change of an action its kind does not list in `actions` reached its ops: the planner never makes
 * one, and apply refuses a plan file that holds one (plan-shape.ts), so this is a bug. It narrows
 * OpsInput for kinds with few actions (a repository is only created, an issue only updated).
 */
export function notAnActionOf(kind: string, action: Action): never {
  throw new Error(`a ${kind} change cannot be a ${action}`);
}

/**
 * The server id of an object read from a list that gives every object one (runners, hooks): a read
 * object without one is a bug of the kind's fromServer, never a request to an "undefined" path.
 */
export function idOf(kind: string, current: CurrentObject): number | string {
  if (current.id === undefined) throw new Error(`the ${kind} "${current.key}" was read without an id`);
  return current.id;
}
