import type { Config, RunnerConfig } from '../../config/types.js';
import type { GiteaClient } from '../../gitea/client.js';
import { apiPath } from '../../gitea/path.js';
import { bool, normalizeFields } from '../fields.js';
import type { CurrentObject, DesiredObject, FieldSpec, Kind } from '../../model/index.js';

const fields: FieldSpec[] = [bool('disabled')];

interface RunnerPage {
  runners?: unknown[] | null;
  total_count?: unknown;
}

/** The runner list has no paging headers: its body carries total_count (behavior.md §9). */
function listRunners(client: GiteaClient): Promise<unknown[]> {
  return client.listWrapped(
    'admin/actions/runners',
    { object: 'Actions runners' },
    (body) => ({ items: (body as RunnerPage | null)?.runners, total: (body as RunnerPage | null)?.total_count }),
    'total_count',
  );
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

  async read(_scope, { client }) {
    return (await listRunners(client)).map((r) => this.fromServer(r));
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
    const path = apiPath('admin', 'actions', 'runners', current!.id!);
    if (action === 'delete') return [{ method: 'DELETE', path }];
    // disabled is required in every edit body.
    return [{ method: 'PATCH', path, body: { disabled: desired!.fields.disabled ?? current!.fields.disabled } }];
  },

  async annotate(change, scope, ctx) {
    if (change.action !== 'delete') return undefined;
    const current = (await ctx.currentOf(this, scope)).find((c) => c.key === change.key && (!change.id.includes('#') || change.id.endsWith(`#${c.id}`)));
    return current ? { notes: [`the runner is ${status(current)}`] } : undefined;
  },

  fromServer(raw) {
    const r = raw as Record<string, unknown>;
    return { key: String(r.name), id: Number(r.id), fields: { ...normalizeFields(fields, r, false), status: r.status, busy: Boolean(r.busy) } };
  },

  exportInto(config, objects) {
    config.actions = { ...(config.actions as object | undefined), runners: objects };
  },
  toConfig(current: CurrentObject) {
    return { disabled: current.fields.disabled };
  },
};
