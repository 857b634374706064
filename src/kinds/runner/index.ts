import type { Config, RunnerConfig } from '../../config/types.js';
import { apiPath } from '../../gitea/path.js';
import { bool, inEither, inForgejo, inGitea, normalizeFields, only } from '../fields.js';
import { serverHas, type CurrentObject, type DesiredObject, type FieldSpec, type Kind, type KindFeature, type ScopeContext } from '../../model/index.js';
import { notAnActionOf } from '../actions.js';

/**
 * The releases of the admin runner routes (GET list, GET/DELETE one): Gitea 1.24 (#33873), Forgejo 15
 * (#10573). Older ones have only the registration token, so nothing to read or delete.
 */
const RUNNER_ROUTES = inEither(inGitea('1.24'), inForgejo('15'));

const features = {
  /** PATCH /admin/actions/runners/{id} {disabled}: Gitea 1.26 (#36776); no Forgejo (routers/api/v1/api.go of each tag). */
  edit: { availability: inGitea('1.26') },
  /**
   * Forgejo's list answers a bare array with X-Total-Count (Gitea: {runners, total_count}), and has
   * only the instance's own runners unless visible=true (routers/api/v1/shared/runners.go,
   * models/actions/runner.go FindRunnerOptions.ToConds, v15.0.3).
   */
  bareList: { availability: inForgejo('15') },
} satisfies Record<string, KindFeature>;

const fields: FieldSpec[] = [only(features.edit.availability, bool('disabled'))];

interface RunnerPage {
  runners?: unknown[] | null;
  total_count?: unknown;
}

/** Every runner of every scope, in the answer shape of the server's release. */
function listRunners({ client, server }: Pick<ScopeContext, 'client' | 'server'>): Promise<unknown[]> {
  const path = 'admin/actions/runners';
  // No server known (unit tests): Gitea's shape, the default sandbox's.
  if (server && serverHas(server, features.bareList.availability)) return client.list(path, { object: 'Actions runners', query: { visible: 'true' } });
  // Gitea's list has no paging headers: its body carries total_count (`routers/api/v1/shared/runners.go`).
  return client.listWrapped(
    path,
    { object: 'Actions runners' },
    (body) => ({ items: (body as RunnerPage | null)?.runners, total: (body as RunnerPage | null)?.total_count }),
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

const status = (c: CurrentObject) => `${String(c.fields.status ?? 'unknown')}${c.fields.busy ? ', busy' : ''}`;

/**
 * Actions runners, by name: forgeform manages their disabled flag, and deletes undeclared ones with
 * runners in policy.prune. It cannot register runners. Online status is reported, never compared.
 */
export const runnerKind: Kind = {
  name: 'runner',
  title: 'runner',
  pruneKey: 'runners',
  configKey: 'runners',
  scopeType: 'server',
  actions: ['update', 'delete'],
  fields,
  availability: RUNNER_ROUTES,
  features,
  declaredAt: ['actions', 'runners', '*'],
  target: { type: 'runner', placeholder: 'NAME' },
  // Changes on its own (a runner goes offline): a saved plan must not be refused for it.
  guardedByServer: ['status', 'busy'],

  async desired(scopeConfig) {
    const runners = (scopeConfig as Config).actions?.runners;
    if (!runners) return undefined;
    const objects: DesiredObject[] = Object.entries<RunnerConfig>(runners).map(([name, r]) => ({
      key: name,
      fields: normalizeFields(fields, r as Record<string, unknown>, true),
      path: ['actions', 'runners', name],
    }));
    return { objects, problems: [] };
  },

  async read(_scope, ctx) {
    return (await listRunners(ctx)).map((r) => this.fromServer(r));
  },

  check(desired, current) {
    if (current) return [];
    return [{ path: desired.path, message: `runner "${desired.key}" is not registered on the server (forgeform cannot register runners: declare registered runners only)` }];
  },

  notices(desired, current) {
    const declared = new Set(desired.map((d) => d.key));
    return current.filter((c) => declared.has(c.key) && c.fields.status !== 'online').map((c) => `runner "${c.key}" is ${status(c)}`);
  },

  ops({ action, desired, current }) {
    if (action !== 'update' && action !== 'delete') return notAnActionOf('runner', action);
    const path = apiPath('admin', 'actions', 'runners', current.id!);
    if (action === 'delete') return [{ method: 'DELETE', path }];
    // disabled is required in every edit body.
    return [{ method: 'PATCH', path, body: { disabled: desired.fields.disabled ?? current.fields.disabled } }];
  },

  async annotate(change, scope, ctx) {
    if (change.action !== 'delete') return undefined;
    const current = (await ctx.currentOf(this, scope)).find((c) => c.key === change.key && (!change.id.includes('#') || change.id.endsWith(`#${c.id}`)));
    return current ? { notes: [`the runner is ${status(current)}`] } : undefined;
  },

  fromServer(raw) {
    const r = raw as Record<string, unknown>;
    return { key: String(r.name), id: Number(r.id), fields: { ...normalizeFields(fields, r, false), ...runnerState(r) } };
  },

  exportInto(config, objects) {
    config.actions = { ...(config.actions as object | undefined), runners: objects };
  },
  toConfig(current: CurrentObject) {
    return { disabled: current.fields.disabled };
  },
};
