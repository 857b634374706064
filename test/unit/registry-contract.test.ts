// The contract every kind of the registry fulfils, checked for all of them at once (Renovate's
// manager contract test): adding a kind that breaks it fails here, naming the kind. Unique names,
// config keys and target types are checked in test/unit/registry.test.ts; export → plan being empty
// end to end in test/e2e/export.test.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadedConfig } from '../../src/config/types.js';
import { GiteaClient } from '../../src/gitea/client.js';
import { kinds } from '../../src/kinds/index.js';
import { planRequest, requestOf, planningOrder, SERVER_SCOPE, type Action, type CurrentObject, type DesiredObject, type Kind, type KindContext, type Op, type OpsSubject, type Scope } from '../../src/model/index.js';
import { makeKindContext } from '../../src/plan/planner.js';
import { DOMAINS } from '../../src/sandbox/domains/index.js';
import { defaultFlavour } from '../../src/sandbox/flavours/flavour.js';
import { ApiRouter, API_PREFIX } from '../../src/sandbox/http/router.js';
import { emptyState } from '../../src/sandbox/core/state-file.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { EVERY_KIND, EVERY_KIND_NAMED } from '../support/seeds.js';
import { opsInput } from '../support/ops-input.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const KINDS_DIR = join(root, 'src/kinds');

describe('every kind of the registry', () => {
  it('waits only for kinds that exist, in an order without cycles', () => {
    expect(() => planningOrder(kinds)).not.toThrow();
    expect(planningOrder(kinds)).toHaveLength(kinds.length);
  });

  it('lives in its own folder src/kinds/<kind>/ (a family of scope types: src/kinds/<name>/) with a schema fragment that defines the config under its config key', async () => {
    const schema = JSON.parse(readFileSync(join(root, 'schemas/forgeform.schema.json'), 'utf8')) as Schema;
    const folders = readdirSync(KINDS_DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    const exported = new Map<Kind, string[]>();
    for (const folder of folders) {
      const module = (await import(join(KINDS_DIR, folder, 'index.js'))) as Record<string, unknown>;
      for (const value of Object.values(module)) if (kinds.includes(value as Kind)) exported.set(value as Kind, [...(exported.get(value as Kind) ?? []), folder]);
    }
    const problems: string[] = [];
    for (const kind of kinds) {
      const [folder, ...more] = exported.get(kind) ?? [];
      if (!folder || more.length) {
        problems.push(`${kind.name}: exported by ${folder ? [folder, ...more].join(' and ') : 'no folder of src/kinds'}`);
        continue;
      }
      const family = [...exported].filter(([, f]) => f[0] === folder).map(([k]) => k);
      if (!folderNameFits(folder, family)) problems.push(`${kind.name}: lives in src/kinds/${folder}/, which is not its name (${folderRule})`);
      const fragment = await fragmentOf(folder);
      if (!fragment) {
        problems.push(`${kind.name}: src/kinds/${folder} has no schema fragment (fields.ts exporting \`fragment\`)`);
        continue;
      }
      const own = Object.keys(fragment.definitions ?? {});
      const section = sectionOf(schema, kind);
      if (!section) problems.push(`${kind.name}: the schema has no "${kind.configKey}" where ${kind.scopeType} kinds are declared`);
      else if (!refsOf(section).some((d) => own.includes(d))) problems.push(`${kind.name}: "${kind.configKey}" refers to none of the definitions of src/kinds/${folder}'s fragment (${own.join(', ')})`);
    }
    expect(problems).toEqual([]);
  });
});

/** A kind folder's schema fragment: the one its field definitions (fields.ts) export. */
async function fragmentOf(folder: string): Promise<Schema | undefined> {
  if (!existsSync(join(KINDS_DIR, folder, 'fields.ts'))) return undefined;
  return ((await import(join(KINDS_DIR, folder, 'fields.js'))) as { fragment?: Schema }).fragment;
}

/**
 * The folder of a kind is its name (src/kinds/branch_protection holds branch_protection). A family of
 * kinds that differ only by scope type shares one folder named after what they share: src/kinds/label
 * holds repo_label and org_label, each named `<scope type>_<folder>`.
 */
const folderRule = 'a kind lives in src/kinds/<its name>/, a family of kinds of several scope types in src/kinds/<name>/ with each kind named <scope type>_<name>';
function folderNameFits(folder: string, family: Kind[]): boolean {
  if (family.length === 1) return family[0]!.name === folder;
  return new Set(family.map((k) => k.scopeType)).size === family.length && family.every((k) => k.name === `${k.scopeType}_${folder}`);
}

it('(the folder rule tells a kind in a folder of another name)', () => {
  const kind = (name: string, scopeType: Kind['scopeType']) => ({ name, scopeType }) as Kind;
  expect(folderNameFits('branch_protection', [kind('branch_protection', 'repo')])).toBe(true);
  expect(folderNameFits('branch-protection', [kind('branch_protection', 'repo')])).toBe(false);
  expect(folderNameFits('label', [kind('repo_label', 'repo'), kind('org_label', 'org')])).toBe(true);
  expect(folderNameFits('label', [kind('repo_label', 'repo')])).toBe(false);
  expect(folderNameFits('label', [kind('repo_label', 'repo'), kind('issue', 'repo')])).toBe(false);
});

interface Schema {
  properties?: Record<string, Schema>;
  definitions?: Record<string, Schema>;
}

/** The schema of a kind's config key where its scope type declares kinds: top level (or one section down, as actions.runners) for the server, the scope's definition otherwise. */
function sectionOf(schema: Schema, kind: Kind): Schema | undefined {
  if (kind.scopeType !== 'server') return schema.definitions?.[kind.scopeType]?.properties?.[kind.configKey];
  const top = schema.properties ?? {};
  return top[kind.configKey] ?? Object.values(top).find((s) => s.properties?.[kind.configKey])?.properties?.[kind.configKey];
}

/** The definition names a schema refers to, at any depth. */
function refsOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refsOf(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v.replace('#/definitions/', ''));
      else refsOf(v, out);
    }
  }
  return out;
}

