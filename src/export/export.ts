import { Document, isScalar, visit } from 'yaml';
import type { Config } from '../config/types.js';
import { isApiError, type GiteaClient } from '../gitea/client.js';
import { exportable, exportedServerWide, formatDiagnostic, requestOf, scopeCreationIds, type CurrentObject, type DesiredObject, type ExportingKind, type KindExport, type KindMeta, type KindReading, type ScopeNames, type ServerInfo } from '../model/index.js';
import { availableFieldsOf, kindUnavailable } from '../plan/availability.js';
import { makeScopeContext } from '../plan/planner.js';
import { DEFAULT_POLICY, policyOf } from '../plan/safety.js';
import { discoverScopes, scopeEntry, scopesConfig } from '../scopes/discover.js';
import { resolveScopes, type ScopeProblem } from '../scopes/resolve.js';
import { hasUnsafe, inertLines } from '../inert.js';

export interface ExportSelection {
  /**
   * Kinds by their config key. Kinds of repositories and organisations (labels, branch_protections):
   * none named = all of them. Server-wide kinds (users, orgs, hooks, runners): only those named.
   */
  kinds: string[];
  /** Repository names or globs (owner/name) and organisation names, by scope type. */
  scopes: ScopeNames;
  /** Nothing was selected: every kind, in every organisation and repository the token can read. */
  everything?: boolean;
  /** The apply lock's organisation, left out of what is exported (--lock-name; default forgeform-lock). */
  lock?: string;
}

/** An organisation or repository the selection names that the server does not have (or cannot read). */
export type ExportProblem = ScopeProblem;

export class ExportSelectionError extends Error {
  constructor(readonly problems: ExportProblem[]) {
    super(problems.map((p) => formatDiagnostic({ ...p, resource: p.path[1] })).join('\n'));
  }
}

export interface ExportResult {
  config: Config;
  /** What could not be exported with this token, and why (server-wide kinds need a site administrator). */
  skipped: string[];
  /** The policy.prune entries of the kinds exported (those whose objects are scopes apart): what the commented policy block offers. */
  prunable: string[];
  /** The policy.prune entries of the exported kinds whose objects are organisations or repositories. */
  prunableScopes: string[];
}

/**
 * The live state of the selected scopes as a forgeform config. Every kind of a scope is exported
 * in full, so planning the file against the same server shows no changes.
 */
export async function exportConfig(client: GiteaClient, kinds: (KindMeta & KindReading & KindExport)[], sel: ExportSelection, onProgress?: (d: number, t: number) => void, server?: ServerInfo): Promise<ExportResult> {
  const exported = kinds.filter(exportable);
  // Kinds of the scopes, and those whose objects are the scopes (see exportedServerWide).
  const scoped = exported.filter((k) => !exportedServerWide(k));
  const anyScoped = scoped.some((k) => sel.kinds.includes(k.configKey));
  let chosen = sel.everything
    ? exported
    : [...scoped.filter((k) => !anyScoped || sel.kinds.includes(k.configKey)), ...exported.filter((k) => exportedServerWide(k) && sel.kinds.includes(k.configKey))];
  const skipped: string[] = [];
  // A kind the release lacks has nothing to read: said once, and left out.
  for (const k of chosen) {
    const why = kindUnavailable(k, server);
    if (why) skipped.push(`${k.configKey}: not exported, ${why}`);
  }
  chosen = chosen.filter((k) => !kindUnavailable(k, server));
  const names = sel.everything ? await discoverScopes(client, skipped, sel.lock) : sel.scopes;
  const probe = scopesConfig(names, (type) => Object.fromEntries(chosen.filter((k) => k.scopeType === type).map((k) => [k.configKey, {}])));
  // Reading needs no configuration: the default policy (export deletes nothing).
  const ctx = makeScopeContext(client, { ...policyOf(undefined, kinds), ...(sel.lock ? { apply_lock: sel.lock } : {}) }, { readEverything: true }, { server });
  // The scope resolution's GETs (a named repository) are the kinds' too: one request each.
  const { scopes, problems } = await resolveScopes(probe, client, scopeCreationIds(kinds), undefined, (path, o) => ctx.cachedGet(path, o));
  if (problems.length) throw new ExportSelectionError(problems);
  /** A kind whose objects are scopes reads exactly those export writes: one declared object per scope, by its name. */
  const named = (kind: ExportingKind): DesiredObject[] | undefined =>
    kind.exportedWithScopes ? scopes.filter((s) => s.scope.type === kind.createsScope).map((s) => ({ key: s.scope.name, fields: {}, path: [] })) : undefined;
  const jobs = scopes.flatMap((rs) => chosen.filter((k) => k.scopeType === rs.scope.type).map((kind) => ({ kind, rs, desired: named(kind) })));
  let done = 0;
  /** Everything the token can read: what it may not read is left out, and said so once per kind. */
  const refused = new Map<string, { scopes: string[]; reason: string }>();
  const read = await Promise.all(
    jobs.map(async (j) => {
      try {
        return await j.kind.read({ ...requestOf(j.kind, j.rs.scope, ctx), ...(j.desired ? { desired: j.desired } : {}) });
      } catch (e) {
        if (!sel.everything || !isApiError(e, 403)) throw e;
        const r = refused.get(j.kind.configKey) ?? { scopes: [], reason: `${e.status} ${e.serverMessage}` };
        if (j.rs.scope.name) r.scopes.push(j.rs.scope.name);
        refused.set(j.kind.configKey, r);
        return undefined;
      } finally {
        onProgress?.(++done, jobs.length);
      }
    }),
  );
  for (const [key, r] of refused)
    skipped.push(`${key}: not exported${r.scopes.length ? ` for ${r.scopes.sort().join(', ')}` : ''}, the token may not read them (${r.reason})`);
  const out: Config = { version: 1 };
  // A kind whose objects are the scopes goes last: it puts them in the entries the scopes' kinds made, which keep their order.
  const order = [...jobs.keys()].sort((a, b) => Number(Boolean(jobs[a]?.kind.exportedWithScopes)) - Number(Boolean(jobs[b]?.kind.exportedWithScopes)));
  for (const i of order) {
    const j = jobs[i];
    const objects = read[i];
    if (!j || !objects) continue;
    if (j.rs.scope.type === 'server') {
      exportServerKind(out, j.kind, objects, server);
      continue;
    }
    const entry = scopeEntry(out, j.rs.scope);
    const seen = new Set<string>();
    const map: Record<string, unknown> = {};
    for (const o of [...objects].sort((a, b) => a.key.localeCompare(b.key))) {
      // Names are not unique on the server; a config cannot hold two of one name.
      if (seen.has(o.key)) continue;
      seen.add(o.key);
      map[o.key] = availableFieldsOf(j.kind, j.kind.toConfig(o), server);
    }
    // A kind whose section is not a map by key (one object per scope) puts its objects in place itself.
    if (j.kind.exportInto) j.kind.exportInto(entry, map as Record<string, Record<string, unknown>>);
    else entry[j.kind.configKey] = map;
  }
  const pruned = kinds.filter((k) => k.pruneKey && jobs.some((j, i) => j.kind === k && read[i]));
  const keys = (ks: typeof pruned) => [...new Set(ks.map((k) => k.pruneKey))];
  return { config: out, skipped, prunable: keys(pruned.filter((k) => !k.createsScope)), prunableScopes: keys(pruned.filter((k) => k.createsScope)) };
}

