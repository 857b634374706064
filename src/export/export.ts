import { Document } from 'yaml';
import type { Config } from '../config/types.js';
import type { GiteaClient } from '../gitea/client.js';
import type { CurrentObject, Kind } from '../kinds/types.js';
import { makeKindContext } from '../plan/planner.js';
import { resolveScopes } from '../plan/scopes.js';
import type { LoadedConfig } from '../config/types.js';

export interface ExportSelection {
  /**
   * Kinds by their config key. Kinds of repositories and organisations (labels, branch_protections):
   * none named = all of them. Server-wide kinds (users, orgs, hooks, runners): only those named.
   */
  kinds: string[];
  /** Repository names or globs (owner/name) and organisation names. */
  repos: string[];
  orgs: string[];
}

/**
 * The live state of the selected scopes as a forgeform config. Every kind of a scope is exported
 * in full, so planning the file against the same server shows no changes.
 */
export async function exportConfig(client: GiteaClient, kinds: Kind[], sel: ExportSelection, onProgress?: (d: number, t: number) => void): Promise<Config> {
  const exportable = kinds.filter((k) => k.exportable !== false);
  const scoped = exportable.filter((k) => k.scopeType !== 'server');
  const anyScoped = scoped.some((k) => sel.kinds.includes(k.configKey));
  const chosen = [
    ...scoped.filter((k) => !anyScoped || sel.kinds.includes(k.configKey)),
    ...exportable.filter((k) => k.scopeType === 'server' && sel.kinds.includes(k.configKey)),
  ];
  const skeleton = (type: 'repo' | 'org') => Object.fromEntries(chosen.filter((k) => k.scopeType === type).map((k) => [k.configKey, {}]));
  const probe: Config = {
    version: 1,
    ...(sel.orgs.length ? { orgs: Object.fromEntries(sel.orgs.map((o) => [o, skeleton('org')])) } : {}),
    ...(sel.repos.length ? { repos: Object.fromEntries(sel.repos.map((r) => [r, skeleton('repo')])) } : {}),
  };
  const { scopes, problems } = await resolveScopes(probe, client);
  if (problems.length) throw new Error(problems.map((p) => `${p.key}: ${p.message}`).join('\n'));
  const ctx = makeKindContext(client, {} as LoadedConfig);
  const jobs = scopes.flatMap((rs) => chosen.filter((k) => k.scopeType === rs.scope.type).map((kind) => ({ kind, rs })));
  let done = 0;
  const read = await Promise.all(
    jobs.map(async (j) => {
      const objects = await j.kind.read(j.rs.scope, ctx);
      onProgress?.(++done, jobs.length);
      return objects;
    }),
  );
  const out: Config = { version: 1 };
  jobs.forEach((j, i) => {
    if (j.rs.scope.type === 'server') return exportServerKind(out, j.kind, read[i]!);
    const section = j.rs.scope.type === 'repo' ? (out.repos ??= {}) : (out.orgs ??= {});
    const entry = ((section as Record<string, Record<string, unknown>>)[j.rs.scope.name] ??= {});
    const objects = read[i]!;
    const seen = new Set<string>();
    const map: Record<string, unknown> = {};
    for (const o of [...objects].sort((a, b) => a.key.localeCompare(b.key))) {
      // Names are not unique on the server; a config cannot hold two of one name.
      if (seen.has(o.key)) continue;
      seen.add(o.key);
      map[o.key] = j.kind.toConfig(o);
    }
    entry[j.kind.configKey] = map;
  });
  return out;
}

/** Server-wide objects go to their own sections: users, hooks (a list), actions.runners, and the orgs' own settings. */
function exportServerKind(out: Config, kind: Kind, objects: CurrentObject[]): void {
  const sorted = [...objects].sort((a, b) => a.key.localeCompare(b.key));
  const map: Record<string, Record<string, unknown>> = {};
  for (const o of sorted) {
    // Names are not unique for runners; a config cannot hold two of one name.
    if (!Object.hasOwn(map, o.key)) map[o.key] = kind.toConfig(o);
  }
  if (kind.configKey === 'users') out.users = map;
  else if (kind.configKey === 'runners') out.actions = { ...out.actions, runners: map };
  else if (kind.configKey === 'hooks') out.hooks = Object.values(map) as unknown as Config['hooks'];
  else if (kind.configKey === 'orgs') {
    const orgs = (out.orgs ??= {}) as Record<string, Record<string, unknown>>;
    // The organisation's settings first, then whatever its scope kinds (labels) add.
    for (const [name, settings] of Object.entries(map)) orgs[name] = { ...settings, ...orgs[name] };
  }
}

export function toYaml(config: Config): string {
  const doc = new Document(config);
  doc.commentBefore = ' yaml-language-server: $schema=https://unpkg.com/forgeform/schemas/forgeform.schema.json\n Written by forgeform export.';
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}
