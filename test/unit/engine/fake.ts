// A small world for testing the generic engine without any real kind (octoDNS's HelperProvider
// pattern): a fake kind whose every hook is plain and visible here, and a fake server holding its
// objects in memory behind the few GiteaClient methods the planner, scope resolution and executor call.
// What a test asserts is what the engine made of it: changes, diagnostics, warnings, requests sent.
import type { Config, LoadedConfig } from '../../../src/config/types.js';
import type { GiteaClient, RequestOptions, Response } from '../../../src/gitea/client.js';
import { ApiError } from '../../../src/gitea/errors.js';
import type { CurrentObject, DesiredObject, Kind, Problem, Scope } from '../../../src/model/index.js';
import { changeId } from '../../../src/model/index.js';
import { buildPlan, type PlanResult } from '../../../src/plan/planner.js';
import type { KindOptions } from '../../../src/model/index.js';
import { Secret, SecretTemplates } from '../../../src/secret.js';

export interface Row {
  id: number;
  name: string;
  [field: string]: unknown;
}

export interface Sent {
  method: string;
  path: string;
  body?: unknown;
}

/**
 * Repositories (full name → archived) and, per collection path ("repos/acme/app/widgets", "gizmos"),
 * the objects the server holds. `fail` lets a test answer one request with an error status; with
 * `andDo` the server does the write first (a create whose answer is lost).
 */
export class FakeServer {
  repos = new Map<string, { archived: boolean }>();
  orgs = new Set<string>();
  rows = new Map<string, Row[]>();
  sent: Sent[] = [];
  fail: { method: string; path: RegExp; status: number; andDo?: boolean }[] = [];
  private nextId = 1;

  repo(fullName: string, archived = false): this {
    this.repos.set(fullName, { archived });
    return this;
  }

  /** Objects in a collection; each gets the next id. */
  add(collection: string, ...rows: Omit<Row, 'id'>[]): this {
    const list = this.rows.get(collection) ?? [];
    for (const r of rows) list.push({ ...r, id: this.nextId++ } as Row);
    this.rows.set(collection, list);
    return this;
  }

  names(collection: string): string[] {
    return (this.rows.get(collection) ?? []).map((r) => r.name).sort();
  }

  row(collection: string, name: string): Row | undefined {
    return this.rows.get(collection)?.find((r) => r.name === name);
  }

  /** The writes the server received, as `METHOD path`. */
  writes(): string[] {
    return this.sent.filter((s) => s.method !== 'GET').map((s) => `${s.method} ${s.path}`);
  }

  client(): GiteaClient {
    const request = async <T>(method: string, path: string, opts: RequestOptions = {}): Promise<Response<T>> => {
      fake.requestCount++;
      this.sent.push({ method, path, ...(opts.body !== undefined ? { body: opts.body } : {}) });
      const failure = this.fail.find((f) => f.method === method && f.path.test(path));
      if (failure && !failure.andDo) throw new ApiError(method, path, failure.status, 'the fake server says no');
      const data = this.answer(method, path, opts.body) as T;
      if (failure) throw new ApiError(method, path, failure.status, 'the answer was lost');
      return { status: 200, data, headers: new Headers() };
    };
    const fake = {
      baseUrl: 'http://127.0.0.1:1',
      requestCount: 0,
      retryCount: 0,
      request,
      get: async <T>(path: string): Promise<T> => (await request<T>('GET', path)).data,
      list: async <T>(path: string): Promise<T[]> => (await request<T[]>('GET', path)).data,
    };
    return fake as unknown as GiteaClient;
  }

  private answer(method: string, path: string, body: unknown): unknown {
    const notFound = () => new ApiError(method, path, 404, 'not found');
    const repo = /^repos\/([^/]+\/[^/]+)$/.exec(path);
    if (method === 'GET' && repo) {
      const r = this.repos.get(decodeURIComponent(repo[1]!));
      if (!r) throw notFound();
      return { name: repo[1]!.split('/')[1], full_name: repo[1], archived: r.archived };
    }
    const org = /^orgs\/([^/]+)$/.exec(path);
    if (method === 'GET' && org) {
      if (!this.orgs.has(org[1]!)) throw notFound();
      return { username: org[1] };
    }
    const one = /^(.*)\/(\d+)$/.exec(path);
    if (one && this.rows.has(one[1]!)) {
      const list = this.rows.get(one[1]!)!;
      const i = list.findIndex((r) => r.id === Number(one[2]));
      if (i < 0) throw notFound();
      if (method === 'DELETE') return list.splice(i, 1) && null;
      if (method === 'PATCH') Object.assign(list[i]!, body);
      return list[i];
    }
    if (method === 'GET') return this.rows.get(path) ?? [];
    if (method === 'POST') {
      const row = { ...(body as object), id: this.nextId++ } as Row;
      this.rows.set(path, [...(this.rows.get(path) ?? []), row]);
      return row;
    }
    throw notFound();
  }
}

export interface FakeKindOptions {
  name?: string;
  configKey?: string;
  scopeType?: Scope['type'];
  replaceToRotate?: boolean;
  /** Another fake kind whose object of the same key this one points at (a gadget on its widget). */
  refersTo?: string;
}

/** Where a fake kind's objects live on the fake server. */
export function collectionOf(configKey: string, scope: Scope): string {
  return scope.type === 'server' ? configKey : `${scope.type === 'repo' ? 'repos' : 'orgs'}/${scope.name}/${configKey}`;
}