// ---- every request a kind can send is a route of the sandbox ----

const TOKEN = 'contract-token';
const SCOPES: Record<Scope['type'], Scope> = {
  server: SERVER_SCOPE,
  org: { type: 'org', name: 'acme' },
  repo: { type: 'repo', name: 'acme/widgets', repo: { owner: 'acme', name: 'widgets', ownerIsOrg: true, archived: false } },
};

describe('the sandbox serves every request a kind can send', () => {
  let sandbox: Sandbox;
  let ctx: KindContext;
  const router = new ApiRouter(new Hono(), emptyState(), () => '/', defaultFlavour());
  for (const domain of DOMAINS) domain.routes?.(router);
  const served = (op: Op) => router.methodsFor(`${API_PREFIX}/${op.path.replace('{id}', '1')}`).includes(op.method);

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, token: TOKEN, seed: EVERY_KIND });
    const client = new GiteaClient({ url: sandbox.url, credentials: { token: TOKEN } });
    const loaded = { config: { version: 1 }, locate: () => undefined, files: [], secrets: new Map(), digest: '' } as unknown as LoadedConfig;
    ctx = makeKindContext(client, loaded, { readEverything: true }, { kinds });
  });
  afterAll(() => sandbox?.close());

  it.each(kinds.map((k) => [k.name, k] as const))('%s', async (_name, kind) => {
    const scope = SCOPES[kind.scopeType];
    const named = (EVERY_KIND_NAMED[kind.name] ?? []).map((key): DesiredObject => ({ key, fields: {}, path: [] }));
    const [current] = await kind.read({ ...requestOf(kind, scope, ctx), desired: named });
    expect(current, `${kind.name}: test/support/seeds.ts OBJECTS_OF gives it none: add one (and, for a kind that reads only named objects, their names in EVERY_KIND_NAMED)`).toBeDefined();
    const ops = await opsOfEveryAction(kind, scope, current!, ctx);
    // Every action of the kind sends at least one request.
    expect([...new Set(ops.map((o) => o.action))].sort()).toEqual([...kind.actions].sort());
    expect(ops.filter(({ op }) => !served(op)).map(({ action, op }) => `${action}: ${op.method} ${op.path}`)).toEqual([]);
  });

  it('(the check itself tells a route from a path the sandbox does not serve)', () => {
    expect(served({ method: 'PATCH', path: 'repos/acme/widgets/labels/7' })).toBe(true);
    expect(served({ method: 'PUT', path: 'repos/acme/widgets/labels/7' })).toBe(false);
    expect(served({ method: 'GET', path: 'repos/acme/widgets/gizmos' })).toBe(false);
  });
});

/**
 * The requests of a synthetic change of each action the kind has, built from a server object: an
 * update of every managed field (once as read, once with every list emptied), a create and a
 * replace of it, its rename, its deletion.
 */
async function opsOfEveryAction(kind: Kind, scope: Scope, current: CurrentObject, ctx: KindContext): Promise<{ action: Action; op: Op }[]> {
  const managed = kind.fields.filter((f) => f.name in current.fields);
  const asRead = Object.fromEntries(managed.map((f) => [f.name, current.fields[f.name]]));
  const emptied = Object.fromEntries(managed.map((f) => [f.name, f.type === 'set' ? [] : current.fields[f.name]]));
  const variants: OpsSubject[] = [
    { action: 'update', desired: { key: current.key, fields: asRead, path: [] }, current },
    { action: 'update', desired: { key: current.key, fields: emptied, path: [] }, current },
    { action: 'create', desired: { key: current.key, fields: asRead, path: [] } },
    { action: 'replace', desired: { key: current.key, fields: asRead, path: [] }, current },
    { action: 'rename', desired: { key: `${current.key}-renamed`, fields: asRead, path: [] }, current },
    { action: 'delete', current },
  ];
  const out: { action: Action; op: Op }[] = [];
  for (const v of variants.filter((v) => kind.actions.includes(v.action))) {
    const changed = v.desired ? managed.filter((f) => !f.writeOnly).map((f) => f.name) : [];
    const prepared = await kind.prepare?.({ ...requestOf(kind, scope, ctx), desired: v.desired ? [v.desired] : [], current: v.current ? [v.current] : [] });
    const input = opsInput(kind, { scope, ...v, changed, ctx, prepared });
    const shown = kind.shown?.({ ...input, ...planRequest(kind, scope, ctx) }) ?? {};
    for (const op of kind.ops({ ...input, shown })) out.push({ action: v.action, op });
  }
  return out;
}
