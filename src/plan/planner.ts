import type { ConfigPath, LoadedConfig, SourceLocation } from '../config/types.js';
import type { GiteaClient, RequestOptions } from '../gitea/client.js';
import { changeId, parseScopeId, scopeCreationIds, scopeId, type CurrentObject, type DesiredObject, type FieldSpec, type Kind, type KindContext, type KindOptions, type Scope, type ScopeContext, type ServerInfo } from '../model/index.js';
import { dependenciesOf, opsOf, type OpsBase } from './change-ops.js';
import { diffFields, shownSecret } from './diff.js';
import { objectDigest } from './digest.js';
import { assessSafety, policyOf } from './safety.js';
import { resolveScopes, type ResolvedScope } from '../scopes/resolve.js';
import type { Action, Change, Diagnostic, FieldChange, Plan, PlanPolicy } from '../model/index.js';
import { VERSION } from '../version.js';

/**
 * A diagnostic while planning, with the place found for it. Sections not yet moved to the planner's
 * steps still push `{message, location}`; buildPlan flattens the location into the diagnostic's file:line:col.
 */
type Reported = Diagnostic & { location?: SourceLocation | undefined };

const placed = ({ location, ...d }: Reported): Diagnostic => ({ ...d, ...location });

export interface PlanOptions {
  client: GiteaClient;
  loaded: LoadedConfig;
  kinds: Kind[];
  options?: KindOptions;
  /** The release the preflight found (or --server-version gave). */
  server?: ServerInfo;
  targets?: (scope: Scope) => boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface PlanResult {
  plan: Plan;
  errors: Diagnostic[];
}

export { refsIn } from './change-ops.js';

export { parseScopeId, scopeId };

export { changeId };

const actionOrder: Record<Action, number> = { rename: 0, create: 1, replace: 1, update: 2, delete: 3 };

/** The context kinds read and build requests with; apply makes one from the plan file's policy. */
export function makeScopeContext(client: GiteaClient, policy: PlanPolicy, options: KindOptions = {}, server?: ServerInfo): ScopeContext {
  const cache = new Map<string, Promise<unknown>>();
  const reads = new Map<string, Promise<CurrentObject[]>>();
  const planned = new Map<string, Change[]>();
  const ctx: ScopeContext = {
    client,
    ...(server ? { server } : {}),
    policy,
    options,
    cachedGet<T>(path: string, opts?: RequestOptions) {
      let p = cache.get(path);
      if (!p) {
        p = client.get(path, opts);
        cache.set(path, p);
      }
      return p as Promise<T>;
    },
    currentOf(kind, scope, desired) {
      const id = `${kind.name} ${scopeId(scope)}`;
      let p = reads.get(id);
      if (!p) {
        p = kind.read(scope, ctx, desired);
        reads.set(id, p);
      }
      return p;
    },
    plannedChanges(kindName, scope) {
      return planned.get(`${kindName} ${scopeId(scope)}`) ?? [];
    },
    recordPlanned(kindName, scope, changes) {
      planned.set(`${kindName} ${scopeId(scope)}`, changes);
    },
  };
  return ctx;
}

/** Planning: the same context (one object, so that kinds' memos keyed by it are shared) with the configuration. */
export function makeKindContext(client: GiteaClient, loaded: LoadedConfig, options: KindOptions = {}, server?: ServerInfo): KindContext {
  return Object.assign(makeScopeContext(client, policyOf(loaded.config), options, server), { loaded });
}

/**
 * The one planner: for every kind and scope, read the server, diff the normalized desired state
 * against it, and turn differences into changes with their operations. Kinds supply all specifics.
 */
export async function buildPlan(opts: PlanOptions): Promise<PlanResult> {
  const { client, loaded, kinds } = opts;
  const config = loaded.config;
  const ctx = makeKindContext(client, loaded, opts.options, opts.server);
  const errors: Reported[] = [];
  const warnings: string[] = [];
  const drift: string[] = [];
  const unsafe: string[] = [];
  const prune = new Set(ctx.policy.prune);
  /** Facts for the safety rules: existing objects per kind and scope, what changes affect, the server object of each change. */
  const existing = new Map<string, number>();
  const affects: { change: Change; count: number; what: string }[] = [];
  const currentOfChange = new Map<string, CurrentObject | undefined>();
  /** --target selects objects of server-wide kinds by the kind's selector type (user:NAME, hook:URL). */
  const targeted = (kind: Kind, key: string): boolean => {
    const select = ctx.options.target;
    if (!select) return true;
    return kind.target ? select(kind.target.type, kind.target.name?.(key) ?? key) : false;
  };

  const { scopes, problems, warnings: scopeWarnings } = await resolveScopes(config, client, scopeCreationIds(kinds), opts.targets, (path, o) => ctx.cachedGet(path, o));
  for (const p of problems) errors.push({ ...p, location: p.path && loaded.locate(p.path, true) });
  warnings.push(...scopeWarnings);

  const locate = (rs: ResolvedScope, path: ConfigPath): SourceLocation | undefined => {
    // A repo's config may come from globs and its exact entry: try the most specific first.
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
  };

  interface Work {
    kind: Kind;
    rs: ResolvedScope;
    desired: DesiredObject[];
  }
  const work: Work[] = [];
  for (const kind of kinds) {
    for (const rs of scopes) {
      if (rs.scope.type !== kind.scopeType) continue;
      const d = await kind.desired(rs.config, rs.scope, ctx);
      if (!d) continue;
      for (const p of d.problems) errors.push({ ...p, location: p.path ? locate(rs, p.path) : undefined });
      work.push({ kind, rs, desired: rs.scope.type === 'server' ? d.objects.filter((o) => targeted(kind, o.key)) : d.objects });
    }
  }

  let done = 0;
  opts.onProgress?.(0, work.length);
  const currents = await Promise.all(
    work.map(async (w) => {
      try {
        if (w.rs.scope.pendingCreate) return [];
        return await ctx.currentOf(w.kind, w.rs.scope, w.desired);
      } catch (e) {
        errors.push({ message: (e as Error).message });
        return undefined;
      } finally {
        opts.onProgress?.(++done, work.length);
      }
    }),
  );

  const changes: Change[] = [];
  for (const [i, w] of work.entries()) {
    const { kind, rs } = w;
    // --target on a server-wide kind: only the selected objects, and those they rename, are looked at (and pruned).
    const renamed = new Set(w.desired.flatMap((d) => d.previously ?? []));
    const current = rs.scope.type === 'server' ? currents[i]?.filter((c) => targeted(kind, c.key) || renamed.has(c.key)) : currents[i];
    if (!current) continue;
    const scope = rs.scope;
    const byKey = new Map<string, CurrentObject[]>();
    for (const c of current) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c]);
    const consumed = new Set<CurrentObject>();
    const scopeChanges: Change[] = [];
    let prepared: unknown;
    try {
      prepared = await kind.prepare?.(scope, w.desired, current, ctx);
    } catch (e) {
      errors.push({ message: (e as Error).message });
      continue;
    }
    existing.set(`${kind.name} ${scopeId(scope)}`, currents[i]?.length ?? 0);
    const make = (action: Action, key: string, fields: Change['fields'], desired?: DesiredObject, cur?: CurrentObject, from?: string): Change => {
      const changed = fields.map((f) => f.path).filter((p) => p !== 'name');
      const shown = kind.shown?.({ scope, action, desired, current: cur, changed, ctx, prepared }) ?? {};
      const context = Object.entries(shown)
        .filter(([, v]) => v !== undefined)
        .map(([path, after]): FieldChange => ({ path, after, context: true }));
      const change: Change = {
        id: action === 'delete' && (byKey.get(key)?.length ?? 0) > 1 ? `${changeId(kind, scope, key)}#${cur?.id}` : changeId(kind, scope, key),
        kind: kind.name,
        scope: scopeId(scope),
        key,
        action,
        ...(from !== undefined ? { from } : {}),
        fields: [...fields, ...context],
        precondition: { digest: cur ? objectDigest(cur, kind.guardedByServer) : null },
        depends_on: [],
        ops: [],
      };
      // The requests are built from what the change shows, exactly as apply will build them again.
      const base: OpsBase = { scope, ...(cur ? { current: cur } : {}), ctx, prepared };
      change.ops = opsOf(kind, change, base);
      change.depends_on = dependenciesOf(kind, change, change.ops, base);
      currentOfChange.set(change.id, cur);
      return change;
    };

