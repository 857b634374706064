// Issue 29: one kind contract. What defineKind returns is the kind's definition itself (no adapter between
// the engine and the kind), and the engine's requests (src/model/requests.ts) are what each phase gets:
// a plan request where the context has the configuration, an apply request otherwise, the scope with
// the names its routes are made of, the kind itself as `self`, and the kind's own state for the run.
import { describe, expect, it } from 'vitest';
import type { GiteaClient } from '../../src/gitea/client.js';
import { changeRequest, defineKind, planRequest, requestOf, type Change, type KindTypes } from '../../src/model/index.js';
import { makeKindContext, makeScopeContext } from '../../src/plan/planner.js';
import { policyOf } from '../../src/plan/safety.js';
import { loadedConfig } from './engine/fake.js';

type GadgetTypes = KindTypes<{ gadgets?: Record<string, { color?: string }> }, { id: number; name: string }, string[], { runs: number }>;

function gadgetKind() {
  const seen: { phase: string; run: { runs: number }; selfIsKind: boolean }[] = [];
  const definition = {
    name: 'gadget',
    title: 'gadget',
    configKey: 'gadgets',
    pruneKey: 'gadgets',
    scopeType: 'repo' as const,
    actions: ['create' as const],
    fields: [],
    runState: () => ({ runs: 0 }),
    read: async (req: { phase: string; run: { runs: number }; self: unknown }) => {
      req.run.runs++;
      seen.push({ phase: req.phase, run: req.run, selfIsKind: req.self === kind });
      return [];
    },
    fromServer: (raw: { id: number; name: string }) => ({ key: raw.name, id: raw.id, fields: {} }),
    desired: async () => undefined,
    ops: () => [],
  };
  const kind = defineKind<GadgetTypes['config'], GadgetTypes['server'], GadgetTypes['prepared'], GadgetTypes['run']>(definition);
  return { definition, kind, seen };
}

const client = {} as GiteaClient;
const repo = { type: 'repo' as const, name: 'acme/app' };

describe('the kind contract', () => {
  it('defineKind gives the engine the definition itself: the engine calls the kind\'s own facets', () => {
    const { definition, kind } = gadgetKind();
    expect(kind).toBe(definition);
    expect(kind.read).toBe(definition.read);
  });

  it('a plan request where the context has the configuration, an apply request otherwise; the kind is its own self; one state per kind and run', async () => {
    const { kind, seen } = gadgetKind();
    const planning = makeKindContext(client, loadedConfig({}));
    await kind.read(requestOf(kind, repo, planning));
    await kind.read(requestOf(kind, repo, planning));
    const applying = makeScopeContext(client, policyOf(undefined));
    await kind.read(requestOf(kind, repo, applying));
    expect(seen.map((s) => [s.phase, s.run.runs, s.selfIsKind])).toEqual([
      ['plan', 2, true],
      ['plan', 2, true],
      ['apply', 1, true],
    ]);
    expect(seen[0]?.run).toBe(seen[1]?.run);
  });

  it('a request carries the scope with the names its routes are made of, and at plan time the whole configuration', () => {
    const { kind } = gadgetKind();
    const planning = makeKindContext(client, loadedConfig({ repos: { 'acme/app': {} } }));
    const req = planRequest(kind, repo, planning);
    expect(req.scope).toEqual({ type: 'repo', name: 'acme/app', segments: ['repos', 'acme', 'app'], owner: 'acme' });
    expect(req.config).toBe(planning.loaded.config);
    expect(requestOf(kind, { type: 'org', name: 'acme' }, makeScopeContext(client, policyOf(undefined))).scope).toEqual({ type: 'org', name: 'acme', segments: ['orgs', 'acme'], owner: 'acme' });
    const change = { id: 'gadget/repo:acme/app/g', kind: 'gadget', scope: 'repo:acme/app', key: 'g', action: 'create', fields: [], precondition: { digest: null }, depends_on: [], ops: [] } satisfies Change;
    expect(changeRequest(kind, change, planning).scope).toEqual(req.scope);
  });
});
