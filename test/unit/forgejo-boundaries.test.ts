// The release boundaries of the kinds' availability data that fall between the Forgejo releases the sandbox
// plays (7, 11, 15), as read in the tags v8.0.0 … v14.0.0 (src/sandbox/NOTES.md "Forgejo 8–14"): a server
// reporting the release on each side of a boundary, and what the plan says there.
import { describe, expect, it } from 'vitest';
import type { ConfigPath, LoadedConfig, SourceLocation } from '../../src/config/types.js';
import type { GiteaClient } from '../../src/gitea/client.js';
import { orgActionsSecretKind } from '../../src/kinds/actions_secret/index.js';
import { repoActionsVariableKind } from '../../src/kinds/actions_variable/index.js';
import { refusedName } from '../../src/kinds/actions-values.js';
import { kinds } from '../../src/kinds/index.js';
import { ADMIN_USER_EMAILS } from '../../src/kinds/user/emails.js';
import { planRequest, requestOf, serverFromReports, serverHas, type ServerInfo } from '../../src/model/index.js';
import { unavailableIn } from '../../src/plan/availability.js';
import { makeKindContext } from '../../src/plan/planner.js';

/** A Forgejo server as it reports itself (`X.Y.Z+gitea-A.B.C` on both version routes). */
const forgejo = (version: string): ServerInfo => serverFromReports({ version: `${version}+gitea-1.22.0`, forgejo: { version: `${version}+gitea-1.22.0` } })!;

function loadedOf(config: unknown): Pick<LoadedConfig, 'config' | 'locate'> {
  return { config: config as LoadedConfig['config'], locate: (path: ConfigPath): SourceLocation => ({ file: 'f.yaml', line: path.length, col: 1 }) };
}
const messages = (config: unknown, server: ServerInfo) => unavailableIn(kinds, loadedOf(config), server).map((d) => d.message);

describe('Forgejo 8: repository secrets listed, variables, tag protections (v8.0.0 routers/api/v1/api.go l.759-785, l.1115-1123)', () => {
  const config = {
    version: 1,
    repos: { 'acme/app': { secrets: { DEPLOY: { value: '${DEPLOY}' } }, variables: { STAGE: { value: 'prod' } }, tag_protections: { 'v*': { whitelist_usernames: ['root'] } } } },
  };

  it('Forgejo 7.0.16 refuses the three sections; 8.0.0 takes them', () => {
    expect(messages(config, forgejo('7.0.16'))).toEqual([
      'secrets need Gitea ≥ 1.22 or Forgejo ≥ 8 (server: Forgejo 7.0.16)',
      'variables need Gitea ≥ 1.22 or Forgejo ≥ 8 (server: Forgejo 7.0.16)',
      'tag_protections need Gitea ≥ 1.23 or Forgejo ≥ 8 (server: Forgejo 7.0.16)',
    ]);
    expect(messages(config, forgejo('8.0.0'))).toEqual([]);
  });
});

describe("Forgejo 9: an ssh:// push mirror (v9.0.0 services/migrations/migrate.go l.74; v8.0.0 l.74 has http, https, git only)", () => {
  const config = { version: 1, repos: { 'acme/app': { push_mirrors: [{ remote_address: 'ssh://example.com/acme/app.git', interval: '8h' }] } } };

  it('Forgejo 8.0.3 refuses it at its place; 9.0.0 takes it', () => {
    expect(messages(config, forgejo('8.0.3'))).toEqual(['an ssh:// remote_address needs Forgejo ≥ 9 (server: Forgejo 8.0.3)']);
    expect(messages(config, forgejo('9.0.0'))).toEqual([]);
  });
});