/** Server-wide objects go to their kind's section of the config (the kind says where when it is not its config key). */
function exportServerKind(out: Config, kind: ExportingKind, objects: CurrentObject[], server: ServerInfo | undefined): void {
  const sorted = [...objects].sort((a, b) => a.key.localeCompare(b.key));
  const map: Record<string, Record<string, unknown>> = {};
  for (const o of sorted) {
    // Names are not unique for some kinds; a config cannot hold two of one name.
    if (!Object.hasOwn(map, o.key)) map[o.key] = availableFieldsOf(kind, kind.toConfig(o), server);
  }
  const config = out as unknown as Record<string, unknown>;
  if (kind.exportInto) kind.exportInto(config, map);
  else config[kind.configKey] = map;
}

/**
 * What prune would do, as a commented policy block at the end of an exported file: the file declares
 * everything export read, so uncommented it deletes nothing now, only what is made later and not declared.
 */
export function policyComment(r: Pick<ExportResult, 'prunable' | 'prunableScopes'>): string | undefined {
  if (!r.prunable.length && !r.prunableScopes.length) return undefined;
  const lines = [
    ' What prune would do: this file declares every object export read, so a plan of it deletes nothing.',
    ' With the policy below uncommented, a plan also deletes what is made later and not declared here,',
    ' in the sections above (more than max_deletes, or max_delete_fraction of a scope, needs --force):',
    ' policy:',
    `   prune: [${r.prunable.join(', ')}]`,
    `   max_deletes: ${DEFAULT_POLICY.max_deletes}`,
    `   max_delete_fraction: ${DEFAULT_POLICY.max_delete_fraction}`,
  ];
  if (r.prunableScopes.length)
    lines.push(` prune can also list ${r.prunableScopes.join(' and ')}: that deletes undeclared organisations or repositories with everything in them.`);
  return lines.join('\n');
}

/** The config as YAML, its first line pointing editors at `schema` (a path or URL, see schemaLink in the CLI), and `trailer` commented at its end. */
export function toYaml(config: Config, schema: string, trailer?: string): string {
  const doc = new Document(config);
  // A name or value with a control, bidi or invisible character is written double-quoted: YAML escapes
  // some of them there (\n, \e, \0), and inertLines the rest as YAML does (\t, \u202e), which in a plain
  // scalar would change the value. The file gets the same as stdout (whose net is inertOutput): a raw
  // bidi control in a file someone reviews would reorder what they see.
  visit(doc, {
    Scalar(_key, node) {
      if (isScalar(node) && typeof node.value === 'string' && hasUnsafe(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  doc.commentBefore = ` yaml-language-server: $schema=${schema}\n Written by forgeform export.`;
  if (trailer) doc.comment = trailer;
  return inertLines(doc.toString({ lineWidth: 0, flowCollectionPadding: false }));
}
