import type { ConfigPath, LoadedConfig, SourceLocation } from '../config/types.js';
import type { GiteaClient } from '../gitea/client.js';
import type { CurrentObject, DesiredObject, Kind, KindContext, Scope } from '../kinds/types.js';
import { diffFields } from './diff.js';
import { objectDigest } from './digest.js';
import { resolveScopes, type ResolvedScope } from './scopes.js';
import type { Action, Change, Plan } from './types.js';
import { VERSION } from '../version.js';

export interface PlanError {
  message: string;
  location?: SourceLocation;
}

export interface PlanOptions {
  client: GiteaClient;
  loaded: LoadedConfig;
  kinds: Kind[];
  targets?: (scope: Scope) => boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface PlanResult {
  plan: Plan;
  errors: PlanError[];
}

export function scopeId(scope: Scope): string {
  return `${scope.type}:${scope.name}`;
}

export function parseScopeId(id: string): Scope {
  const i = id.indexOf(':');
  return { type: id.slice(0, i) as Scope['type'], name: id.slice(i + 1) };
}

export function changeId(kind: Kind, scope: Scope, key: string): string {
  return `${kind.name}/${scopeId(scope)}/${key}`;
}

const actionOrder: Record<Action, number> = { rename: 0, create: 1, update: 2, delete: 3 };

export function makeKindContext(client: GiteaClient, loaded: LoadedConfig): KindContext {
  const cache = new Map<string, Promise<unknown>>();
  return {
    client,
    loaded,
    cachedGet<T>(path: string) {
      let p = cache.get(path);
      if (!p) {
        p = client.get(path);
        cache.set(path, p);
      }
      return p as Promise<T>;
    },
  };
}

/**
 * The one planner: for every kind and scope, read the server, diff the normalized desired state
 * against it, and turn differences into changes with their operations. Kinds supply all specifics.
 */
export async function buildPlan(opts: PlanOptions): Promise<PlanResult> {
  const { client, loaded, kinds } = opts;
  const config = loaded.config;
  const ctx = makeKindContext(client, loaded);
  const errors: PlanError[] = [];
  const warnings: string[] = [];
  const prune = new Set(config.policy?.prune ?? []);

  const { scopes, problems } = await resolveScopes(config, client, opts.targets);
  for (const p of problems) errors.push({ message: p.message, location: loaded.locate([p.section, p.key], true) });

  const locate = (rs: ResolvedScope, path: ConfigPath): SourceLocation | undefined => {
    // A repo's config may come from globs and its exact entry: try the most specific first.
    for (const key of [...rs.configKeys].reverse()) {
      const candidate = [...path];
      if (candidate.length > 1) candidate[1] = key;
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
      for (const p of d.problems) errors.push({ message: p.message, location: p.path ? locate(rs, p.path) : undefined });
      work.push({ kind, rs, desired: d.objects });
    }
  }

  let done = 0;
  opts.onProgress?.(0, work.length);
  const currents = await Promise.all(
    work.map(async (w) => {
      try {
        return await w.kind.read(w.rs.scope, ctx);
      } catch (e) {
        errors.push({ message: (e as Error).message });
        return undefined;
      } finally {
        opts.onProgress?.(++done, work.length);
      }
    }),
  );

  const changes: Change[] = [];
  work.forEach((w, i) => {
    const current = currents[i];
    if (!current) return;
    const { kind, rs } = w;
    const scope = rs.scope;
    const byKey = new Map<string, CurrentObject[]>();
    for (const c of current) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c]);
    const consumed = new Set<CurrentObject>();
    const scopeChanges: Change[] = [];
    const make = (action: Action, key: string, fields: Change['fields'], desired?: DesiredObject, cur?: CurrentObject, from?: string): Change => {
      const changed = fields.map((f) => f.path).filter((p) => p !== 'name');
      return {
        id: action === 'delete' && (byKey.get(key)?.length ?? 0) > 1 ? `${changeId(kind, scope, key)}#${cur?.id}` : changeId(kind, scope, key),
        kind: kind.name,
        scope: scopeId(scope),
        key,
        action,
        ...(from !== undefined ? { from } : {}),
        fields,
        precondition: { digest: cur ? objectDigest(cur) : null },
        depends_on: [],
        ops: kind.ops({ scope, action: action, desired, current: cur, changed }),
      };
    };

    for (const d of w.desired) {
      const matches = byKey.get(d.key) ?? [];
      if (matches.length > 1) {
        matches.forEach((m) => consumed.add(m));
        warnings.push(`${kind.title} "${d.key}" in ${scope.name}: ${matches.length} objects with this name exist on the server; forgeform changes none of them`);
        continue;
      }
      let cur = matches[0];
      let from: string | undefined;
      if (!cur) {
        for (const old of d.previously ?? []) {
          const olds = (byKey.get(old) ?? []).filter((o) => !consumed.has(o));
          if (olds.length > 1) {
            warnings.push(`${kind.title} "${old}" in ${scope.name}: ${olds.length} objects with this name exist; forgeform does not rename any of them to "${d.key}"`);
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
      for (const p of kind.check?.(d, cur, scope) ?? []) errors.push({ message: `${kind.title} "${d.key}" in ${scope.name}: ${p.message}`, location: p.path ? locate(rs, p.path) : undefined });
      if (cur) consumed.add(cur);
      const fields = diffFields(kind.fields, d.fields, cur?.fields);
      if (!cur) scopeChanges.push(make('create', d.key, fields, d));
      else if (from !== undefined) scopeChanges.push(make('rename', d.key, [{ path: 'name', before: from, after: d.key }, ...fields], d, cur, from));
      else if (fields.length) scopeChanges.push(make('update', d.key, fields, d, cur));
    }

    if (prune.has(kind.pruneKey)) {
      for (const c of current) if (!consumed.has(c)) scopeChanges.push(make('delete', c.key, [], undefined, c));
    }

    // A create may reuse the name a rename frees.
    for (const ch of scopeChanges) {
      if (ch.action !== 'create') continue;
      const freeing = scopeChanges.find((r) => r.action === 'rename' && r.from === ch.key);
      if (freeing) ch.depends_on.push(freeing.id);
    }

    const reason = kind.readOnlyReason?.(scope);
    if (reason && scopeChanges.length) {
      warnings.push(`${scopeChanges.length} ${kind.title} change(s) withheld: ${reason}`);
      return;
    }
    changes.push(...scopeChanges);
  });

  changes.sort((a, b) => a.scope.localeCompare(b.scope) || kindIndex(kinds, a.kind) - kindIndex(kinds, b.kind) || actionOrder[a.action] - actionOrder[b.action] || a.key.localeCompare(b.key));

  const summary = { create: 0, update: 0, delete: 0, rename: 0 };
  for (const c of changes) summary[c.action]++;
  const unsafe: string[] = [];
  const maxDeletes = config.policy?.max_deletes;
  if (maxDeletes !== undefined && summary.delete > maxDeletes)
    unsafe.push(`${summary.delete} deletions planned, more than policy.max_deletes (${maxDeletes})`);

  const plan: Plan = {
    format_version: 1,
    forgeform_version: VERSION,
    created_at: new Date().toISOString(),
    server: client.baseUrl,
    config_digest: loaded.digest,
    summary,
    unsafe,
    warnings,
    changes,
  };
  return { plan, errors };
}

function kindIndex(kinds: Kind[], name: string): number {
  return kinds.findIndex((k) => k.name === name);
}
