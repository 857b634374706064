import { describe, expect, it } from 'vitest';
import { kindByName, kinds, registry } from '../../src/kinds/index.js';
import { changeId, kindsByName, scopeCreationIds, SERVER_SCOPE, targetTypes } from '../../src/model/index.js';

/** What every kind of the registry promises the generic stages. */
describe('kind registry contract', () => {
  it('gives every kind a unique machine name and config key per scope type', () => {
    expect(new Set(kinds.map((k) => k.name)).size).toBe(kinds.length);
    const keys = kinds.map((k) => `${k.scopeType} ${k.configKey}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is a map by name, in registry order, that refuses two kinds of one name and names an unknown one', () => {
    expect([...registry.keys()]).toEqual(kinds.map((k) => k.name));
    for (const k of kinds) expect(registry.get(k.name)).toBe(k);
    expect(() => kindsByName([...kinds, kinds[0]!])).toThrow(`two kinds are named ${kinds[0]!.name}`);
    expect(() => kindByName('branch-protection')).toThrow('unknown kind branch-protection');
  });

  it('gives every --target type to one kind only, server-wide kinds or those that create scopes', () => {
    const types = kinds.flatMap((k) => (k.target ? [k.target.type] : []));
    expect(new Set(types).size).toBe(types.length);
    for (const k of kinds.filter((k) => k.target)) expect(k.scopeType === 'server' || k.createsScope !== undefined, k.name).toBe(true);
    expect(targetTypes(kinds)[0]?.type, 'the most specific scope selector comes first in help').toBe(kinds.find((k) => k.createsScope === 'repo')?.target?.type);
  });

  it('lets a scope of every type but the server be created by exactly one server-wide kind', () => {
    for (const type of ['repo', 'org'] as const) {
      const creators = kinds.filter((k) => k.createsScope === type);
      expect(creators, type).toHaveLength(1);
      expect(creators[0]!.scopeType).toBe('server');
      expect(scopeCreationIds(kinds)(type, 'x')).toBe(changeId(creators[0]!, SERVER_SCOPE, 'x'));
    }
  });

  it('plans every kind whose objects another kind references (Kind.references) before it, and references only its fields', () => {
    for (const k of kinds) {
      for (const [field, target] of Object.entries(k.references ?? {})) {
        expect(k.after ?? [], `${k.name}.${field}`).toContain(target.name);
        expect(k.fields.map((f) => f.name), k.name).toContain(field);
        expect(kinds).toContain(target);
      }
    }
  });

  it('declares for every kind the actions its plan files may hold and the fields it compares', () => {
    for (const k of kinds) {
      expect(k.actions.length, k.name).toBeGreaterThan(0);
      expect(new Set(k.fields.map((f) => f.name)).size, k.name).toBe(k.fields.length);
    }
  });
});
