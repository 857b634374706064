// How the engine asks a kind: each phase of a kind receives one request object (src/model/kind.ts),
// built here from what the engine holds — the kind, a scope, the run's context. The planner, the check
// and apply of a saved plan, export and the rehearsal call a kind's facets with these requests and
// nothing else: a plan request where the context is the planner's (it has the configuration), an apply
// request otherwise.
import type { AnyKindTypes, AnyRequest, KindContext, PlanRequest, ReadingKind, RequestScope, ScopeContext } from './kind.js';
import type { Change } from './plan.js';
import { parseScopeId, splitRepo, type Scope } from './scope.js';

/** The scope with the names its routes are made of (a repository's owner and name, split once here). */
export function requestScope(scope: Scope): RequestScope {
  if (scope.type === 'repo') {
    const [owner, name] = scope.repo ? [scope.repo.owner, scope.repo.name] : splitRepo(scope.name);
    return { ...scope, segments: ['repos', owner, name], owner };
  }
  if (scope.type === 'org') return { ...scope, segments: ['orgs', scope.name], owner: scope.name };
  return { ...scope, segments: [], owner: '' };
}

/** The kind's own state for this run (its runState's, made on the first ask); undefined for a kind without one. */
export function runOf(kind: ReadingKind, ctx: ScopeContext): unknown {
  return ctx.runStates.of(kind, () => kind.runState?.());
}

/** A request at plan time: the configuration is there. */
export function planRequest(kind: ReadingKind, scope: Scope, ctx: KindContext): PlanRequest<AnyKindTypes> {
  return { phase: 'plan', ctx, config: ctx.loaded.config, scope: requestScope(scope), run: runOf(kind, ctx), self: kind };
}

/** A request of a phase that runs at plan time and at apply alike: a plan request where the context has the configuration. */
export function requestOf(kind: ReadingKind, scope: Scope, ctx: ScopeContext): AnyRequest<AnyKindTypes> {
  return ctx.phase === 'plan' ? planRequest(kind, scope, ctx) : { phase: 'apply', ctx, scope: requestScope(scope), run: runOf(kind, ctx), self: kind };
}

/** The request about one change (a guard's), in the scope the change names ("repo:acme/widgets"). */
export function changeRequest(kind: ReadingKind, change: Change, ctx: ScopeContext): AnyRequest<AnyKindTypes> {
  return requestOf(kind, parseScopeId(change.scope), ctx);
}
