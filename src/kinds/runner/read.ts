import { normalizeFields, shapeOfFields } from '../fields.js';
import type { Config } from '../../config/types.js';
import { serverHas, type CurrentObject, type KindTypes, type Reading, type ScopeContext } from '../../model/index.js';
import { features, fields } from './fields.js';

export { features, fields } from './fields.js';

/** Gitea's runner list: an object around the runners (its fields checked by the client's shape, per item). */
const isPage = (body: unknown): body is RunnerPage => typeof body === 'object' && body !== null;

interface RunnerPage {
  runners?: unknown[] | null;
  total_count?: unknown;
}

/** Every runner of every scope, in the answer shape of the server's release. */
function listRunners({ client, server }: Pick<ScopeContext, 'client' | 'server'>): Promise<ServerRunner[]> {
  const path = 'admin/actions/runners';
  // No server known (unit tests): Gitea's shape, the default sandbox's.
  if (server && serverHas(server, features.bareList.availability)) return client.list(path, { object: 'Actions runners', query: { visible: 'true' }, shape });
  // Gitea's list has no paging headers: its body carries total_count (`routers/api/v1/shared/runners.go`).
  return client.listWrapped(
    path,
    { object: 'Actions runners', shape },
    (body) => (isPage(body) ? { items: body.runners, total: body.total_count } : { items: undefined, total: undefined }),
    'total_count',
  );
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

/** A runner as answered (Gitea's and Forgejo's ActionRunner). */
export const shape = shapeOfFields(fields, { id: 'id', name: 'string', status: 'string?', busy: 'boolean?' });

/** A runner as the server answers it (its shape checked). */
type ServerRunner = Record<string, unknown> & { id: number; name: string };

/** What the runner kind is typed by: the whole config (runners are server-wide), a runner as answered; no lookups, no state per run. */
export type RunnerTypes = KindTypes<Config, ServerRunner>;

function fromServer(r: ServerRunner) {
  return { key: String(r.name), id: Number(r.id), fields: { ...normalizeFields(fields, r, false), ...runnerState(r) } };
}

export const reading = {
  fields,
  shape,
  // Changes on its own (a runner goes offline): a saved plan must not be refused for it.
  guardedByServer: ['status', 'busy'],

  async read({ ctx }) {
    return (await listRunners(ctx)).map(fromServer);
  },

  fromServer,
} satisfies Reading<RunnerTypes>;
