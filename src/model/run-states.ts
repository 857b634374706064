// The kinds' state for one run (see defineKind in define.ts), kept by the run's context.

/**
 * Each kind's state for one run, made on the first ask and kept by the run's context: a memo of one
 * plan's lookups never outlives that plan, and no kind keeps a module-level map.
 */
export class RunStates {
  private readonly states = new Map<object, unknown>();

  /** The state of the kind `owner` for this run. */
  of<R>(owner: object, create: () => R): R {
    if (!this.states.has(owner)) this.states.set(owner, create());
    // Existential: the only value stored under `owner` is what `create` of that same owner made.
    return this.states.get(owner) as R;
  }
}
