import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, run by node before any build; it has no type declarations.
import { assembleSchema, fragmentFolders, SCHEMA_PATH } from '../../scripts/assemble-schema.mjs';
// @ts-expect-error: as above.
import { loadKindSources } from '../../scripts/kind-sources.mjs';
// @ts-expect-error: as above.
import { configTypesSource, TYPES_PATH } from '../../scripts/config-types.mjs';
// @ts-expect-error: as above.
import { fieldDocs, SERVERS_PAGE } from '../../scripts/field-docs.mjs';
import { kinds } from '../../src/kinds/index.js';
import type { SchemaFragment } from '../../src/model/index.js';

/** The kind folders whose fragments make the schema, as the assembler derives them from the registry. */
const fragments = async () => (fragmentFolders as (sources: unknown) => string[])(await (loadKindSources as () => Promise<unknown>)());
const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** A kind folder's fragment as the assembler takes it: exported by its fields.ts. */
async function fragmentOf(folder: string): Promise<SchemaFragment> {
  return ((await import(fileURLToPath(new URL(`../../src/kinds/${folder}/fields.ts`, import.meta.url)))) as { fragment: SchemaFragment }).fragment;
}

describe('schemas/forgeform.schema.json', () => {
  it('is exactly what the root part and the kinds’ field definitions make (edit src/kinds/*/fields.ts, then run npm run schema)', async () => {
    expect((await (assembleSchema as () => Promise<string>)()) === read(SCHEMA_PATH as string)).toBe(true);
  });

  it('takes every definition and section from exactly one fragment, and every $ref resolves', async () => {
    const schema = JSON.parse(read(SCHEMA_PATH as string)) as { properties: object; definitions: Record<string, unknown> };
    const owners = new Map<string, string>();
    for (const name of await fragments()) for (const d of Object.keys((await fragmentOf(name)).definitions ?? {})) owners.set(d, name);
    expect([...owners.keys()].sort()).toEqual(Object.keys(schema.definitions).sort());
    const refs = [...JSON.stringify(schema).matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const r of refs) expect(schema.definitions).toHaveProperty([r]);
  });

  it('allows in policy.prune exactly the prune keys of the kinds that delete (from the registry)', () => {
    const schema = JSON.parse(read(SCHEMA_PATH as string)) as { properties: { policy: { properties: { prune: { items: { enum: string[] } } } } } };
    const deleting = new Set(kinds.filter((k) => k.pruneKey && k.actions.includes('delete')).map((k) => k.pruneKey));
    expect([...schema.properties.policy.properties.prune.items.enum].sort()).toEqual([...deleting].sort());
  });

  it('takes each kind’s entries of policy from its fragment: the ones the kind owns (KindMeta.policy), no others', async () => {
    const schema = JSON.parse(read(SCHEMA_PATH as string)) as { properties: { policy: { properties: Record<string, unknown> } } };
    const fromKinds: string[] = [];
    for (const name of await fragments()) {
      const fragment = await fragmentOf(name);
      const owners = kinds.filter((k) => k.name === name || k.name.endsWith(`_${name}`));
      const owned = [...new Set(owners.flatMap((k) => Object.keys(k.policy ?? {})))];
      expect(Object.keys(fragment.policy ?? {}).sort(), name).toEqual(owned.sort());
      for (const [entry, def] of Object.entries(fragment.policy ?? {})) expect(schema.properties.policy.properties[entry]).toEqual(def);
      fromKinds.push(...owned);
    }
    expect(fromKinds).toEqual(expect.arrayContaining(['protected_users', 'purge_users']));
  });

  it('has its TypeScript types generated from it (src/config/schema-types.ts; npm run schema writes both)', () => {
    expect((configTypesSource as () => string)() === read(TYPES_PATH as string)).toBe(true);
  });
});

describe('one definition per field', () => {
  it('gives every field of every kind its config definition, which is the schema of that field in the kind’s definition', () => {
    const schema = JSON.parse(read(SCHEMA_PATH as string)) as { definitions: Record<string, { properties: Record<string, unknown> }> };
    // A definition may be one field's schema itself (a collaborator is its permission: `alice: write`).
    const all = [...Object.values(schema.definitions), ...Object.values(schema.definitions).flatMap((d) => Object.values(d.properties ?? {}).flatMap((p) => [p, ...Object.values((p as { properties?: object }).properties ?? {})]))];
    for (const kind of kinds)
      for (const f of kind.fields) {
        expect(f.config, `${kind.name}.${f.name} has no config definition`).toBeDefined();
        // The very object the schema holds: assembled from the definition, not written beside it.
        expect(all.some((p) => JSON.stringify(p) === JSON.stringify(f.config)), `${kind.name}.${f.name}`).toBe(true);
      }
  });

  it('produces a field’s schema, types and docs rows from its one definition (branch protection priority)', async () => {
    const { fields } = await import('../../src/kinds/branch_protection/fields.js');
    const priority = fields.find((f) => f.name === 'priority')!;
    expect(priority).toMatchObject({ type: 'scalar', answer: 'integer', availability: { gitea: { since: '1.23' } } });
    const schema = JSON.parse(read(SCHEMA_PATH as string)) as { definitions: { branch_protection: { properties: Record<string, unknown> } } };
    expect(schema.definitions.branch_protection.properties.priority).toEqual(priority.config);
    expect(read(TYPES_PATH as string)).toMatch(/\n {2}\/\*\*\n(?: {3}\* .*\n)+ {3}\*\/\n {2}priority\?: number;\n/);
    const pages = await (fieldDocs as () => Promise<Map<string, string>>)();
    expect(pages.get('docs/kinds/branch-protections.md')).toContain(`| \`priority\` | integer ≥ 1 | Gitea ≥ 1.23 |  | ${priority.config!.description!} |`);
    expect(pages.get(SERVERS_PAGE as string)).toContain('| `branch_protections` › `priority` | Gitea ≥ 1.23 |');
  });
});

describe('the docs generated from the field definitions', () => {
  it('are what the definitions make: each kind page’s field table and docs/servers.md’s releases (npm run schema writes them)', async () => {
    const pages = (await (fieldDocs as () => Promise<Map<string, string>>)());
    expect(pages.has(SERVERS_PAGE as string)).toBe(true);
    const stale = [...pages].filter(([path, text]) => read(path) !== text).map(([path]) => path);
    expect(stale).toEqual([]);
  });

  it('list in docs/servers.md every field that only some releases have, with the releases', async () => {
    const page = (await (fieldDocs as () => Promise<Map<string, string>>)()).get(SERVERS_PAGE as string)!;
    for (const kind of kinds) for (const f of kind.fields) if (f.availability) expect(page).toContain(`\`${f.name}\` |`);
    expect(page).toContain('| `actions.runners` (the kind: its routes) | Gitea ≥ 1.24 or Forgejo ≥ 15 |');
  });
});
