import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConfigPath, LoadedConfig, SourceLocation } from '../../src/config/types.js';
import { kinds } from '../../src/kinds/index.js';
import { declaredAt, EACH, parseServerSpec, serverHas, type ServerInfo } from '../../src/model/index.js';
import { unavailableIn } from '../../src/plan/availability.js';
import { FLAVOURS } from '../../src/sandbox/flavours/flavour.js';

/**
 * Issue 27 item 1: every field a kind declares with an availability is refused, at its place and by
 * name, on each released flavour without it, and passes on each with it. Walks the kinds' field
 * tables, so a kind whose objects the check does not reach (repo_settings walked repos.*.settings.*
 * before) fails here.
 */
const released = FLAVOURS.filter((f) => Number.isFinite(f.release));
const serverOf = (name: string): ServerInfo => {
  const s = parseServerSpec(name);
  if (typeof s === 'string') throw new Error(s);
  return s;
};

/** A config with one object of the kind holding only `field`, and the field's path in it. */
function configWith(pattern: ConfigPath, field: string): { config: Record<string, unknown>; path: ConfigPath } {
  const path = pattern.map((step, i) => (step === EACH ? `x${i}` : step));
  const root: Record<string, unknown> = { version: 1 };
  let at = root;
  for (const step of path) {
    const next: Record<string, unknown> = {};
    at[String(step)] = next;
    at = next;
  }
  at[field] = true;
  return { config: root, path: [...path, field] };
}

const loadedOf = (config: unknown): Pick<LoadedConfig, 'config' | 'locate'> => ({
  config: config as LoadedConfig['config'],
  locate: (path: ConfigPath): SourceLocation => ({ file: 'f.yaml', line: path.length, col: 1 }),
});

type Schema = { $ref?: string; properties?: Record<string, Schema>; additionalProperties?: Schema | boolean; items?: Schema; if?: { type?: string }; else?: Schema; definitions?: Record<string, Schema> };
const schema = JSON.parse(readFileSync(new URL('../../schemas/forgeform.schema.json', import.meta.url), 'utf8')) as Schema;
/** The schema of the value at a config path (the published schema, not the kind's declaredAt): undefined where the config cannot hold one. */
function schemaAt(path: ConfigPath): Schema | undefined {
  let at: Schema | undefined = schema;
  for (const step of path) {
    // A droppable object (`if: {type: null}, else: X`) is X where it is not null.
    for (;;) {
      if (at?.if?.type === 'null' && at.else) at = at.else;
      else if (at?.$ref) at = schema.definitions?.[at.$ref.replace('#/definitions/', '')];
      else break;
    }
    const next: Schema | boolean | undefined = at?.properties?.[String(step)] ?? at?.additionalProperties ?? at?.items;
    at = typeof next === 'object' ? next : undefined;
  }
  return at;
}

const gated = kinds.flatMap((kind) => kind.fields.filter((f) => f.availability).map((field) => ({ kind, field })));

describe('every gated field of every kind, on every released flavour', () => {
  it('the walk covers the gated fields issue 27 names', () => {
    const names = gated.map(({ kind, field }) => `${kind.name}.${field.name}`);
    for (const n of ['repo_settings.allow_manual_merge', 'repo_settings.autodetect_manual_merge', 'repo_settings.allow_fast_forward_only_merge', 'branch_protection.priority'])
      expect(names).toContain(n);
    expect(released.length).toBeGreaterThanOrEqual(9);
  });

  for (const { kind, field } of gated) {
    it(`${kind.name}.${field.name}`, () => {
      const { config, path } = configWith(declaredAt(kind), field.name);
      // The place the test writes the field is one the published schema has for it.
      expect(schemaAt(path), `schema has ${path.join('.')}`).toBeDefined();
      for (const flavour of released) {
        const server = serverOf(flavour.name);
        const atField = unavailableIn(kinds, loadedOf(config), server).filter((d) => JSON.stringify(d.path) === JSON.stringify(path));
        if (serverHas(server, field.availability)) {
          expect(atField, `${flavour.name} has ${field.name}`).toEqual([]);
        } else {
          expect(atField, `${flavour.name} lacks ${field.name}`).toHaveLength(1);
          expect(atField[0]).toMatchObject({ file: 'f.yaml', line: path.length });
          expect(atField[0]!.message).toMatch(new RegExp(`^${field.name} needs .*\\(server: ${flavour.fork === 'gitea' ? 'Gitea' : 'Forgejo'} `));
        }
      }
    });
  }
});
