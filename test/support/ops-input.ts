// A kind's ops input (and its guard) for one change, as a unit test states it: the change's action and objects, the
// fields it changes. The engine derives it from a change (src/plan/change-ops.ts, opsInputOf); here its
// intent is made from what the test says, with the engine's invariant that a create's or an edit's
// desired fields are the intent's.
import { intentOf, type Change, type CurrentObject, type KindSafety, type OpsInput, type OpsSubject, type Scope, type ScopeContext } from '../../src/model/index.js';

export type GivenInput = OpsSubject & {
  scope: Scope;
  ctx: ScopeContext;
  /** The names of the fields the change sets; default: every field of `desired` (as a create's). */
  changed?: string[];
  prepared?: unknown;
  shown?: Record<string, unknown>;
};

export function opsInput(given: GivenInput): OpsInput {
  const { changed, ...input } = given;
  const fields = given.desired?.fields ?? {};
  const from = given.action === 'rename' ? given.current.key : undefined;
  return { ...input, intent: { fields, changed: changed ?? Object.keys(fields), ...(from !== undefined ? { from } : {}) } };
}

/** A kind's guard of one change, given the change's intent as the engine derives it (once per run). */
export function guardOf(kind: KindSafety, change: Change, current: CurrentObject | undefined, ctx: ScopeContext, plan: Change[]): string | undefined {
  return kind.guard?.(change, current, ctx, plan, intentOf(change));
}
