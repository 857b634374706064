import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, run by node before any build; it has no type declarations.
import { assembleSchema, FRAGMENTS, SCHEMA_PATH } from '../../scripts/assemble-schema.mjs';
// @ts-expect-error: as above.
import { configTypesSource, TYPES_PATH } from '../../scripts/config-types.mjs';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('schemas/forgeform.schema.json', () => {
  it('is exactly what the root part and the kinds’ fragments make (edit the fragments, then run node scripts/assemble-schema.mjs)', () => {
    expect((assembleSchema as () => string)() === read(SCHEMA_PATH as string)).toBe(true);
  });

  it('takes every definition and section from exactly one fragment, and every $ref resolves', () => {
    const schema = JSON.parse(read(SCHEMA_PATH as string)) as { properties: object; definitions: Record<string, unknown> };
    const owners = new Map<string, string>();
    for (const name of FRAGMENTS as string[]) {
      const fragment = JSON.parse(read(`src/kinds/${name}/schema.json`)) as { definitions?: object; properties?: object };
      for (const d of Object.keys(fragment.definitions ?? {})) owners.set(d, name);
    }
    expect([...owners.keys()].sort()).toEqual(Object.keys(schema.definitions).sort());
    const refs = [...JSON.stringify(schema).matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const r of refs) expect(schema.definitions).toHaveProperty([r]);
  });

  it('has its TypeScript types generated from it (src/config/schema-types.ts; npm run schema writes both)', () => {
    expect((configTypesSource as () => string)() === read(TYPES_PATH as string)).toBe(true);
  });
});
