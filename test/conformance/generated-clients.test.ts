/**
 * Generated clients as a second oracle (issue 19 §3): `gitea-js` 1.23.0 (generated from Gitea 1.23's
 * API) and `@llamaduck/forgejo-ts` 15.0.9 (from Forgejo 15's) ship a TypeScript type for every answer.
 * The answers of the matching flavour (gitea@1.23, forgejo@15) are written as object literals typed with
 * the package's own types and checked by the TypeScript compiler: a key the type lacks is an excess
 * property error, a required key the answer lacks a missing property error.
 *
 * Two differences are the generators', not the servers': a Go nil pointer or slice is JSON `null`, which
 * the generated types write as optional, not nullable (a `null` is left out here, as absent); and
 * `User.username`, which `User.MarshalJSON` adds and no swagger lists (SWAGGER_EXCEPTIONS), is left out.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boot, type Harness } from '../sandbox/helpers.js';
import { SEED } from './facts.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** Each answer the check types: the package's type name and the route that answers it. */
const ANSWERS: { type: string; path: string }[] = [
  { type: 'User', path: 'admin/users?limit=1' },
  { type: 'Organization', path: 'admin/orgs?limit=1' },
  { type: 'Hook', path: 'admin/hooks' },
  { type: 'Label', path: 'repos/acme/app/labels' },
  { type: 'Issue', path: 'repos/acme/app/issues/1' },
  { type: 'BranchProtection', path: 'repos/acme/app/branch_protections' },
  { type: 'PublicKey', path: 'users/alice/keys' },
];

const CLIENTS = [
  { pkg: 'gitea-js', flavor: 'gitea@1.23' },
  { pkg: '@llamaduck/forgejo-ts', flavor: 'forgejo@15' },
];

/** The compiler's errors for a source file checked inside the project (so that the package resolves). */
function typeErrors(source: string): string[] {
  const file = join(ROOT, 'test', 'conformance', '__generated_client_answers__.ts');
  const options: ts.CompilerOptions = { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, skipLibCheck: true, types: [] };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, onError, create) => (name === file ? ts.createSourceFile(name, source, lang) : read(name, lang, onError, create));
  host.fileExists = ((exists) => (name: string) => name === file || exists(name))(host.fileExists.bind(host));
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

/** An answer as the generated types describe it: no nulls, no `User.username` (see above). */
function generatorView(this: Record<string, unknown>, key: string, value: unknown): unknown {
  return value === null || (key === 'username' && 'login' in this) ? undefined : value;
}

describe.each(CLIENTS)('$pkg types the answers of $flavor', ({ pkg, flavor }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await boot({ ...SEED, flavor });
  });
  afterAll(async () => h?.sb.close());

  it('every answer type-checks against the package’s own types (no unknown key, no required key missing)', async () => {
    const lines = [`import type { ${ANSWERS.map((a) => a.type).join(', ')} } from '${pkg}';`];
    for (const [i, a] of ANSWERS.entries()) {
      const r = await h.call('GET', a.path);
      expect(r.status, a.path).toBe(200);
      const one = Array.isArray(r.json) ? r.json[0] : r.json;
      expect(one, `${a.path} answers at least one ${a.type}`).toBeDefined();
      lines.push(`export const answer${i}: ${a.type} = ${JSON.stringify(one, generatorView)};`);
    }
    expect(typeErrors(lines.join('\n'))).toEqual([]);
  });

  it('the check itself refuses a key the type lacks', () => {
    expect(typeErrors(`import type { User } from '${pkg}';\nexport const u: User = { login: 'x', no_such_key: 1 };`).join('\n')).toMatch(/no_such_key/);
  });
});
