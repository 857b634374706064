/**
 * The contract generator (test/support/contract.ts) walks the schema: over a few hundred seeds it
 * reaches every field of every definition, and every kind of the registry appears in a config where
 * its scope puts it, so a kind or a field added later is generated without a line here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { kinds } from '../../src/kinds/index.js';
import { generate, schemaFields, type SchemaNode } from '../support/contract.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const schema = JSON.parse(readFileSync(join(root, 'schemas/forgeform.schema.json'), 'utf8')) as SchemaNode;
const SEEDS = 500;
const configs = Array.from({ length: SEEDS }, (_, i) => generate(schema, i));

const entries = (v: unknown): [string, unknown][] => (v && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v) : []);
/** The config sections where a kind of each scope type lives. */
function sectionsOf(config: Record<string, unknown>, scopeType: string): Record<string, unknown>[] {
  const inside = (key: string) => entries(config[key]).map(([, v]) => v).filter((v): v is Record<string, unknown> => !!v && typeof v === 'object');
  if (scopeType === 'org') return inside('orgs');
  if (scopeType === 'repo') return inside('repos');
  return [config, ...entries(config).map(([, v]) => v).filter((v): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v))];
}

describe('the contract generator', () => {
  it('is seeded: the same seed gives the same config', () => {
    expect(generate(schema, 7).config).toEqual(generate(schema, 7).config);
    expect(generate(schema, 7).config).not.toEqual(generate(schema, 8).config);
  });

  it(`reaches every field of the schema in ${SEEDS} configs`, () => {
    const visited = new Set(configs.flatMap((g) => [...g.visited]));
    const fields = [...schemaFields(schema)];
    expect(fields.length).toBeGreaterThan(100);
    expect(fields.filter((f) => !visited.has(f))).toEqual([]);
  });

  it(`gives every kind of the registry objects where its scope puts it, in ${SEEDS} configs`, () => {
    const missing = kinds.filter((k) => !configs.some((g) => sectionsOf(g.config, k.scopeType).some((s) => s[k.configKey] !== undefined && JSON.stringify(s[k.configKey]) !== '{}' && JSON.stringify(s[k.configKey]) !== '[]')));
    expect(missing.map((k) => `${k.name} (${k.scopeType}: ${k.configKey})`)).toEqual([]);
  });

  it('writes the edge values: a key differing only in case, a user without access, a string over its limit, an empty list', () => {
    // Valid first: edge values are in a quarter of the configs, one value in eight there, so they are looked for over more seeds.
    const text = [...configs.map((g) => g.config), ...Array.from({ length: 1600 }, (_, i) => generate(schema, SEEDS + i).config)].map((c) => JSON.stringify(c)).join('\n');
    expect(text).toContain('"Acme/Widgets"');
    expect(text).toContain('"bob"');
    // A user without access named where access is needed.
    expect(text).toMatch(/whitelist_username[s]?":\[[^\]]*"bob"/);
    const limits = [...JSON.stringify(schema).matchAll(/"maxLength":(\d+)/g)].map((m) => Number(m[1]));
    // Rare by design (an edge value, then one over a limit): looked for over more seeds than the rest, so that a schema
    // change that moves the random walk does not hide it.
    const overLimit = (config: unknown) => limits.some((n) => JSON.stringify(config).includes(`"${'a'.repeat(n + 1)}"`));
    expect(Array.from({ length: 4000 }, (_, i) => i).some((seed) => overLimit(seed < SEEDS ? configs[seed]!.config : generate(schema, seed).config))).toBe(true);
    expect(text).toContain('[]');
  });
});