describe('Forgejo 9: an organisation lists and deletes only its own secrets (v9.0.0 models/secret/secret.go l.95-113; v8.0.0 l.84-100 by owner alone)', () => {
  const scope = { type: 'org' as const, name: 'acme' };
  const loaded = { config: { version: 1, policy: { prune: ['secrets'] } }, secrets: new Map(), secretTemplates: undefined } as unknown as LoadedConfig;
  const keepOn = (server: ServerInfo) => orgActionsSecretKind.keep!({ ...planRequest(orgActionsSecretKind, scope, makeKindContext({} as GiteaClient, loaded, {}, { server })), current: { key: 'REPO_ONLY', fields: {} } });

  it('a prune on Forgejo 8.0.3 keeps an undeclared organisation secret (it may be a repository’s); on 9.0.0 it deletes it', () => {
    expect(keepOn(forgejo('8.0.3'))).toMatch(/^Forgejo 8\.0\.3 lists and deletes an organisation's secrets by owner alone/);
    expect(keepOn(forgejo('9.0.0'))).toBeUndefined();
  });
});

describe('Forgejo 13: variable names (services/actions/variables.go `(?i)^CI` in v12.0.0 l.90, `(?i)^CI$` in v13.0.0 l.90)', () => {
  it.each([
    // [server, name, refused as a variable?]
    ['12.0.0', 'CIRCLE_TOKEN', true],
    ['12.0.0', 'CI', true],
    ['13.0.0', 'CIRCLE_TOKEN', false],
    ['13.0.0', 'CI', true],
    ['14.0.0', 'CI', true],
  ] as const)('Forgejo %s, %s', (version, name, refused) => {
    expect(refusedName(name, 'variable', forgejo(version)) !== undefined).toBe(refused);
    expect(refusedName(name, 'secret', forgejo(version))).toBeUndefined();
  });
});

describe("Forgejo 14: a repository's variable list has the values (v14.0.0 routers/api/v1/repo/action.go l.471-476; v13.0.0 l.471-475 without)", () => {
  const scope = { type: 'repo' as const, name: 'acme/app' };
  const loaded = { config: { version: 1 }, secrets: new Map(), secretTemplates: undefined } as unknown as LoadedConfig;

  async function readOn(server: ServerInfo) {
    const asked: string[] = [];
    const client = {
      async list(path: string) {
        asked.push(`list ${path}`);
        return [{ name: 'STAGE', data: server.version.startsWith('13') ? '' : 'prod' }];
      },
      async get(path: string) {
        asked.push(`get ${path}`);
        return { name: 'STAGE', data: 'prod' };
      },
    } as unknown as GiteaClient;
    const read = await repoActionsVariableKind.read(requestOf(repoActionsVariableKind, scope, makeKindContext(client, loaded, {}, { server })));
    return { asked, value: read[0]?.fields.value };
  }

  it('Forgejo 13.0.0: the list, then each value; 14.0.0: the list alone', async () => {
    expect(await readOn(forgejo('13.0.0'))).toEqual({ asked: ['list repos/acme/app/actions/variables', 'get repos/acme/app/actions/variables/STAGE'], value: 'prod' });
    expect(await readOn(forgejo('14.0.0'))).toEqual({ asked: ['list repos/acme/app/actions/variables'], value: 'prod' });
  });
});

describe('Forgejo 13: a push mirror’s branch_filter (v13.0.0 modules/structs/mirror.go l.16, l.34, routers/api/v1/repo/mirror.go l.392; not in v12.0.0)', () => {
  const config = { version: 1, repos: { 'acme/app': { push_mirrors: [{ remote_address: 'https://example.com/acme/app.git', interval: '8h', branch_filter: 'main' }] } } };

  it('Forgejo 12.0.0 refuses it at its place; 13.0.0 takes it', () => {
    expect(messages(config, forgejo('12.0.0'))).toEqual(['branch_filter needs Forgejo ≥ 13 (server: Forgejo 12.0.0)']);
    expect(messages(config, forgejo('13.0.0'))).toEqual([]);
  });
});

describe('Forgejo 14: hook events package and action_run_* on create (v14.0.0 routers/api/v1/utils/hook.go l.213-216; not in v13.0.0)', () => {
  const config = { version: 1, orgs: { acme: { webhooks: [{ type: 'gitea', url: 'https://ci.example.com/hook', events: ['push', 'package', 'action_run_failure'] }] } } };

  it('Forgejo 13.0.0 refuses both at events; 14.0.0 takes them', () => {
    expect(messages(config, forgejo('13.0.0'))).toEqual(['event package needs Gitea ≥ 1.23 or Forgejo ≥ 14 (server: Forgejo 13.0.0)', 'event action_run_failure needs Forgejo ≥ 14 (server: Forgejo 13.0.0)']);
    expect(messages(config, forgejo('14.0.0'))).toEqual([]);
  });
});

describe('Forgejo 14: DELETE /admin/users/{username}/emails (v14.0.0 routers/api/v1/api.go l.1670-1672; not in v13.0.0)', () => {
  it('the release table says 14, not 13', () => {
    expect(serverHas(forgejo('13.0.0'), ADMIN_USER_EMAILS)).toBe(false);
    expect(serverHas(forgejo('14.0.0'), ADMIN_USER_EMAILS)).toBe(true);
  });
});
