import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ConfigPath, LoadedConfig, SourceLocation } from '../../src/config/types.js';
import type { GiteaClient } from '../../src/gitea/client.js';
import { branchProtectionKind } from '../../src/kinds/branch_protection/index.js';
import { kinds } from '../../src/kinds/index.js';
import { runnerKind } from '../../src/kinds/runner/index.js';
import { readExtras } from '../../src/kinds/user/extras.js';
import { userKind } from '../../src/kinds/user/index.js';
import { planRequest, requestOf, declaredAt, parseServerSpec, type FieldSpec, type Kind, type ServerInfo } from '../../src/model/index.js';
import { availableFieldsOf, placesOf, requirementsOf, unavailableIn } from '../../src/plan/availability.js';
import { makeKindContext } from '../../src/plan/planner.js';
import { importsOf } from './support/source-scan.js';

const release = (spec: string): ServerInfo => parseServerSpec(spec) as ServerInfo;

/** A loaded config whose places are made up from the path, so that a test can tell which value an error points at. */
function loadedOf(config: unknown): Pick<LoadedConfig, 'config' | 'locate'> {
  return { config: config as LoadedConfig['config'], locate: (path: ConfigPath): SourceLocation => ({ file: 'f.yaml', line: path.length, col: path.join('.').length }) };
}

const rule = (fields: Record<string, unknown>) => ({ version: 1, repos: { 'acme/widgets': { branch_protections: { main: { enable_push: true, ...fields } } } } });
const messages = (config: unknown, spec: string) => unavailableIn(kinds, loadedOf(config), release(spec)).map((d) => d.message);

describe('the availability check of a config', () => {
  it('names a field the release lacks with the releases that have it and the server', () => {
    expect(messages(rule({ priority: 1 }), 'forgejo@11.0.2')).toEqual(['priority needs Gitea ≥ 1.23 (server: Forgejo 11.0.2)']);
    expect(messages(rule({ priority: 1 }), 'gitea@1.22.9')).toEqual(['priority needs Gitea ≥ 1.23 (server: Gitea 1.22.9)']);
    expect(messages(rule({ priority: 1 }), 'gitea@1.23.0')).toEqual([]);
    expect(messages(rule({ apply_to_admins: false }), 'gitea@1.26')).toEqual(['apply_to_admins needs Forgejo (server: Gitea 1.26.0)']);
    expect(messages(rule({ apply_to_admins: true }), 'forgejo@7')).toEqual([]);
    expect(messages(rule({ ignore_stale_approvals: true }), 'gitea@1.21.11')).toEqual(['ignore_stale_approvals needs Gitea ≥ 1.22 or Forgejo (server: Gitea 1.21.11)']);
    expect(messages(rule({ ignore_stale_approvals: true }), 'forgejo@7')).toEqual([]);
  });

  it('puts each error at the value’s place, found from its config path', () => {
    const [d] = unavailableIn(kinds, loadedOf(rule({ priority: 1 })), release('forgejo@11'));
    expect(d).toMatchObject({ path: ['repos', 'acme/widgets', 'branch_protections', 'main', 'priority'], file: 'f.yaml', line: 5 });
  });

  it('checks glob entries as written, without the server', () => {
    const config = { version: 1, repos: { 'acme/*': { branch_protections: { 'release/*': { enable_force_push: true } } } } };
    expect(unavailableIn(kinds, loadedOf(config), release('gitea@1.22')).map((d) => d.path)).toEqual([['repos', 'acme/*', 'branch_protections', 'release/*', 'enable_force_push']]);
  });

  it('a whole kind: its section, even empty, on a release without its routes', () => {
    const config = { version: 1, actions: { runners: {} } };
    expect(messages(config, 'gitea@1.23.8')).toEqual(['runners need Gitea ≥ 1.24 or Forgejo ≥ 15 (server: Gitea 1.23.8)']);
    expect(messages(config, 'forgejo@11')).toEqual(['runners need Gitea ≥ 1.24 or Forgejo ≥ 15 (server: Forgejo 11.0.0)']);
    expect(messages(config, 'gitea@1.24')).toEqual([]);
    expect(messages(config, 'forgejo@15.0.3')).toEqual([]);
    expect(unavailableIn(kinds, loadedOf(config), release('gitea@1.23'))[0]!.path).toEqual(['actions', 'runners']);
    expect(messages({ version: 1, actions: { runners: { r: { disabled: true } } } }, 'forgejo@15')).toEqual(['disabled needs Gitea ≥ 1.26 (server: Forgejo 15.0.0)']);
  });

  it('badges are Gitea’s, from 1.22', () => {
    const config = { version: 1, users: { alice: { email: 'a@example.com', badges: ['x'] } } };
    expect(messages(config, 'forgejo@15')).toEqual(['badges needs Gitea ≥ 1.22 (server: Forgejo 15.0.0)']);
    expect(messages(config, 'gitea@1.21')).toEqual(['badges needs Gitea ≥ 1.22 (server: Gitea 1.21.0)']);
    expect(messages(config, 'gitea@1.22')).toEqual([]);
  });

  it('hook name is Gitea 1.26’s; issue projects are in no release (the sandbox’s gitea@main, 1.27, has them)', () => {
    const hooks = { version: 1, hooks: [{ url: 'https://ci.example.com', name: 'ci' }] };
    expect(messages(hooks, 'gitea@1.25.4')).toEqual(['name needs Gitea ≥ 1.26 (server: Gitea 1.25.4)']);
    expect(messages(hooks, 'forgejo@15')).toEqual(['name needs Gitea ≥ 1.26 (server: Forgejo 15.0.0)']);
    expect(messages(hooks, 'gitea@1.26')).toEqual([]);
    const issues = { version: 1, repos: { 'acme/widgets': { issues: { 3: { projects: [1] } } } } };
    expect(messages(issues, 'gitea@1.26')).toEqual(['projects needs Gitea ≥ 1.27 (server: Gitea 1.26.0)']);
    expect(messages(issues, 'gitea@1.27')).toEqual([]);
  });

  it('a feature that is not a field is checked where the config asks for it', () => {
    const kind: Kind = {
      ...runnerKind,
      availability: undefined,
      declaredAt: ['things', '*'],
      features: { special: { availability: { gitea: { since: '1.24' } }, what: 'mode: special', usedBy: (d) => (d.mode === 'special' ? 'mode' : undefined) } },
    };
    const loaded = loadedOf({ things: [{ mode: 'plain' }, { mode: 'special' }] });
    expect(unavailableIn([kind], loaded, release('gitea@1.23')).map((d) => [d.path, d.message])).toEqual([[['things', 1, 'mode'], 'mode: special needs Gitea ≥ 1.24 (server: Gitea 1.23.0)']]);
  });

  it('walks maps and lists with the kind’s pattern; each kind says where its objects sit', () => {
    const tree = { hooks: [{ url: 'a' }, { url: 'b' }], repos: { x: { labels: { bug: {} } } } };
    expect(placesOf(tree, ['hooks', '*']).map((p) => p.path)).toEqual([['hooks', 0], ['hooks', 1]]);
    expect(placesOf(tree, ['repos', '*', 'labels', '*']).map((p) => p.path)).toEqual([['repos', 'x', 'labels', 'bug']]);
    expect(placesOf(tree, ['orgs', '*'])).toEqual([]);
    expect(declaredAt(branchProtectionKind)).toEqual(['repos', '*', 'branch_protections', '*']);
    expect(declaredAt(runnerKind)).toEqual(['actions', 'runners', '*']);
    expect(declaredAt(userKind)).toEqual(['users', '*']);
  });

  it('finds nothing in a config that uses no release-dependent value', () => {
    expect(requirementsOf(kinds, rule({ required_approvals: 2 }))).toEqual([]);
  });
});