    // `previously` must name one object unambiguously, or the plan would rename the wrong one (or none).
    const claimed = new Map<string, DesiredObject>();
    const declared = new Set(w.desired.map((o) => o.key));
    for (const d of w.desired) {
      for (const old of d.previously ?? []) {
        const other = claimed.get(old);
        if (other && other !== d) {
          errors.push({ message: `${kind.title} "${d.key}"${where(scope)}: previously names "${old}", which ${kind.title} "${other.key}" also claims: only one object can be renamed from it`, location: locate(rs, [...d.path, 'previously']) });
          errors.push({ message: `${kind.title} "${other.key}"${where(scope)}: previously names "${old}", which ${kind.title} "${d.key}" also claims`, location: locate(rs, [...other.path, 'previously']) });
        }
        claimed.set(old, d);
        // Both names on the server is the converged state when the old name is declared as an object of its own.
        if (old !== d.key && byKey.has(old) && byKey.has(d.key) && !declared.has(old))
          errors.push({
            message: `${kind.title} "${d.key}"${where(scope)}: both "${old}" (named in previously) and "${d.key}" exist on the server, so forgeform cannot rename one into the other: delete one of them, or remove "${old}" from previously`,
            location: locate(rs, [...d.path, 'previously']),
          });
      }
    }

