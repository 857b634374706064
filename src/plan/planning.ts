// The state one buildPlan carries from step to step (see planner.ts), and the one way a change is made.
import type { ConfigPath, LoadedConfig, SourceLocation } from '../config/types.js';
import { changeId, copyChangeId, planRequest, scopeId, type Action, type Change, type CurrentObject, type DesiredObject, type Diagnostic, type FieldChange, type Kind, type KindContext, type KeptObjects, type Scope } from '../model/index.js';
import type { ResolvedScope } from '../scopes/resolve.js';
import { subjectOf } from './change-ops.js';
import { objectDigest } from './digest.js';
import { dependsStep, inputStep, intentStep, opsStep, type Group, type GroupState, type Run } from './pipeline.js';
import { quoteName } from '../inert.js';
import { isGlobKey } from '../model/index.js';

/** A diagnostic while planning, with the place found for it (flattened into file:line:col at the end). */
export type Reported = Diagnostic & { location?: SourceLocation | undefined };

export const placed = ({ location, ...d }: Reported): Diagnostic => ({ ...d, ...location });

/** What one plan gathers besides what every run does (src/plan/pipeline.ts): problems, warnings, drift, the changes. */
export interface Planning extends Run<Kind, KindContext> {
  errors: Reported[];
  warnings: string[];
  drift: string[];
  /** Declared objects left out for a problem of their own (Problem.objectOnly), formatted. */
  withheld: string[];
  /** Undeclared objects of managed scopes that policy.prune keeps (Plan.kept). */
  kept: KeptObjects[];
  changes: Change[];
  /** Declared secrets of existing objects that are not sent (they cannot be compared): counted, said once. */
  secretsNotSent: number;
}

/** One kind in one declared scope: what the config wants there. */
export interface Work extends Group<Kind> {
  rs: ResolvedScope;
}

/** One kind in one scope while it is planned. */
export interface ScopePlan extends Work, GroupState<Kind> {
  byKey: Map<string, CurrentObject[]>;
  /** Server objects a declared object stands for (or that must not be pruned): the rest may be pruned. */
  consumed: Set<CurrentObject>;
  /** Objects renamed to another declared name: their old name is free for a declared object of its own. */
  renamedAway: Set<CurrentObject>;
}

/** " in acme/widgets" for a repo or org; nothing for the server scope. */
export function where(scope: Scope): string {
  return scope.name ? ` in ${scope.name}` : '';
}

/** `label "bug" in acme/widgets`: how messages name one object. */
export function resourceOf(kind: Kind, key: string, scope: Scope): string {
  return `${kind.title} ${quoteName(key)}${where(scope)}`;
}

/** The place of a config path of a scope: a repo's config may come from globs and its exact entry, the most specific is tried first. */
export function sourceOfScopePath(loaded: LoadedConfig, rs: ResolvedScope, path: ConfigPath): SourceLocation | undefined {
  // The server scope has no config key of its own: its paths are already complete (users.alice, hooks[2]).
  for (const key of rs.configKeys.length ? [...rs.configKeys].reverse() : [undefined]) {
    const candidate = [...path];
    if (key !== undefined && candidate.length > 1) candidate[1] = key;
    for (let n = candidate.length; n > 0; n--) {
      const loc = loaded.locate(candidate.slice(0, n), n === candidate.length);
      if (loc) return loc;
    }
  }
  return undefined;
}

/**
 * Where the value at `path` (a field of a declared object) is set, as plan --explain shows it: the entry whose value
 * wins (the exact one over the globs, a later glob over an earlier), else the object's own place (a label of a
 * template, a default).
 */
export function originOfValue(loaded: LoadedConfig, rs: ResolvedScope, path: ConfigPath): string | undefined {
  for (const key of rs.configKeys.length ? [...rs.configKeys].reverse() : [undefined]) {
    const candidate = [...path];
    if (key !== undefined && candidate.length > 1) candidate[1] = key;
    const loc = loaded.locate(candidate);
    if (loc) return `${loc.file}:${loc.line}:${loc.col}${key !== undefined && isGlobKey(key) ? ` (repos ${JSON.stringify(key)})` : ''}`;
  }
  const loc = sourceOfScopePath(loaded, rs, path);
  return loc ? `${loc.file}:${loc.line}:${loc.col} (declared here; the value is a default or from a template)` : undefined;
}

function withSource(f: FieldChange, source: string | undefined): FieldChange {
  return source === undefined ? f : { ...f, source };
}

/** What a change is made of besides its kind and scope. */
export interface ChangeSpec {
  action: Action;
  key: string;
  fields: FieldChange[];
  desired?: DesiredObject;
  current?: CurrentObject;
  /** The old name of a rename. */
  from?: string;
}

/**
 * A change with its context values, precondition digest, requests and dependencies. The requests are
 * built from what the change shows, exactly as apply will build them again.
 */
export function makeChange(p: Planning, sp: ScopePlan, spec: ChangeSpec): Change {
  const { kind, scope } = sp;
  const { action, key, desired, current: cur, from } = spec;
  // Copies of one name: a delete names its copy by id.
  const copies = (sp.byKey.get(key)?.length ?? 0) > 1;
  const id = action === 'delete' && copies ? copyChangeId(changeId(kind, scope, key), String(cur?.id)) : changeId(kind, scope, key);
  const change: Change = {
    id,
    kind: kind.name,
    scope: scopeId(scope),
    key,
    action,
    ...(from !== undefined ? { from } : {}),
    fields: spec.fields,
    precondition: { digest: cur ? objectDigest(cur, kind) : null },
    depends_on: [],
    ops: [],
  };
  // What the change means, derived once, before its context values (no part of it) are added from it.
  const intent = intentStep(p, change);
  const shown = kind.shown?.({ ...planRequest(kind, scope, p.ctx), intent, changed: intent.changed, prepared: sp.prepared, ...subjectOf(id, action, desired, cur) }) ?? {};
  const context = Object.entries(shown)
    .filter(([, v]) => v !== undefined)
    .map(([path, after]): FieldChange => ({ path, after, context: true }));
  const explained = p.ctx.options.explain && desired ? spec.fields.map((f) => withSource(f, originOfValue(p.ctx.loaded, sp.rs, [...desired.path, ...f.path.split('.')]))) : spec.fields;
  change.fields = [...explained, ...context];
  const input = inputStep(p, sp, change, cur);
  change.ops = opsStep(sp, input);
  // A rename that frees the name is waited for once the scope's changes are all known (waitForFreedNames).
  change.depends_on = dependsStep(sp, change, change.ops, input, new Map());
  p.currentOfChange.set(change.id, cur);
  return change;
}
