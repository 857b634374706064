import { normalizeFields, shapeOfFields } from '../fields.js';
import type { Config } from '../../config/types.js';
import { serverHas, type CurrentObject, type KindTypes, type Reading, type ScopeContext } from '../../model/index.js';
import { features, fields } from './fields.js';
import { forgejoScope, giteaScopes, listGiteaRunners, type ListedRunner, type ScopedRunner } from './scopes.js';

export { features, fields } from './fields.js';

/**
 * Every runner of every scope, each with where it belongs when it is not the server's own (undefined: a global
 * runner). Forgejo answers the scope with each runner (one request); Gitea only through its scoped lists
 * (scopes.ts: giteaScopes says why and what it costs).
 */
async function listRunners({ client, server }: Pick<ScopeContext, 'client' | 'server'>): Promise<{ runner: ServerRunner; where: string | undefined }[]> {
  const path = 'admin/actions/runners';
  // No server known (unit tests): Gitea's shape, the default sandbox's.
  if (server && serverHas(server, features.bareList.availability)) {
    // `visible=true`: every scope's runners, so that a declared name that only a scoped runner has is refused by name.
    const all = await client.list<ServerRunner>(path, { object: 'Actions runners', query: { visible: 'true' }, shape });
    return all.map((runner) => ({ runner, where: forgejoScope(runner) }));
  }
  const all = await listGiteaRunners(client, path, 'Actions runners', { shape });
  const scopes = all.length ? await giteaScopes(client, shape) : new Map<number, string>();
  return all.map((runner) => ({ runner, where: scopes.get(runner.id) }));
}

/**
 * Gitea says online or offline and busy; Forgejo says offline, idle or active (api.RunnerStatus,
 * services/convert/convert.go ToActionRunner, v15.0.3): both read as online/offline and busy.
 */
function runnerState(r: Record<string, unknown>): { status: unknown; busy: boolean } {
  if (r.status === 'idle' || r.status === 'active') return { status: 'online', busy: r.status === 'active' };
  return { status: r.status, busy: Boolean(r.busy) };
}

export const status = (c: CurrentObject) => `${String(c.fields.status ?? 'unknown')}${c.fields.busy ? ', busy' : ''}`;

/** A runner as answered (Gitea's and Forgejo's ActionRunner; only Forgejo's has owner_id and repo_id). */
export const shape = shapeOfFields(fields, { id: 'id', name: 'string', status: 'string?', busy: 'boolean?', owner_id: 'integer?', repo_id: 'integer?' });

/** A runner as the server answers it (its shape checked). */
type ServerRunner = ListedRunner;

/**
 * The runners of this run that are not the server's own (a repository's, an organisation's, a user's): never
 * matched, changed, pruned or exported, only named when a declared runner has no global runner but their name.
 */
export interface RunnerRun {
  scoped?: ScopedRunner[];
}

/** What the runner kind is typed by: the whole config (runners are server-wide), a runner as answered, the scoped runners read. */
export type RunnerTypes = KindTypes<Config, ServerRunner, undefined, RunnerRun>;

export const runState = (): RunnerRun => ({});

function fromServer(r: ServerRunner) {
  return { key: String(r.name), id: Number(r.id), fields: { ...normalizeFields(fields, r, false), ...runnerState(r) } };
}

export const reading = {
  fields,
  shape,
  // Changes on its own (a runner goes offline): a saved plan must not be refused for it.
  guardedByServer: ['status', 'busy'],

  /**
   * The global runners only: the config's `actions.runners` are the server's, and a runner any user registered for
   * her repository, organisation or herself under the same name is none of them (issue 28). The others are kept in
   * the run for plan.ts's check.
   */
  async read({ ctx, run }) {
    const listed = await listRunners(ctx);
    run.scoped = listed.flatMap(({ runner, where }) => (where === undefined ? [] : [{ id: runner.id, name: runner.name, where }]));
    return listed.flatMap(({ runner, where }) => (where === undefined ? [fromServer(runner)] : []));
  },

  fromServer,
} satisfies Reading<RunnerTypes>;
