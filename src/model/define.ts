// How a kind is written: `defineKind` takes a kind's typed definition (src/model/kind.ts: KindDefinition,
// whose every phase receives one request object) and gives it to the engine as it is, its types erased.
import type { Kind, KindDefinition, KindTypes } from './kind.js';
import type { ObjectMeta } from './object.js';

export { RunStates } from './run-states.js';

/**
 * A kind, from its definition typed by its KindTypes (its scope's config, its server answer, what its
 * prepare returns, its state for one run, the meta of its objects as read and as declared): the same
 * object, which the engine knows as a `Kind` (KindDefinition<AnyKindTypes>). No adapter stands
 * between the engine and the kind: the engine builds each request (src/model/requests.ts) and calls the
 * kind's own facet with it.
 */
export function defineKind<ScopeConfig, Server, Prepared = undefined, RunState = undefined, Meta extends object = ObjectMeta, DeclaredMeta extends object = ObjectMeta>(
  def: KindDefinition<KindTypes<ScopeConfig, Server, Prepared, RunState, Meta, DeclaredMeta>>,
): Kind {
  // The one place the kinds' types are erased (test/unit/kind-casts.test.ts allows it alone). Sound
  // because the engine hands a kind back only values of its own: the config entry of its scope
  // (checked by the schema against the type generated from it, src/config/schema-types.ts), a server
  // answer whose shape was checked (by the client, or by apply before it reads a write's answer), the
  // objects its read/fromServer and desired made (with the meta they wrote) or rebuilt from what a
  // change shows (no meta), what its own prepare returned (nothing where it has none), and the state
  // its own runState made for this run (undefined where it has none; RunStates keys it by the kind).
  return def as unknown as Kind;
}
