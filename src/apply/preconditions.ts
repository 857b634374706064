import { isApiError, type GiteaClient } from '../gitea/client.js';
import type { CurrentObject, Kind } from '../kinds/types.js';
import { objectDigest } from '../plan/digest.js';
import { makeKindContext, parseScopeId } from '../plan/planner.js';
import type { Plan } from '../plan/types.js';
import type { LoadedConfig } from '../config/types.js';

/**
 * A saved plan is applied only where the server still looks as it did at plan time: each touched
 * scope is read again (the same list calls as plan) and a change whose object changed is refused.
 */
export async function checkPreconditions(plan: Plan, client: GiteaClient, kinds: Kind[]): Promise<Map<string, string>> {
  const refused = new Map<string, string>();
  const ctx = makeKindContext(client, {} as LoadedConfig);
  const groups = new Map<string, { kind: Kind; scope: string }>();
  for (const c of plan.changes) {
    const kind = kinds.find((k) => k.name === c.kind);
    if (!kind) {
      refused.set(c.id, `unknown kind ${c.kind} (plan made by forgeform ${plan.forgeform_version})`);
      continue;
    }
    groups.set(`${c.kind} ${c.scope}`, { kind, scope: c.scope });
  }
  const current = new Map<string, CurrentObject[]>();
  await Promise.all(
    [...groups.entries()].map(async ([id, g]) => {
      // Kinds that read only what is named (issues) are told which objects the plan touches.
      const named = plan.changes.filter((c) => `${c.kind} ${c.scope}` === id).map((c) => ({ key: c.from ?? c.key, fields: {}, path: [] }));
      try {
        current.set(id, await g.kind.read(parseScopeId(g.scope), ctx, named));
      } catch (e) {
        // A repository or organisation the plan creates first does not exist yet: nothing is in it.
        if (!isApiError(e, 404)) throw e;
        current.set(id, []);
      }
    }),
  );
  for (const c of plan.changes) {
    const objects = current.get(`${c.kind} ${c.scope}`);
    if (!objects) continue;
    const key = c.action === 'rename' ? c.from! : c.key;
    const matches = objects.filter((o) => o.key === key);
    const now = c.action === 'delete' && matches.length > 1 ? matches.find((o) => c.id.endsWith(`#${o.id}`)) : matches[0];
    const digest = now ? objectDigest(now, groups.get(`${c.kind} ${c.scope}`)!.kind.guardedByServer) : null;
    if (digest !== c.precondition.digest) {
      refused.set(c.id, now ? (c.precondition.digest ? `changed on the server since the plan was made (stale plan): plan again` : `exists on the server since the plan was made (stale plan): plan again`) : `no longer exists on the server (stale plan): plan again`);
    }
  }
  return refused;
}
