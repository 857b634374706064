// A kind's ops request (and its guard's) for one change, as a unit test states it: the change's action and objects, the
// fields it changes. The engine derives it from a change (src/plan/change-ops.ts, opsInputOf); here its
// intent is made from what the test says, with the engine's invariant that a create's or an edit's
// desired fields are the intent's, and the request around it is the engine's (src/model/requests.ts).
import { changeRequest, intentOf, requestOf, type Change, type CurrentObject, type KindSafety, type OpsInput, type OpsSubject, type ReadingKind, type Scope, type ScopeContext } from '../../src/model/index.js';

export type GivenInput = OpsSubject & {
  scope: Scope;
  ctx: ScopeContext;
  /** The names of the fields the change sets; default: every field of `desired` (as a create's). */
  changed?: string[];
  prepared?: unknown;
  shown?: Record<string, unknown>;
};

export function opsInput(kind: ReadingKind, given: GivenInput): OpsInput {
  const { changed, scope, ctx, prepared, shown, ...subject } = given;
  const fields = given.desired?.fields ?? {};
  const from = given.action === 'rename' ? given.current.key : undefined;
  const intent = { fields, changed: changed ?? Object.keys(fields), ...(from !== undefined ? { from } : {}) };
  return { ...requestOf(kind, scope, ctx), ...subject, intent, changed: intent.changed, prepared, shown: shown ?? {} };
}

/** A kind's guard of one change, given the change's intent as the engine derives it (once per run). */
export function guardOf(kind: ReadingKind & KindSafety, change: Change, current: CurrentObject | undefined, ctx: ScopeContext, plan: Change[]): string | undefined {
  return kind.guard?.({ ...changeRequest(kind, change, ctx), change, intent: intentOf(change), current, plan });
}