    // A rename frees its old name: a declared object of that name is then a new one, not the renamed one.
    const renamedAway = new Set<CurrentObject>();
    for (const d of w.desired) {
      if (byKey.has(d.key)) continue;
      const old = (d.previously ?? []).find((o) => byKey.has(o));
      const olds = old === undefined ? [] : byKey.get(old)!;
      if (olds.length === 1) renamedAway.add(olds[0]!);
    }

    for (const d of w.desired) {
      const matches = (byKey.get(d.key) ?? []).filter((m) => !renamedAway.has(m));
      let cur = matches[0];
      if (matches.length > 1) {
        matches.forEach((m) => consumed.add(m));
        const dup = await resolveDuplicates(kind, d, matches, scope, ctx, prune.has(kind.pruneKey), errors);
        if (dup.message) (dup.drift ? drift : warnings).push(`${kind.title} "${d.key}"${where(scope)}: ${dup.message}`);
        for (const r of dup.remove) scopeChanges.push(make('delete', d.key, [], undefined, r));
        if (!dup.keep) continue;
        cur = dup.keep;
      }
      let from: string | undefined;
      if (!cur) {
        for (const old of d.previously ?? []) {
          const olds = (byKey.get(old) ?? []).filter((o) => !consumed.has(o));
          if (olds.length > 1) {
            warnings.push(`${kind.title} "${old}"${where(scope)}: ${olds.length} objects with this name exist; forgeform does not rename any of them to "${d.key}"`);
            olds.forEach((o) => consumed.add(o));
            break;
          }
          if (olds.length === 1) {
            cur = olds[0];
            from = old;
            break;
          }
        }
      }
      const problems = kind.check?.(d, cur, scope, ctx, prepared) ?? [];
      for (const p of problems) errors.push({ ...p, resource: `${kind.title} "${d.key}"${where(scope)}`, location: p.path ? locate(rs, p.path) : undefined });
      if (cur) consumed.add(cur);
      if (problems.length) continue;
      const fields = diffFields(kind.fields, d.fields, cur?.fields, kind.compare ? (name) => kind.compare!(name, d, cur, prepared) : undefined);
      const writeOnly = writeOnlyFields(kind, d, cur, fields, ctx.options);
      if (writeOnly.notSent.length)
        warnings.push(`${kind.title} "${d.key}"${where(scope)}: ${writeOnly.notSent.join(', ')}: (sensitive, not comparable; --rotate-secrets sends ${writeOnly.notSent.length === 1 ? 'it' : 'them'})`);
      if (!cur) scopeChanges.push(make('create', d.key, [...fields, ...writeOnly.fields], d));
      else if (writeOnly.replace) scopeChanges.push(make('replace', d.key, [...fields, ...writeOnly.fields], d, cur));
      else if (from !== undefined) scopeChanges.push(make('rename', d.key, [{ path: 'name', before: from, after: d.key }, ...fields, ...writeOnly.fields], d, cur, from));
      else if (fields.length || writeOnly.fields.length) scopeChanges.push(make('update', d.key, [...fields, ...writeOnly.fields], d, cur));
    }

