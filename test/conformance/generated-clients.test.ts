/**
 * Generated clients as a second oracle (issue 19 §3): `gitea-js` 1.23.0 (generated from Gitea 1.23's
 * API) and `@llamaduck/forgejo-ts` 15.0.9 (from Forgejo 15's) ship a TypeScript type for every answer.
 * Every flavour of the client's fork is driven with it: each answer is written as an object literal typed
 * with the package's own type and checked by the TypeScript compiler — a key the type lacks is an excess
 * property error, a value of another type an assignment error, a required key the answer lacks a missing
 * property error.
 *
 * Which client matches which release: the registry has gitea-js 1.20.1, 1.22.0 and 1.23.0 and forgejo-ts
 * 15.0.9 only, so the newest of each is used for its whole fork. gitea-js 1.23.0 matches Gitea 1.23 key for
 * key; Gitea 1.21 and 1.22 answer a subset of its keys (every key of the generated types is optional), so
 * their answers check as they are. Gitea 1.24, 1.25 and 1.26 answer keys that Gitea 1.23 did not have, and
 * forgejo-ts 15.0.9 is newer than Forgejo 7 and 11: a key of an answer that the client's own release does not
 * have is left out of the compiled literal, and `NEWER_THAN_CLIENT` says, per release, exactly which keys
 * those are and why (each must also be a key of that release's own swagger: the client is out of date there,
 * the sandbox is not wrong). Every other key is type-checked.
 *
 * Two differences are the generators', not the servers': a Go nil pointer or slice is JSON `null`, which
 * the generated types write as optional, not nullable (a `null` is left out here, as absent); and
 * `User.username`, which `User.MarshalJSON` adds and no swagger lists (SWAGGER_EXCEPTIONS), is left out.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFlavour } from '../../src/sandbox/flavours/flavour.js';
import { adminSearchUsers as forgejoSearchUsers, repoGetBranchProtection as forgejoGetRule } from '@llamaduck/forgejo-ts';
import { createClient, createConfig } from '@llamaduck/forgejo-ts/client';
import { giteaApi } from 'gitea-js';
import { ADMIN_TOKEN, basic, boot, type Harness } from '../sandbox/helpers.js';
import { answerKeys, SEED } from './facts.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** Each answer the check types: the package's type name (= the swagger definition) and the route that answers it. */
const ANSWERS: { type: string; path: string; basic?: boolean }[] = [
  { type: 'User', path: 'admin/users?limit=1' },
  { type: 'Organization', path: 'admin/orgs?limit=1' },
  { type: 'Hook', path: 'admin/hooks' },
  { type: 'Label', path: 'repos/acme/app/labels' },
  { type: 'Issue', path: 'repos/acme/app/issues/1' },
  { type: 'BranchProtection', path: 'repos/acme/app/branch_protections' },
  { type: 'PublicKey', path: 'users/alice/keys' },
  { type: 'Email', path: 'admin/emails' },
  { type: 'AccessToken', path: 'users/root/tokens', basic: true },
];

/**
 * Keys a release answers that the client's release (Gitea 1.23 for gitea-js 1.23.0, Forgejo 15 for
 * forgejo-ts 15.0.9) does not have, per answer type: the client cannot type them. A release not named has none.
 */
const NEWER_THAN_CLIENT: Record<string, Record<string, string[]>> = {
  // #34339 (v1.24.0): modules/structs/user_key.go l.19 and user_app.go l.19–20.
  'gitea@1.24': { PublicKey: ['last_used_at'], AccessToken: ['created_at', 'last_used_at'] },
  // v1.25.4 modules/structs/issue.go l.79 `time_estimate`.
  'gitea@1.25': { PublicKey: ['last_used_at'], AccessToken: ['created_at', 'last_used_at'], Issue: ['time_estimate'] },
  // 1.26.0-dev: and the issue's content_version (#37035), the hook's name (#37040).
  'gitea@1.26': { PublicKey: ['last_used_at'], AccessToken: ['created_at', 'last_used_at'], Issue: ['content_version', 'time_estimate'], Hook: ['name'] },
};

const CLIENTS = [
  { pkg: 'gitea-js', release: 'gitea@1.23', flavours: ['gitea@1.21', 'gitea@1.22', 'gitea@1.23', 'gitea@1.24', 'gitea@1.25', 'gitea@1.26'] },
  { pkg: '@llamaduck/forgejo-ts', release: 'forgejo@15', flavours: ['forgejo@7', 'forgejo@11', 'forgejo@15'] },
];