describe('the availability data of the kinds', () => {
  const table = (fields: FieldSpec[]) => Object.fromEntries(fields.filter((f) => f.availability).map((f) => [f.name, f.availability]));

  it('branch protection, as each release’s modules/structs/repo_branch.go has it', () => {
    const gitea123 = { gitea: { since: '1.23' } };
    const unreleased = { gitea: { since: '1.27' } };
    expect(table(branchProtectionKind.fields)).toEqual({
      enable_force_push: gitea123,
      enable_force_push_allowlist: gitea123,
      force_push_allowlist_usernames: gitea123,
      force_push_allowlist_teams: gitea123,
      force_push_allowlist_deploy_keys: gitea123,
      block_admin_merge_override: gitea123,
      priority: gitea123,
      ignore_stale_approvals: { gitea: { since: '1.22' }, forgejo: {} },
      apply_to_admins: { forgejo: {} },
      block_on_codeowner_reviews: unreleased,
      enable_bypass_allowlist: unreleased,
      bypass_allowlist_usernames: unreleased,
      bypass_allowlist_teams: unreleased,
      enable_deletion: unreleased,
      enable_deletion_allowlist: unreleased,
      deletion_allowlist_usernames: unreleased,
      deletion_allowlist_teams: unreleased,
    });
  });

  it('every release-dependent field is accepted by the schema (the sandbox’s idealised gitea@main has them all but apply_to_admins)', () => {
    const schema = JSON.parse(readFileSync(new URL('../../schemas/forgeform.schema.json', import.meta.url), 'utf8'));
    const props = Object.keys(schema.definitions.branch_protection.properties);
    for (const f of branchProtectionKind.fields) expect(props).toContain(f.name);
  });

  it('export leaves out the fields the release lacks', () => {
    expect(availableFieldsOf(runnerKind, { disabled: false }, release('gitea@1.25'))).toEqual({});
    expect(availableFieldsOf(runnerKind, { disabled: true }, release('gitea@1.26'))).toEqual({ disabled: true });
    expect(availableFieldsOf(branchProtectionKind, { enable_push: true, apply_to_admins: true }, release('gitea@1.25'))).toEqual({ enable_push: true });
  });
});