    if (prune.has(kind.pruneKey)) {
      for (const c of current) {
        if (consumed.has(c)) continue;
        const keep = kind.keep?.(c, scope, ctx);
        if (keep) warnings.push(`${kind.title} "${c.key}"${where(scope)} is not deleted: ${keep}`);
        else scopeChanges.push(make('delete', c.key, [], undefined, c));
      }
    }

    // A create may reuse the name a rename frees.
    for (const ch of scopeChanges) {
      if (ch.action !== 'create') continue;
      const freeing = scopeChanges.find((r) => r.action === 'rename' && r.from === ch.key);
      if (freeing) ch.depends_on.push(freeing.id);
    }

    warnings.push(...(kind.notices?.(w.desired, current, scope, ctx) ?? []));

    const reason = kind.readOnlyReason?.(scope);
    if (reason && scopeChanges.length) {
      warnings.push(`${scopeChanges.length} ${kind.title} change(s) withheld: ${reason}`);
      continue;
    }
    if (kind.annotate) {
      const notes = await Promise.all(
        scopeChanges.map((c) =>
          kind.annotate!(c, scope, ctx).catch((e: unknown) => {
            errors.push({ resource: `${kind.title} "${c.key}"${where(scope)}`, message: `cannot tell what this ${c.action} affects: ${(e as Error).message}` });
            return undefined;
          }),
        ),
      );
      for (const [j, note] of notes.entries()) {
        if (!note) continue;
        const change = scopeChanges[j]!;
        if (note.notes?.length) change.notes = [...(change.notes ?? []), ...note.notes];
        if (note.affects) {
          change.precondition.affects = note.affects.count;
          affects.push({ change, ...note.affects });
        }
      }
    }
    ctx.recordPlanned(kind.name, scope, scopeChanges);
    changes.push(...scopeChanges);
  }

  changes.sort((a, b) => a.scope.localeCompare(b.scope) || kindIndex(kinds, a.kind) - kindIndex(kinds, b.kind) || actionOrder[a.action] - actionOrder[b.action] || a.key.localeCompare(b.key));

  const summary = { create: 0, update: 0, delete: 0, rename: 0, replace: 0 };
  for (const c of changes) summary[c.action]++;
  // A second net behind the kinds' checks: no change a guard forbids leaves the planner.
  const guards = changes.flatMap((c) => {
    const reason = kindByName(kinds, c.kind).guard?.(c, currentOfChange.get(c.id), ctx, changes);
    return reason ? [{ change: c, reason }] : [];
  });
  const verdict = assessSafety({ changes, existing, affects, guards, title: (k) => kindByName(kinds, k).title }, ctx.policy);
  unsafe.push(...verdict.unsafe);
  for (const f of verdict.forbidden) errors.push({ message: f });

  const plan: Plan = {
    format_version: 1,
    forgeform_version: VERSION,
    created_at: new Date().toISOString(),
    server: { url: client.baseUrl, ...(opts.server ? { flavour: opts.server.flavour, version: opts.server.version, ...(opts.server.assumed ? { assumed: true } : {}) } : {}) },
    config_digest: loaded.digest,
    summary,
    policy: ctx.policy,
    unsafe,
    warnings,
    ...(drift.length ? { drift } : {}),
    changes,
  };
  return { plan, errors: errors.map(placed) };
}

