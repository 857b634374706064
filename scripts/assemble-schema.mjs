// Writes schemas/forgeform.schema.json from its parts: schemas/parts/root.json (the format version,
// server and policy) and one fragment per kind beside the kind's module (src/kinds/<kind>/schema.json:
// the definitions it owns and, for a kind with a section of its own, that top-level property).
// A kind's config is edited in its fragment, never in the assembled file:
//   node scripts/assemble-schema.mjs          writes the schema
//   node scripts/assemble-schema.mjs --check  exits 1 when the committed schema is not what the parts make
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
export const SCHEMA_PATH = 'schemas/forgeform.schema.json';

/** The fragments, in the order of their definitions in the schema. One not listed here is an error, not silently left out. */
export const FRAGMENTS = ['org', 'repo', 'label', 'branch_protection', 'issue', 'user', 'hook', 'runner'];

/**
 * The top-level sections the fragments add, in the order they follow the root's own (version, server,
 * policy). Users see this order: an unknown key's message lists the allowed keys in it.
 */
export const SECTIONS = ['users', 'hooks', 'orgs', 'repos', 'actions'];

const readJson = (path) => JSON.parse(readFileSync(new URL(path, root), 'utf8'));

/** Adds `from`'s members to `into`, refusing a name two parts define. */
function addAll(into, from, what, part) {
  for (const [name, value] of Object.entries(from ?? {})) {
    if (Object.hasOwn(into, name)) throw new Error(`${part}: ${what} "${name}" is defined by another part too`);
    into[name] = value;
  }
}

/** The assembled schema as the text of schemas/forgeform.schema.json. */
export function assembleSchema() {
  const onDisk = readdirSync(new URL('src/kinds/', root), { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(new URL(`src/kinds/${d.name}/schema.json`, root))).map((d) => d.name);
  const unlisted = onDisk.filter((f) => !FRAGMENTS.includes(f));
  if (unlisted.length) throw new Error(`src/kinds/${unlisted[0]}/schema.json is not in FRAGMENTS of scripts/assemble-schema.mjs`);
  const schema = readJson('schemas/parts/root.json');
  const rootProperties = schema.properties;
  schema.properties = { ...rootProperties };
  schema.definitions = { ...schema.definitions };
  for (const name of FRAGMENTS) {
    const part = `src/kinds/${name}/schema.json`;
    const fragment = readJson(part);
    const extra = Object.keys(fragment).filter((k) => k !== 'properties' && k !== 'definitions' && k !== '$comment');
    if (extra.length) throw new Error(`${part}: a fragment holds properties and definitions only, not "${extra[0]}"`);
    addAll(schema.properties, fragment.properties, 'top-level property', part);
    addAll(schema.definitions, fragment.definitions, 'definition', part);
  }
  const fromFragments = Object.keys(schema.properties).filter((p) => !Object.hasOwn(rootProperties, p));
  const unordered = fromFragments.filter((p) => !SECTIONS.includes(p));
  if (unordered.length) throw new Error(`the top-level section "${unordered[0]}" is not in SECTIONS of scripts/assemble-schema.mjs`);
  schema.properties = Object.fromEntries([...Object.keys(rootProperties), ...SECTIONS.filter((p) => fromFragments.includes(p))].map((p) => [p, schema.properties[p]]));
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = assembleSchema();
  const target = new URL(SCHEMA_PATH, root);
  if (process.argv.includes('--check')) {
    if (readFileSync(target, 'utf8') !== text) {
      console.error(`${SCHEMA_PATH} is not what its parts make: run node scripts/assemble-schema.mjs (edit the fragments in src/kinds/*/schema.json, not the assembled file)`);
      process.exit(1);
    }
  } else writeFileSync(target, text);
}
