// `npm run new-kind` (scripts/new-kind.mjs): what it would write, what it refuses, and, run into a
// copy of the repository, that the kind it starts compiles, is registered, and is wired into the
// schema, the config types and the docs. Nothing is ever written into this repository.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, run by node; it has no type declarations.
import { scaffold } from '../../scripts/new-kind.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
type Scaffold = (options: Record<string, unknown>, root?: URL) => Promise<{ files: Map<string, string> }>;
const plan = scaffold as Scaffold;

describe('npm run new-kind (what it would write)', () => {
  it('writes the kind folder, its docs page and test file, and edits the registry (the schema’s fragments come from it), the parent kind and the seeds', async () => {
    const { files } = await plan({ name: 'gizmo' });
    expect([...files.keys()].sort()).toEqual(
      [
        'docs/kinds/gizmos.md',
        'src/kinds/gizmo/fields.ts',
        'src/kinds/gizmo/index.ts',
        'src/kinds/gizmo/ops.ts',
        'src/kinds/gizmo/plan.ts',
        'src/kinds/gizmo/read.ts',
        'src/kinds/gizmo/types.ts',
        'src/kinds/index.ts',
        'src/kinds/repo/fields.ts',
        'test/e2e/gizmos.test.ts',
        'test/support/seeds.ts',
      ].sort(),
    );
    expect(files.get('src/kinds/index.ts')).toContain("import { gizmoKind } from './gizmo/index.js';");
    expect(files.get('src/kinds/index.ts')).toMatch(/export const kinds: Kind\[\] = \[[^\]]*, gizmoKind\];/);
    expect(files.get('src/kinds/repo/fields.ts')).toContain("    'gizmos',\n    byName(");
    expect(existsSync(join(root, 'src/kinds/gizmo')), 'a dry run writes nothing').toBe(false);
  });

  it('gives a server-wide kind a top-level section of its own, in SECTIONS', async () => {
    const { files } = await plan({ name: 'widget', scope: 'server' });
    expect(files.get('src/kinds/widget/fields.ts')).toContain('properties: {\n    widgets: byName(');
    expect(files.get('scripts/assemble-schema.mjs')).toMatch(/export const SECTIONS = \[[^\]]*, 'widgets'\];/);
    expect(files.has('src/kinds/repo/fields.ts')).toBe(false);
  });

  it('refuses a name or key that is taken (a repository webhook cannot be `hooks`), and a name that is no kind name', async () => {
    await expect(plan({ name: 'repo_hook', key: 'hooks' })).rejects.toThrow('the kind hook already has the config key hooks');
    await expect(plan({ name: 'repo_hook', key: 'webhooks', prune: 'hooks' })).rejects.toThrow('the kind hook already has the prune key hooks');
    await expect(plan({ name: 'issue', key: 'tickets', prune: 'tickets' })).rejects.toThrow('the kind issue already has the name issue');
    await expect(plan({ name: 'label', key: 'tags', prune: 'tags' })).rejects.toThrow('src/kinds/label/fields.ts exists already');
    await expect(plan({ name: 'Repo-Hook' })).rejects.toThrow('snake_case');
    await expect(plan({ name: 'gizmo', scope: 'team' })).rejects.toThrow('--scope must be one of repo, org, server');
  });

  it('--help prints the usage and exits 0; an unknown option is one line and the usage, exit 1, no stack trace', () => {
    const script = join(root, 'scripts/new-kind.mjs');
    const help = spawnSync(process.execPath, [script, '--help'], { encoding: 'utf8' });
    expect([help.status, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toContain('npm run new-kind -- NAME [--scope repo|org|server]');
    const bad = spawnSync(process.execPath, [script, '--colour'], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^new-kind: Unknown option '--colour'/);
    expect(bad.stderr).toContain('npm run new-kind -- NAME');
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('npm run new-kind (run into a copy of the repository)', () => {
  let copy: string;
  const inCopy = (path: string) => readFileSync(join(copy, path), 'utf8');
  const node = (...args: string[]) => execFileSync(process.execPath, args, { cwd: copy, encoding: 'utf8' });

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'forgeform-new-kind-'));
    for (const p of ['src', 'scripts', 'schemas', 'docs', 'test/support', 'README.md', 'package.json', 'tsconfig.json', 'eslint.config.js']) cpSync(join(root, p), join(copy, p), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
    node('scripts/new-kind.mjs', 'gizmo', '--no-bundle');
    node('scripts/new-kind.mjs', 'widget', '--scope', 'server', '--no-prune', '--no-bundle');
  }, 120_000);
  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  it('starts kinds that compile with the rest of the code (tsc, strict)', () => {
    writeFileSync(join(copy, 'tsconfig.scaffold.json'), JSON.stringify({ extends: './tsconfig.json', include: ['src', 'test/support', 'test/e2e/gizmos.test.ts', 'test/e2e/widgets.test.ts'] }));
    let output = '';
    try {
      execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.scaffold.json', '--noEmit'], { cwd: copy, encoding: 'utf8' });
    } catch (e) {
      output = String((e as { stdout?: string }).stdout ?? e);
    }
    expect(output).toBe('');
  }, 240_000);

  it('starts kinds that pass the lint', () => {
    let output = '';
    try {
      execFileSync(process.execPath, [join(root, 'node_modules/eslint/bin/eslint.js'), 'src/kinds/gizmo', 'src/kinds/widget', 'src/kinds/index.ts', 'src/kinds/repo/fields.ts', 'test/e2e/gizmos.test.ts'], { cwd: copy, encoding: 'utf8' });
    } catch (e) {
      output = String((e as { stdout?: string }).stdout ?? e);
    }
    expect(output).toBe('');
  }, 240_000);

  it('wires their config: the schema, its types, policy.prune and the docs come out of the kinds’ field definitions, and are not stale', () => {
    const schema = JSON.parse(inCopy('schemas/forgeform.schema.json')) as {
      properties: Record<string, { properties?: { prune?: { items: { enum: string[] } } } }>;
      definitions: Record<string, { properties: Record<string, { additionalProperties?: { $ref: string } }> }>;
    };
    expect(schema.definitions.repo!.properties.gizmos!.additionalProperties).toEqual({ $ref: '#/definitions/gizmo' });
    expect(Object.keys(schema.definitions.gizmo!.properties)).toEqual(['description']);
    expect(Object.keys(schema.properties)).toContain('widgets');
    expect(schema.properties.policy!.properties!.prune!.items.enum).toContain('gizmos');
    expect(schema.properties.policy!.properties!.prune!.items.enum).not.toContain('widgets');
    expect(inCopy('src/config/schema-types.ts')).toContain('gizmos?: Record<string, GizmoConfig>;');
    expect(inCopy('docs/kinds/gizmos.md')).toContain('| `description` | string | all |  | TODO: what this field does');
    expect(inCopy('README.md')).toContain('[Gizmos](docs/kinds/gizmos.md)');
    // The generators' own checks: what they would write is what the copy holds.
    for (const script of ['assemble-schema.mjs', 'config-types.mjs', 'field-docs.mjs']) node(`scripts/${script}`, '--check');
  });
});