const RUNS = CLIENTS.flatMap((c) => c.flavours.map((flavour) => ({ ...c, flavour })));

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

/** An answer as the generated types describe it: no nulls, no `User.username`. */
function generatorView(this: Record<string, unknown>, key: string, value: unknown): unknown {
  return value === null || (key === 'username' && 'login' in this) ? undefined : value;
}

describe.each(RUNS)('$pkg types the answers of $flavour', ({ pkg, release, flavour }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await boot({ ...SEED, flavour });
  });
  afterAll(async () => h?.sb.close());

  it('every answer type-checks against the package’s own types (no unknown key, no required key missing); the keys newer than the client are named', async () => {
    const f = parseFlavour(flavour);
    const client = parseFlavour(release);
    const lines = [`import type { ${ANSWERS.map((a) => a.type).join(', ')} } from '${pkg}';`];
    const newer: Record<string, string[]> = {};
    for (const [i, a] of ANSWERS.entries()) {
      const r = await h.call('GET', a.path, a.basic ? { headers: { authorization: basic('root', 'rootpass1') } } : {});
      expect(r.status, a.path).toBe(200);
      const one = (Array.isArray(r.json) ? r.json[0] : r.json) as Record<string, unknown> | undefined;
      expect(one, `${a.path} answers at least one ${a.type}`).toBeDefined();
      const clientKeys = new Set([...answerKeys(client, a.type), 'username']);
      const extra = Object.keys(one!).filter((k) => !clientKeys.has(k)).sort();
      if (extra.length) newer[a.type] = extra;
      // Each key the client lacks is one the release's own swagger has: the client is older, not the sandbox wrong.
      for (const k of extra) expect(answerKeys(f, a.type), `${a.type}.${k}`).toContain(k);
      const typed = Object.fromEntries(Object.entries(one!).filter(([k]) => !extra.includes(k)));
      lines.push(`export const answer${i}: ${a.type} = ${JSON.stringify(typed, generatorView)};`);
    }
    expect(newer).toEqual(NEWER_THAN_CLIENT[flavour] ?? {});
    expect(typeErrors(lines.join('\n'))).toEqual([]);
  });

  it('the check itself refuses a key the type lacks', () => {
    expect(typeErrors(`import type { User } from '${pkg}';\nexport const u: User = { login: 'x', no_such_key: 1 };`).join('\n')).toMatch(/no_such_key/);
  });
});

/**
 * The clients' own requests, not only their types: each flavour is driven through the package's generated
 * functions. gitea-js writes path parameters unescaped (`/branch_protections/${name}`), so a rule named
 * `release/v1` is two path segments — routed nowhere before Gitea 1.26 (404), where a rule name is one
 * segment (`{name}`), and found from 1.26 (`/*`). forgejo-ts escapes them (`release%2Fv1`): found on every
 * Forgejo. Its axios client reads `baseURL` (the README's `baseUrl` is ignored).
 */
describe.each(RUNS)('$pkg drives $flavour with its own requests', ({ pkg, flavour }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await boot({ ...SEED, flavour });
  });
  afterAll(async () => h?.sb.close());

  async function viaClient(): Promise<{ users: number; plainRule: number; slashRule: number }> {
    if (pkg === 'gitea-js') {
      const api = giteaApi(h.url, { token: ADMIN_TOKEN, customFetch: fetch });
      const status = async (p: Promise<{ status: number }>): Promise<number> => p.then((r) => r.status, (e: { status: number }) => e.status);
      return {
        users: await status(api.admin.adminSearchUsers({ limit: 1 })),
        plainRule: await status(api.repos.repoGetBranchProtection('acme', 'app', 'main')),
        slashRule: await status(api.repos.repoGetBranchProtection('acme', 'app', 'release/v1')),
      };
    }
    const client = createClient(createConfig({ baseURL: `${h.url}/api/v1`, headers: { Authorization: `token ${ADMIN_TOKEN}` }, validateStatus: () => true }));
    const rule = (name: string) => forgejoGetRule({ client, path: { owner: 'acme', repo: 'app', name } });
    return {
      users: (await forgejoSearchUsers({ client, query: { limit: 1 } })).status ?? 0,
      plainRule: (await rule('main')).status ?? 0,
      slashRule: (await rule('release/v1')).status ?? 0,
    };
  }

  it('answers the client’s requests; a rule name with "/" only where the client’s path fits the release’s route', async () => {
    const slashFound = pkg !== 'gitea-js' || flavour === 'gitea@1.26';
    expect(await viaClient()).toEqual({ users: 200, plainRule: 200, slashRule: slashFound ? 200 : 404 });
  });
});