describe('reads in each release’s route and answer shape', () => {
  /** A client that records what is asked and answers from a table. */
  function fakeClient(answers: Record<string, unknown>) {
    const asked: string[] = [];
    const client = {
      async list(path: string, opts?: { query?: Record<string, string> }) {
        asked.push(`list ${path}${opts?.query ? `?${new URLSearchParams(opts.query)}` : ''}`);
        return answers[`list ${path}`] ?? [];
      },
      async listWrapped(path: string, _opts: unknown, unwrap: (body: unknown) => { items: unknown }) {
        asked.push(`wrapped ${path}`);
        return unwrap(answers[`wrapped ${path}`]).items ?? [];
      },
      async get(path: string) {
        asked.push(`get ${path}`);
        return answers[`get ${path}`];
      },
    } as unknown as GiteaClient;
    return { client, asked };
  }
  const scope = { type: 'server' as const, name: '' };
  const loaded = { config: { version: 1 }, secrets: new Map(), secretTemplates: undefined } as unknown as LoadedConfig;

  it('runners: Gitea’s {runners, total_count}; Forgejo’s bare array of every visible runner, idle and active meaning online', async () => {
    const gitea = fakeClient({ 'wrapped admin/actions/runners': { runners: [{ id: 1, name: 'a', status: 'online', busy: true, disabled: false }], total_count: 1 } });
    const g = await runnerKind.read(requestOf(runnerKind, scope, makeKindContext(gitea.client, loaded, {}, { server: release('gitea@1.24') })));
    // No organisation or user here: the scoped lists that tell global runners apart (src/kinds/runner/scopes.ts) are the
    // organisations' and users' lists alone.
    expect(gitea.asked).toEqual(['wrapped admin/actions/runners', 'list admin/orgs', 'list admin/users']);
    expect(g.map((r) => [r.key, r.fields.status, r.fields.busy])).toEqual([['a', 'online', true]]);

    const forgejoRunners = [
      { id: 1, uuid: 'u1', name: 'a', status: 'active', labels: ['x'], owner_id: 0, repo_id: 0 },
      { id: 2, uuid: 'u2', name: 'b', status: 'idle', labels: [], owner_id: 3, repo_id: 0 },
      { id: 3, uuid: 'u3', name: 'c', status: 'offline', labels: [], owner_id: 0, repo_id: 4 },
    ];
    const forgejo = fakeClient({ 'list admin/actions/runners': forgejoRunners });
    const f = await runnerKind.read(requestOf(runnerKind, scope, makeKindContext(forgejo.client, loaded, {}, { server: release('forgejo@15') })));
    expect(forgejo.asked).toEqual(['list admin/actions/runners?visible=true']);
    // b (an owner's) and c (a repository's) are not the server's own: not read as runners of the config (issue 28).
    expect(f.map((r) => [r.key, r.fields.status, r.fields.busy, r.fields.disabled])).toEqual([['a', 'online', true, false]]);
    expect(runnerKind.notices!({ ...planRequest(runnerKind, scope, makeKindContext(forgejo.client, loaded)), desired: [{ key: 'a', fields: {}, path: [] }], current: f })).toEqual([]);
  });

  it('badges: read from Gitea ≥ 1.22 only, keys from every release', async () => {
    for (const [spec, badges] of [['gitea@1.22', true], ['gitea@1.21', false], ['forgejo@15', false]] as const) {
      const { client, asked } = fakeClient({ 'get admin/users/alice/badges': [{ slug: 'early' }] });
      const user = { key: 'alice', fields: {} as Record<string, unknown> };
      await readExtras(client, user, { badges: true, keys: true }, release(spec));
      expect(asked.some((a) => a.includes('badges')), spec).toBe(badges);
      expect(asked).toContain('list users/alice/keys');
      expect('badges' in user.fields, spec).toBe(badges);
    }
  });
});

describe('validate stays light', () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  /** The modules a file loads when it runs (static imports, not types), transitively. */
  function runtimeClosure(start: string): Set<string> {
    const seen = new Set<string>();
    const todo = [start];
    while (todo.length) {
      const file = todo.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const source = readFileSync(join(root, file), 'utf8');
      const typeOnly = new Set([...source.matchAll(/^import type [^;]*? from '([^']+)'/gm)].map((m) => m[1]));
      for (const spec of importsOf(source)) {
        if (!spec.startsWith('.') || typeOnly.has(spec)) continue;
        todo.push(normalize(join(dirname(file), spec)).split('\\').join('/').replace(/\.js$/, '.ts'));
      }
    }
    return seen;
  }

  it('its check (the kinds and the availability walk) loads no HTTP client', () => {
    for (const start of ['src/kinds/index.ts', 'src/plan/availability.ts']) {
      const closure = runtimeClosure(start);
      expect(closure.size).toBeGreaterThan(1);
      expect([...closure].filter((f) => f.startsWith('src/gitea/') && !['src/gitea/path.ts', 'src/gitea/errors.ts', 'src/gitea/paging.ts'].includes(f)), start).toEqual([]);
    }
  });
});
