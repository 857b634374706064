import type { Action } from '../model/index.js';

/**
 * A change of an action its kind does not list in `actions` reached its ops: the planner never makes
 * one, and apply refuses a plan file that holds one (plan-shape.ts), so this is a bug. It narrows
 * OpsInput for kinds with few actions (a repository is only created, an issue only updated).
 */
export function notAnActionOf(kind: string, action: Action): never {
  throw new Error(`a ${kind} change cannot be a ${action}`);
}
