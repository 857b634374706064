// Loads the kinds' TypeScript sources (the registry, each kind folder's index.ts and its field
// definitions, src/kinds/<kind>/fields.ts) for the generators (assemble-schema.mjs, field-docs.mjs),
// without a build of src: esbuild bundles them in memory into one module, so that `npm run schema`
// works on a clean clone and reads the definitions the code itself uses (one source for both).
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
const KINDS = new URL('src/kinds/', root);

/** The kind folders of src/kinds, sorted: those with an index.ts. */
export function kindFolders() {
  return readdirSync(KINDS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(new URL(`${d.name}/index.ts`, KINDS)))
    .map((d) => d.name)
    .sort();
}

let loaded;

/**
 * The registry and every kind folder's modules: `{ kinds, folders: { [folder]: { index, fields? } }, server }`
 * (server: src/model/server.ts, whose wording of releases the docs share with the plan's messages),
 * where `fields` is the folder's fields.ts (absent for a kind not yet defined that way). Loaded once.
 */
export function loadKindSources() {
  loaded ??= bundle();
  return loaded;
}

async function bundle() {
  const folders = kindFolders();
  const lines = ["import * as registry from './index.ts';", "import * as server from '../model/server.ts';"];
  const entries = [];
  folders.forEach((folder, i) => {
    lines.push(`import * as index${i} from './${folder}/index.ts';`);
    const hasFields = existsSync(new URL(`${folder}/fields.ts`, KINDS));
    if (hasFields) lines.push(`import * as fields${i} from './${folder}/fields.ts';`);
    entries.push(`${JSON.stringify(folder)}: { index: index${i}${hasFields ? `, fields: fields${i}` : ''} }`);
  });
  lines.push('export { registry, server };', `export const folders = { ${entries.join(', ')} };`);
  const result = await build({
    stdin: { contents: lines.join('\n'), resolveDir: fileURLToPath(KINDS), sourcefile: 'kind-sources-entry.ts', loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  // Written under node_modules so that the bundle's package imports resolve as they do for src.
  const dir = new URL('node_modules/.cache/forgeform/', root);
  mkdirSync(dir, { recursive: true });
  const file = new URL(`kinds-${process.pid}-${Date.now()}.mjs`, dir);
  writeFileSync(file, result.outputFiles[0].text);
  try {
    const module = await import(pathToFileURL(fileURLToPath(file)).href);
    const kinds = Array.isArray(module.registry.kinds) ? module.registry.kinds : Object.values(module.registry.kinds);
    return { kinds, folders: module.folders, server: module.server };
  } finally {
    rmSync(file, { force: true });
  }
}

/** The folder each kind of the registry is exported from (as test/unit/registry-contract.test.ts finds it). */
export function folderOf(sources, kind) {
  return Object.entries(sources.folders).find(([, m]) => Object.values(m.index).includes(kind))?.[0];
}