/**
 * Write-only fields cannot be compared. They ride along with any other edit of the object; with
 * --sync-write-only they are sent to every declared object; with --rotate-secrets the sensitive ones
 * are sent too, or the object is replaced when the kind cannot change them in place. A change carries
 * the value it sends (a secret is rendered as (sensitive) and saved as a reference): apply builds the
 * request from it. Secrets declared but not sent are named (notSent), so that they are not silently ignored.
 */
function writeOnlyFields(kind: Kind, d: DesiredObject, cur: CurrentObject | undefined, changed: FieldChange[], options: KindOptions): { fields: FieldChange[]; replace: boolean; notSent: string[] } {
  // Those the server returned were compared (diffFields) like any field.
  const specs = kind.fields.filter((f) => f.writeOnly && f.name in d.fields && !(cur && f.name in cur.fields));
  const shown = (send: FieldSpec[]) => send.map((f) => ({ path: f.name, after: f.sensitive ? shownSecret(d.fields[f.name]) : d.fields[f.name], writeOnly: true, ...(f.sensitive ? { sensitive: true } : {}) }));
  // A create (and the create half of a replacement) sends them all: the plan shows them.
  if (!cur) return { fields: shown(specs), replace: false, notSent: [] };
  const plain = specs.filter((f) => !f.sensitive);
  const secret = specs.filter((f) => f.sensitive);
  const rotate = Boolean(options.rotateSecrets) && secret.length > 0;
  if (rotate && kind.replaceToRotate) return { fields: shown(specs), replace: true, notSent: [] };
  const edits = changed.length > 0 || Boolean(options.syncWriteOnly);
  const sendSecret = secret.filter((f) => rotate || (edits && f.resendOnEdit));
  const send = [...(changed.length || options.syncWriteOnly || rotate ? plain : []), ...sendSecret];
  return { fields: shown(send), replace: false, notSent: secret.filter((f) => !sendSecret.includes(f)).map((f) => f.name) };
}

/**
 * Several server objects carry one declared name: the kind picks the one that is the declared object
 * and those that may go (deleted under policy.prune, else named with what prune would do). A kind that
 * cannot tell, or a scope it cannot read, leaves them all untouched and named.
 */
async function resolveDuplicates(kind: Kind, d: DesiredObject, matches: CurrentObject[], scope: Scope, ctx: KindContext, pruning: boolean, errors: Reported[]): Promise<{ keep?: CurrentObject; remove: CurrentObject[]; message?: string; drift: boolean }> {
  if (!kind.resolveDuplicates) return { remove: [], message: `${matches.length} objects with this name exist on the server; forgeform changes none of them`, drift: false };
  let dup;
  try {
    dup = await kind.resolveDuplicates(d, matches, scope, ctx);
  } catch (e) {
    errors.push({ message: `${kind.title} "${d.key}"${where(scope)}: ${matches.length} objects with this name exist on the server, and forgeform cannot tell which to keep: ${(e as Error).message}` });
    return { remove: [], drift: false };
  }
  if (pruning || !dup.remove.length) return { ...dup, drift: !dup.keep };
  const ids = dup.remove.map((r) => `id ${r.id}`).join(', ');
  return { ...(dup.keep ? { keep: dup.keep } : {}), remove: [], message: `${dup.message}; policy.prune: [${kind.pruneKey}] would delete ${ids}`, drift: true };
}

/** " in acme/widgets" for a repo or org; nothing for the server scope. */
function where(scope: Scope): string {
  return scope.name ? ` in ${scope.name}` : '';
}

function kindByName(kinds: Kind[], name: string): Kind {
  return kinds.find((k) => k.name === name)!;
}

function kindIndex(kinds: Kind[], name: string): number {
  return kinds.findIndex((k) => k.name === name);
}