/**
 * A kind with one field of each sort: color (scalar), tags (set), note (write-only), secret (write-only
 * and sensitive). Its hooks are the simplest that exercise the engine: check refuses color "forbidden",
 * keep spares names starting with "keep-", an archived repository is read-only, and with refersTo a
 * create points at the other kind's object of the same key ({"$ref"} when that one is created too).
 */
export function fakeKind(o: FakeKindOptions = {}): Kind {
  const name = o.name ?? 'widget';
  const configKey = o.configKey ?? `${name}s`;
  const scopeType = o.scopeType ?? 'repo';
  const collection = (scope: Scope) => collectionOf(configKey, scope);
  const kind: Kind = {
    configKey,
    name,
    title: name,
    pruneKey: configKey,
    scopeType,
    actions: ['create', 'update', 'delete', 'rename', 'replace'],
    fields: [
      { name: 'color', type: 'scalar', normalize: (v) => (typeof v === 'string' ? v.toLowerCase() : v) },
      { name: 'tags', type: 'set' },
      { name: 'note', type: 'scalar', writeOnly: true },
      { name: 'secret', type: 'scalar', writeOnly: true, sensitive: true },
    ],
    ...(o.replaceToRotate ? { replaceToRotate: true } : {}),
    ...(scopeType === 'server' ? { target: { type: name, placeholder: 'NAME' } } : {}),
    ...(o.refersTo ? { after: [o.refersTo] } : {}),
    async desired({ entry, scope }) {
      const declared = (entry as Record<string, Record<string, Record<string, unknown>> | undefined>)?.[configKey];
      if (!declared) return undefined;
      const base = scope.type === 'server' ? [configKey] : [scope.type === 'repo' ? 'repos' : 'orgs', scope.name, configKey];
      const problems: Problem[] = [];
      const objects = Object.entries(declared).map(([key, cfg]): DesiredObject => {
        const { previously, secret, ...fields } = cfg;
        if (fields.color === 'invalid') problems.push({ path: [...base, key, 'color'], message: 'color "invalid" is not a colour', hint: 'write a colour name' });
        return {
          key,
          fields: { ...fields, ...(typeof secret === 'string' ? { secret: new Secret(secret, '${FAKE_SECRET}') } : {}) },
          path: [...base, key],
          ...(previously ? { previously: previously as string[] } : {}),
        };
      });
      return { objects, problems };
    },
    async read({ scope, ctx }) {
      return (await ctx.client.list<Row>(collection(scope))).map((r) => kind.fromServer(r));
    },
    fromServer(raw): CurrentObject {
      const { id, name: key, ...fields } = raw as Row;
      return { key, id, fields };
    },
    check({ desired }) {
      return desired.fields.color === 'forbidden' ? [{ path: [...desired.path, 'color'], message: 'color "forbidden" is refused by the fake kind', hint: 'choose another colour' }] : [];
    },
    keep: ({ current }) => (current.key.startsWith('keep-') ? 'its name starts with keep-' : undefined),
    readOnlyReason: (scope) => (scope.repo?.archived ? `${scope.name} is archived` : undefined),
    ops({ scope, action, desired, current, ctx }) {
      const fields = desired?.fields ?? {};
      if (action === 'delete') return [{ method: 'DELETE', path: `${collection(scope)}/${current.id}` }];
      if (action === 'create' || action === 'replace') {
        const body: Record<string, unknown> = { name: desired.key, ...fields };
        if (o.refersTo) {
          // The object this one points at: its id when it exists, a {"$ref"} to its create when this plan makes it.
          const made = ctx.madeBy(fakeKind({ name: o.refersTo }), scope, desired.key);
          body.ref_id = made ? { $ref: made } : null;
        }
        const create = { method: 'POST' as const, path: collection(scope), body };
        return action === 'replace' ? [{ method: 'DELETE', path: `${collection(scope)}/${current.id}`, reason: 'the secret cannot be edited' }, create] : [create];
      }
      return [{ method: 'PATCH', path: `${collection(scope)}/${current.id}`, body: { ...(action === 'rename' ? { name: desired.key } : {}), ...fields } }];
    },
    toConfig: (current) => current.fields,
  };
  return kind;
}

/** A loaded configuration whose places are the config paths themselves (file "repos.acme/app.widgets.w"), so a test sees which place the engine located. */
export function loadedConfig(config: Record<string, unknown>): LoadedConfig {
  return {
    config: { version: 1, ...config } as unknown as Config,
    locate: (path) => ({ file: path.join('.'), line: 1, col: 1 }),
    files: ['forgeform.yml'],
    secrets: new Map(),
    secretTemplates: new SecretTemplates(),
    digest: 'fake',
  };
}

export interface PlanWith {
  kinds?: Kind[];
  options?: KindOptions;
  selectsScope?: (scope: Scope) => boolean;
}

/** buildPlan over the fake server with the fake kind (or the kinds given). */
export function plan(server: FakeServer, config: Record<string, unknown>, w: PlanWith = {}): Promise<PlanResult> {
  return buildPlan({
    client: server.client(),
    loaded: loadedConfig(config),
    kinds: w.kinds ?? [fakeKind()],
    ...(w.options ? { options: w.options } : {}),
    ...(w.selectsScope ? { selectsScope: w.selectsScope } : {}),
  });
}

/** Changes as `action id` lines, in plan order. */
export function actions(result: PlanResult): string[] {
  return result.plan.changes.map((c) => `${c.action} ${c.id}`);
}

export { changeId };
