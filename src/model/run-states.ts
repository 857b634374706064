// The kinds' state for one run (see KindState in kind.ts), kept by the run's context.

/**
 * Each kind's state for one run, made on the first ask and kept by the run's context: a memo of one
 * plan's lookups never outlives that plan, and no kind keeps a module-level map. The engine knows a
 * state as `unknown` (see Kind): the kind gets it back typed, as its own `run`, through defineKind.
 */
export class RunStates {
  private readonly states = new Map<object, unknown>();

  /** The state of the kind `owner` for this run. */
  of(owner: object, create: () => unknown): unknown {
    if (!this.states.has(owner)) this.states.set(owner, create());
    return this.states.get(owner);
  }
}
