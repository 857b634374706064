import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, world, type World } from './helpers.js';

// Issue 17 item 9: what `npm pack` makes installs and runs from a clean global install (a temporary
// --prefix), and the $schema link its export writes resolves inside that install. The dependencies
// come from the npm cache (--prefer-offline), else the registry. About 10 s: the one test that installs.
const run = promisify(execFile);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let w: World | undefined;
let tmp: string | undefined;
afterAll(async () => {
  await w?.sandbox.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('installs with npm install -g from its tarball, runs forgeform --version, and its export names a schema that exists', async () => {
    tmp = mkdtempSync(join(tmpdir(), 'forgeform-pack-'));
    // The tests run after npm run build: the tarball packs that build (prepack would build it again).
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', tmp], { cwd: ROOT });
    const tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBe(`forgeform-${VERSION}.tgz`);
    const { stdout: listing } = await run('tar', ['tzf', join(tmp, tarball!)]);
    expect(listing).toContain('package/dist/cli/main.js');
    expect(listing).toContain('package/schemas/forgeform.schema.json');
    expect(listing, 'package.json says MIT: the licence text ships with it').toContain('package/LICENSE');
    expect(listing, 'the GitHub Action bundle is not part of the CLI package').not.toContain('package/dist/action/');
    expect(listing, 'no tests or sources').not.toMatch(/package\/(test|src)\//);

    const prefix = join(tmp, 'prefix');
    await run('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(tmp, tarball!)], { cwd: tmp });
    const bin = join(prefix, 'bin', 'forgeform');
    const { stdout: version } = await run(bin, ['--version'], { cwd: tmp });
    expect(version.trim()).toBe(VERSION);

    w = await world({ users: [{ username: 'root', admin: true, email: 'root@example.com' }], orgs: [{ name: 'acme', owners: ['root'] }] });
    const out = join(tmp, 'exported.yaml');
    await run(bin, ['export', '--include', 'acme', '-o', out], { cwd: tmp, env: { ...process.env, FORGEFORM_URL: w.sandbox.url, FORGEFORM_TOKEN: ADMIN_TOKEN } });
    const link = /^# yaml-language-server: \$schema=(.+)$/m.exec(readFileSync(out, 'utf8'))?.[1];
    expect(link).toBe(join(prefix, 'lib', 'node_modules', 'forgeform', 'schemas', 'forgeform.schema.json'));
    expect(existsSync(link!)).toBe(true);
  }, 180_000);
});
