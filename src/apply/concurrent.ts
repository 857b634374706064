/**
 * Two applies at once against one server each see a label missing and each create it: the server
 * (Gitea does not keep label or hook names unique) then holds two, and forgeform will touch neither.
 * So after its writes, apply reads again every scope where it created objects, and reports each name
 * it created that now exists more than once: another run created it at the same time.
 */
import { kindsByName, kindTitles, requestOf, type ReadingKind } from '../model/index.js';
import { makeScopeContext } from '../plan/planner.js';
import type { Change } from '../plan/types.js';
import { scopeOf, type ChangeResult, type ExecuteOptions } from './executor.js';

export interface ConcurrentCheck {
  /** Changes whose name now has more than one object, with how many there are. */
  duplicates: { change: Change; count: number }[];
  /** Scopes that could not be read again, with the reason. */
  unchecked: { scope: string; kind: string; error: string }[];
}

/** What the check reads with: the apply's client, kinds, policy and release, and the plan's scopes with their facts. */
export type ConcurrentCheckOptions = Pick<ExecuteOptions, 'client' | 'kinds' | 'policy' | 'server' | 'scopes'>;

export async function findConcurrentDuplicates(results: ChangeResult[], { client, kinds, policy, server, scopes }: ConcurrentCheckOptions): Promise<ConcurrentCheck> {
  const byName = kindsByName(kinds);
  const groups = new Map<string, Change[]>();
  for (const r of results) {
    if (r.outcome !== 'done' || (r.change.action !== 'create' && r.change.action !== 'replace')) continue;
    // The server itself refuses a second one of these: no read can find a duplicate.
    if (byName.get(r.change.kind)?.uniqueNames) continue;
    const id = `${r.change.kind} ${r.change.scope}`;
    groups.set(id, [...(groups.get(id) ?? []), r.change]);
  }
  const check: ConcurrentCheck = { duplicates: [], unchecked: [] };
  const ctx = makeScopeContext(client, policy, {}, { server });
  await Promise.all(
    [...groups.values()].map(async (changes) => {
      const { kind: kindName, scope } = changes[0]!;
      const kind = byName.get(kindName);
      if (!kind) return;
      try {
        // Kinds that read only what is named (repositories, issues) are told which objects to look for.
        const current = await kind.read({ ...requestOf(kind, scopeOf(scope, scopes), ctx), desired: changes.map((c) => ({ key: c.key, fields: {}, path: [] })) });
        for (const change of changes) {
          const count = current.filter((o) => o.key === change.key).length;
          if (count > 1) check.duplicates.push({ change, count });
        }
      } catch (e) {
        check.unchecked.push({ scope, kind: kind.title, error: (e as Error).message });
      }
    }),
  );
  const order = new Map(results.map((r, i) => [r.change.id, i]));
  check.duplicates.sort((a, b) => order.get(a.change.id)! - order.get(b.change.id)!);
  return check;
}

/** One line per duplicate, naming it: "label "bug" in repo:acme/widgets: created concurrently by another run (2 on the server)". */
export function describeDuplicates(check: ConcurrentCheck, kinds: ReadingKind[]): string[] {
  const title = kindTitles(kinds);
  return check.duplicates.map(({ change, count }) => {
    const where = change.scope === 'server:' ? 'server' : change.scope;
    return `${title(change.kind)} "${change.key}" in ${where}: created concurrently by another run (${count} with this name on the server now; the next plan names each copy and what can be done about it)`;
  });
}
