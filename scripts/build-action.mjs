#!/usr/bin/env node
// Bundles the action (and the CLI it runs) into the one committed file dist/action/index.js, so
// that `uses: OWNER/forgeform@v1` needs no npm install on the runner. CI rebuilds it and fails
// when the committed file differs (.ci/run).
//
//   node scripts/build-action.mjs [OUTFILE]     (default dist/action/index.js)
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = resolve(process.argv[2] ?? resolve(root, 'dist/action/index.js'));

// Modules find their data files with `new URL('../x', import.meta.url)`, relative to their own
// place under src/ (tsc mirrors src/ into dist/). In one bundle every module shares the bundle's
// import.meta.url, so each such path is rewritten relative to the bundle.
const relocateDataFiles = {
  name: 'relocate-data-files',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const contents = source.replace(/new URL\((['"])(\.{1,2}\/[^'"]+)\1, import\.meta\.url\)/g, (_m, q, rel) => {
        const target = resolve(dirname(args.path), rel);
        let fromBundle = relative(dirname(outfile), target).split('\\').join('/');
        if (!fromBundle.startsWith('.')) fromBundle = `./${fromBundle}`;
        return `new URL(${q}${fromBundle}${q}, import.meta.url)`;
      });
      return { contents, loader: 'ts' };
    });
  },
};

// The CLI loads ajv's compiler lazily through createRequire, which a bundle cannot follow: the action has no
// node_modules and no precompiled validator, so it carries ajv through a static import instead.
const bundleAjv = {
  name: 'bundle-ajv',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]config[\\/]ajv-compiler\.ts$/ }, () => ({
      contents: "import * as ajv from 'ajv';\nexport function loadAjv() { return ajv; }\n",
      loader: 'ts',
    }));
  },
};

await build({
  entryPoints: [resolve(root, 'src/action/index.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  legalComments: 'external',
  logLevel: 'warning',
  // Some dependencies are CommonJS and call require(): give the ESM bundle one.
  banner: { js: "import { createRequire as __forgeformRequire } from 'node:module'; const require = __forgeformRequire(import.meta.url);" },
  // The action never starts the sandbox: leave it (and hono) out of the bundle.
  external: ['../sandbox/cli.js'],
  plugins: [bundleAjv, relocateDataFiles],
});
console.log(`bundled ${relative(process.cwd(), outfile)}`);
