#!/usr/bin/env node
// Run by `npm run build` after tsc: replaces dist/cli/main.js, the CLI's entry, by one esbuild bundle of
// what it loads at start (its dependencies included), with one chunk beside it for each module it loads
// when used (a command, the HTTP client, the sandbox), so that --version and --help still load neither
// the planner nor the client. The ~340 modules of tsc's output cost every run about 100 ms of CPU in
// Node's ESM loader (resolving, reading and compiling each file: a third of a plan of an empty config)
// and 8 MB of memory; the bundle's files are read at once. The rest of tsc's output stays as it is
// (the sandbox's dist/sandbox/index.js, the benchmark's imports), and tsc's entry is kept as
// dist/cli/main.modules.js: a CPU profile of it names each module (`npm run bench -- --profile` runs it).
//
//   node scripts/bundle-cli.mjs
import { build } from 'esbuild';
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const outdir = join(root, 'dist/cli');
/** The bundle's own files in dist/cli (tsc writes none with this prefix): removed before each build. */
const PREFIX = 'bundle-';

// Modules find their data files with `new URL('../x', import.meta.url)` (`'.'`: their own directory),
// relative to their own place under dist/ (tsc mirrors src/ there). In the bundle every module shares the
// URL of the file it ended up in, all of them in dist/cli, so each such path is rewritten relative to it;
// a file under src/ is the one tsc's build put under dist/ (the precompiled schema validator).
const relocateDataFiles = {
  name: 'relocate-data-files',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const contents = source.replace(/new URL\((['"])(\.|\.{1,2}\/[^'"]*)\1, import\.meta\.url\)/g, (_m, q, rel) => {
        let target = resolve(dirname(args.path), rel);
        if (!relative(src, target).startsWith('..')) target = join(root, 'dist', relative(src, target));
        let fromBundle = relative(outdir, target).split('\\').join('/') || '.';
        if (!fromBundle.startsWith('.')) fromBundle = `./${fromBundle}`;
        if ((rel === '.' || rel.endsWith('/')) && !fromBundle.endsWith('/')) fromBundle += '/';
        return `new URL(${q}${fromBundle}${q}, import.meta.url)`;
      });
      return { contents, loader: 'ts' };
    });
  },
};

for (const f of readdirSync(outdir)) if (f.startsWith(PREFIX)) rmSync(join(outdir, f));
copyFileSync(join(outdir, 'main.js'), join(outdir, 'main.modules.js'));

await build({
  entryPoints: [join(src, 'cli/main.ts')],
  outdir,
  bundle: true,
  splitting: true,
  chunkNames: `${PREFIX}[name]-[hash]`,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // No keepNames: its helper runs at every closure's creation (2% of apply's CPU); nothing reads a
  // function's name (the action's bundle is minified as well).
  legalComments: 'none',
  logLevel: 'warning',
  // Some dependencies are CommonJS and call require(): give the ESM bundle one.
  banner: { js: "import { createRequire as __forgeformRequire } from 'node:module'; const require = __forgeformRequire(import.meta.url);" },
  plugins: [relocateDataFiles],
});
