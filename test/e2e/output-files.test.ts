import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { world, type World } from './helpers.js';

// Issue 17: output files are new files (plan files 0600), written atomically, never through a symbolic
// link; export does not overwrite a file without --force; its $schema link resolves where forgeform is installed.
const seed = { users: [{ username: 'root', admin: true, email: 'root@example.com' }], orgs: [{ name: 'acme', owners: ['root'] }], repos: [{ name: 'acme/widgets', labels: [{ name: 'bug', color: 'ee0701' }] }] };
const SCHEMA = resolve(dirname(fileURLToPath(import.meta.url)), '../../schemas/forgeform.schema.json');

let w: World;
beforeAll(async () => {
  w = await world(seed);
});
afterAll(async () => w?.sandbox.close());

const config = () => w.config('version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: "00ff00" }\n');
const modeOf = (p: string) => statSync(p).mode & 0o777;

describe('plan --out', () => {
  it('writes a new file with mode 0600 over an existing world-readable one', async () => {
    const out = join(w.dir, 'readable-plan.json');
    writeFileSync(out, 'old');
    chmodSync(out, 0o644);
    const r = await w.cli(['plan', '-c', config(), '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(modeOf(out)).toBe(0o600);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ format_version: 1 });
  });

  it('replaces a symbolic link with the plan instead of writing to where it points', async () => {
    const victim = join(w.dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    const out = join(w.dir, 'linked-plan.json');
    symlinkSync(victim, out);
    const r = await w.cli(['plan', '-c', config(), '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(out).isSymbolicLink()).toBe(false);
    expect(modeOf(out)).toBe(0o600);
  });
});

describe('export -o', () => {
  it('refuses to overwrite an existing file, before reading the server, unless --force', async () => {
    const out = join(w.dir, 'mine.yaml');
    writeFileSync(out, '# my own config\n');
    w.sandbox.clearRequests();
    const r = await w.cli(['export', '--include', 'acme', '-o', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot write -o ${out}: it exists (it may be a config you wrote): give --force to replace it, or another file name`);
    expect(readFileSync(out, 'utf8')).toBe('# my own config\n');
    expect(w.sandbox.requests()).toEqual([]);
    const forced = await w.cli(['export', '--include', 'acme', '-o', out, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('Written by forgeform export.');
  });

  it("names the schema of the forgeform that runs, by a path that resolves (a global install's)", async () => {
    const out = join(w.dir, 'global.yaml');
    const r = await w.cli(['export', '--include', 'acme', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    const link = /^# yaml-language-server: \$schema=(.+)$/m.exec(readFileSync(out, 'utf8'))?.[1];
    expect(link).toBe(SCHEMA);
    expect(existsSync(link!)).toBe(true);
  });

  it("names the project's node_modules/forgeform schema relative to the file when the project has one", async () => {
    const project = join(w.dir, 'project');
    mkdirSync(join(project, 'node_modules', 'forgeform', 'schemas'), { recursive: true });
    mkdirSync(join(project, 'config'));
    writeFileSync(join(project, 'node_modules', 'forgeform', 'schemas', 'forgeform.schema.json'), '{}');
    const out = join(project, 'config', 'forge.yaml');
    const r = await w.cli(['export', '--include', 'acme', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    const link = /^# yaml-language-server: \$schema=(.+)$/m.exec(readFileSync(out, 'utf8'))?.[1];
    expect(link).toBe('../node_modules/forgeform/schemas/forgeform.schema.json');
    expect(existsSync(resolve(dirname(out), link!))).toBe(true);
  });
});
