// Writes schemas/forgeform.schema.json from its parts: schemas/parts/root.json (the format version,
// server and policy) and one fragment per kind, the `fragment` its field definitions export
// (src/kinds/<kind>/fields.ts: the definitions it owns, built from its fields, and, for a kind with a
// section of its own, that top-level property, and the entries of `policy` it owns).
// The fragments and the enum of policy.prune (every deleting kind's pruneKey) come from the registry (src/kinds/index.ts).
// A kind's config is edited in its field definitions, never in the assembled file:
//   node scripts/assemble-schema.mjs          writes the schema
//   node scripts/assemble-schema.mjs --check  exits 1 when the committed schema is not what the parts make
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { folderOf, loadKindSources } from './kind-sources.mjs';

const root = new URL('../', import.meta.url);
export const SCHEMA_PATH = 'schemas/forgeform.schema.json';

/**
 * The kind folders whose fragments make the schema, in the order of their definitions: the registry's
 * (src/kinds/index.ts), each folder where its first kind is. A folder with a fragment that no kind of
 * the registry comes from is an error, not silently left out.
 */
export function fragmentFolders(sources) {
  return [...new Set(sources.kinds.map((k) => folderOf(sources, k)).filter((f) => f !== undefined))];
}

/**
 * The prune keys policy.prune's enum (and so the message of a wrong entry) names first, in this
 * order: the one users have read since before the enum came from the registry. The prune key of any
 * other kind that deletes follows, in registry order (a new kind adds nothing here); a key here that
 * no kind of the registry prunes is an error.
 */
const PRUNE_KEYS_FIRST = ['labels', 'teams', 'branch_protections', 'users', 'hooks', 'runners', 'tag_protections', 'push_mirrors', 'collaborators', 'secrets', 'variables', 'webhooks'];

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

/** A kind folder's fragment: what its fields.ts exports. */
function fragmentOf(sources, name) {
  const fragment = sources.folders[name]?.fields?.fragment;
  if (!fragment) throw new Error(`src/kinds/${name} has no schema fragment: export one as \`fragment\` from its fields.ts`);
  return { part: `src/kinds/${name}/fields.ts`, fragment };
}

/** The prune key of every kind that deletes (a kind that never deletes, as organisations and repositories, has nothing to prune), once. */
function pruneKeys(sources) {
  const keys = [...new Set(sources.kinds.filter((k) => k.pruneKey && k.actions.includes('delete')).map((k) => k.pruneKey))];
  const gone = PRUNE_KEYS_FIRST.filter((k) => !keys.includes(k));
  if (gone.length) throw new Error(`PRUNE_KEYS_FIRST of scripts/assemble-schema.mjs names "${gone[0]}", the prune key of no kind that deletes: remove it`);
  return [...PRUNE_KEYS_FIRST, ...keys.filter((k) => !PRUNE_KEYS_FIRST.includes(k))];
}

/** The assembled schema as the text of schemas/forgeform.schema.json. */
export async function assembleSchema() {
  const sources = await loadKindSources();
  const folders = fragmentFolders(sources);
  const onDisk = Object.keys(sources.folders).filter((name) => sources.folders[name].fields?.fragment);
  const unlisted = onDisk.filter((f) => !folders.includes(f));
  if (unlisted.length) throw new Error(`the schema fragment of src/kinds/${unlisted[0]} belongs to no kind of the registry (src/kinds/index.ts): add its kind there`);
  const schema = readJson('schemas/parts/root.json');
  const prune = schema.properties.policy.properties.prune.items;
  if (prune.enum) throw new Error('schemas/parts/root.json: the enum of policy.prune comes from the registry (each kind\'s pruneKey): remove it from the part');
  prune.enum = pruneKeys(sources);
  const rootProperties = schema.properties;
  schema.properties = { ...rootProperties };
  schema.definitions = { ...schema.definitions };
  for (const name of folders) {
    const { part, fragment } = fragmentOf(sources, name);
    const extra = Object.keys(fragment).filter((k) => k !== 'properties' && k !== 'definitions' && k !== 'policy' && k !== '$comment');
    if (extra.length) throw new Error(`${part}: a fragment holds properties, definitions and policy entries only, not "${extra[0]}"`);
    addAll(schema.properties, fragment.properties, 'top-level property', part);
    addAll(schema.definitions, fragment.definitions, 'definition', part);
    addAll(schema.properties.policy.properties, fragment.policy, 'policy entry', part);
  }
  const fromFragments = Object.keys(schema.properties).filter((p) => !Object.hasOwn(rootProperties, p));
  const unordered = fromFragments.filter((p) => !SECTIONS.includes(p));
  if (unordered.length) throw new Error(`the top-level section "${unordered[0]}" is not in SECTIONS of scripts/assemble-schema.mjs`);
  schema.properties = Object.fromEntries([...Object.keys(rootProperties), ...SECTIONS.filter((p) => fromFragments.includes(p))].map((p) => [p, schema.properties[p]]));
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await assembleSchema();
  const target = new URL(SCHEMA_PATH, root);
  if (process.argv.includes('--check')) {
    if (readFileSync(target, 'utf8') !== text) {
      console.error(`${SCHEMA_PATH} is not what its parts make: run node scripts/assemble-schema.mjs (edit the kinds' field definitions in src/kinds/*/fields.ts, not the assembled file)`);
      process.exit(1);
    }
  } else writeFileSync(target, text);
}
