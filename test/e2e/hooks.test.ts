import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import type { ApiHook } from '../support/api-types.js';
import { ADMIN_TOKEN, calls, requestsTo, runCli, world, type World, writes } from './helpers.js';

const HOOK_SECRET = 'hook-signing-secret-7f3a';
const HOOK_TOKEN = 'ci-bearer-token-19c2';
const users: SeedFile['users'] = [{ username: 'root', admin: true, email: 'root@example.com' }];
const ciHook = (extra: Record<string, unknown> = {}) => ({
  type: 'gitea',
  config: { url: 'https://ci.example.com/hook', content_type: 'json', is_system_webhook: true },
  events: ['push', 'pull_request'],
  branch_filter: 'main',
  active: true,
  ...extra,
});

let w: World;
afterEach(async () => w?.sandbox.close());

async function hooks(w: World, type: 'system' | 'default' | 'all' = 'all'): Promise<ApiHook[]> {
  return (await w.api<ApiHook[]>('GET', `admin/hooks?type=${type}&limit=50`)).body;
}

describe('admin webhooks end to end', () => {
  it('creates hooks with their secrets, which no output nor the plan file shows; a second plan is empty after Gitea expands the events', async () => {
    w = await world({ users });
    const file = w.config(`version: 1
hooks:
  - url: https://ci.example.com/hook
    events: [push, issues, pull_request]
    branch_filter: main
    secret: \${HOOK_SECRET}
    authorization_header: "Bearer \${HOOK_TOKEN}"
  - url: https://hooks.slack.example.com/x
    scope: default
    type: slack
    channel: "#dev"
    username: gitea
    events: [issues_only, pull_request_review]
`);
    const env = { HOOK_SECRET, HOOK_TOKEN };
    const planFile = `${w.dir}/plan.json`;
    const plan = await w.cli(['plan', '-c', file, '--out', planFile], env);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/\+ admin webhook "system gitea https:\/\/ci.example.com\/hook"[\s\S]*\+ secret\s+= \(sensitive, from \$\{HOOK_SECRET\}\)[\s\S]*\+ authorization_header\s+= \(sensitive, from "Bearer \$\{HOOK_TOKEN\}"\)/);
    expect(plan.stdout).toContain('+ admin webhook "default slack https://hooks.slack.example.com/x"');
    // the list does not say which hooks are system ones: one list per type
    expect(calls(w.sandbox)).toEqual(['GET version', 'GET /api/forgejo/v1/version', 'GET admin/hooks', 'GET admin/hooks']);
    expect(w.sandbox.requests().filter((r) => r.path.endsWith('/admin/hooks')).map((r) => r.query.type).sort()).toEqual(['default', 'system']);
    const json = await w.cli(['plan', '-c', file, '--format', 'json'], env);
    const saved = readFileSync(planFile, 'utf8');

    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', planFile], env);
    expect(apply.code).toBe(0);
    for (const text of [plan.stdout, plan.stderr, json.stdout, json.stderr, saved, apply.stdout, apply.stderr]) {
      expect(text).not.toContain(HOOK_SECRET);
      expect(text).not.toContain(HOOK_TOKEN);
    }
    const savedCi = (JSON.parse(saved) as { changes: { key: string; ops: { body: { config: Record<string, unknown> } }[] }[] }).changes.find((c) => c.key.startsWith('system'))!;
    expect(savedCi.ops[0]!.body.config.secret).toEqual({ $env: '${HOOK_SECRET}' });

    // ...while the hook was created with them
    const posts = requestsTo(w.sandbox, 'POST', 'admin/hooks').map((r) => r.body as { type: string; config: Record<string, unknown> });
    expect(posts).toHaveLength(2);
    const ci = posts.find((b) => b.type === 'gitea')!;
    expect(ci).toMatchObject({
      config: { url: 'https://ci.example.com/hook', content_type: 'json', is_system_webhook: 'true', secret: HOOK_SECRET },
      events: ['push', 'issues', 'pull_request'],
      active: true,
      authorization_header: `Bearer ${HOOK_TOKEN}`,
    });
    expect(posts.find((b) => b.type === 'slack')).toMatchObject({ config: { is_system_webhook: 'false', channel: '#dev', username: 'gitea' } });
    const stored = w.sandbox.state.data.adminHooks.find((h) => h.url === 'https://ci.example.com/hook')!;
    expect(stored).toMatchObject({ secret: HOOK_SECRET, authorizationHeader: `Bearer ${HOOK_TOKEN}`, isSystem: true, active: true });
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    expect((await hooks(w, 'default')).map((h) => h.type)).toEqual(['slack']);

    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });

  it('an edit sends the whole state of the hook, so that Gitea resets nothing (Gitea main, which no longer returns the authorization header)', async () => {
    w = await world({ users, hooks: [ciHook({ authorization_header: 'Bearer old' })] }, { flavour: 'gitea@main' });
    const before = (await hooks(w, 'system'))[0]!;
    const file = w.config('version: 1\nhooks:\n  - { url: "https://ci.example.com/hook", branch_filter: "{main,release/*}" }\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.stdout).toMatch(/~ admin webhook "system gitea https:\/\/ci.example.com\/hook"\n\s+~ branch_filter: "main" → "\{main,release\/\*\}"/);
    expect(plan.stdout).toContain('Gitea clears the authorization header of a hook on every edit that does not send it');
    w.sandbox.clearRequests();
    expect((await w.cli(['apply', '-c', file, '--yes'])).code).toBe(0);
    expect(writes(w.sandbox)).toEqual([`PATCH admin/hooks/${before.id}`]);
    expect(requestsTo(w.sandbox, 'PATCH', `admin/hooks/${before.id}`)[0]?.body).toEqual({
      config: { url: 'https://ci.example.com/hook', content_type: 'json' },
      events: ['pull_request', 'push'],
      branch_filter: '{main,release/*}',
      active: true,
    });
    const after = (await hooks(w, 'system'))[0]!;
    // events were not reset to [push]
    expect(new Set(after.events)).toEqual(new Set(before.events));
    expect(after.branch_filter).toBe('{main,release/*}');
    expect((await w.cli(['plan', '-c', file])).stdout).toContain('No changes.');

    // with authorization_header declared, every edit carries it
    const withHeader = w.config('version: 1\nhooks:\n  - { url: "https://ci.example.com/hook", branch_filter: main, authorization_header: "Bearer ${HOOK_TOKEN}" }\n');
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', withHeader, '--yes'], { HOOK_TOKEN });
    expect(apply.stdout).toContain('authorization_header is sent again');
    expect(requestsTo(w.sandbox, 'PATCH', `admin/hooks/${before.id}`)[0]?.body).toMatchObject({ branch_filter: 'main', authorization_header: `Bearer ${HOOK_TOKEN}` });
    expect(apply.stdout + apply.stderr).not.toContain(HOOK_TOKEN);
  });

  it('--rotate-secrets replaces a hook whose secret cannot be edited, shown as a replacement', async () => {
    w = await world({ users, hooks: [ciHook()] });
    const oldId = (await hooks(w))[0]!.id;
    const file = w.config('version: 1\nhooks:\n  - { url: "https://ci.example.com/hook", events: [push, pull_request], branch_filter: main, secret: "${HOOK_SECRET}" }\n');
    expect((await w.cli(['plan', '-c', file], { HOOK_SECRET })).stdout).toContain('No changes.');
    const plan = await w.cli(['plan', '-c', file, '--rotate-secrets'], { HOOK_SECRET });
    expect(plan.stdout).toMatch(/-\/\+ admin webhook "system gitea https:\/\/ci.example.com\/hook" \(replaced: deleted and created again\)\n\s+\+ secret = \(sensitive, from \$\{HOOK_SECRET\}\)/);
    expect(plan.stdout).toContain('Plan: 0 to create, 0 to update, 0 to delete, 0 to rename, 1 to replace.');
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes', '--rotate-secrets'], { HOOK_SECRET });
    expect(apply.code).toBe(0);
    expect(writes(w.sandbox)).toEqual([`DELETE admin/hooks/${oldId}`, 'POST admin/hooks']);
    const now = await hooks(w);
    expect(now).toHaveLength(1);
    expect(now[0]!.id).not.toBe(oldId);
    expect(w.sandbox.state.data.adminHooks[0]).toMatchObject({ secret: HOOK_SECRET, isSystem: true });
    expect(apply.stdout + apply.stderr).not.toContain(HOOK_SECRET);
  });

  it('two existing hooks matching one declared hook: the plan says so and changes neither, nor prunes them', async () => {
    w = await world({ users, hooks: [ciHook(), ciHook({ branch_filter: 'dev' })] });
    const file = w.config('version: 1\npolicy: { prune: [hooks] }\nhooks:\n  - { url: "https://ci.example.com/hook", branch_filter: release }\n');
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('Differs: admin webhook "system gitea https://ci.example.com/hook": 2 objects with this name exist on the server; forgeform changes none of them');
    // copies are a difference from the configuration, never "the server matches" (issue 18)
    expect(apply.stdout).toContain('No changes planned, but the server differs from the configuration');
    expect(apply.stdout).not.toContain('The server matches the configuration');
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('prunes undeclared hooks only with hooks in policy.prune, telling system and default hooks apart', async () => {
    const defaultTwin = { ...ciHook(), config: { url: 'https://ci.example.com/hook', content_type: 'json' } };
    w = await world({ users, hooks: [ciHook(), defaultTwin] });
    const declared = 'hooks:\n  - { url: "https://ci.example.com/hook", scope: system }\n';
    const keep = await w.cli(['apply', '-c', w.config(`version: 1\n${declared}`), '--yes']);
    expect(keep.stdout).toContain('No changes.');
    const defaultId = (await hooks(w, 'default'))[0]!.id;
    const prune = await w.cli(['apply', '-c', w.config(`version: 1\npolicy: { prune: [hooks] }\n${declared}`), '--yes']);
    expect(prune.code).toBe(0);
    expect(prune.stdout).toContain('- admin webhook "default gitea https://ci.example.com/hook"');
    expect(writes(w.sandbox)).toEqual([`DELETE admin/hooks/${defaultId}`]);
    expect(await hooks(w, 'default')).toEqual([]);
    expect(await hooks(w, 'system')).toHaveLength(1);
  });

  it('refuses to create a matrix hook, whose room Gitea’s API cannot set, and Slack settings on another type', async () => {
    w = await world({ users });
    const file = w.config('version: 1\nhooks:\n  - url: https://matrix.example.com/x\n    type: matrix\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${file}:4:5: admin webhook "system matrix https://matrix.example.com/x": Gitea's API cannot set the room settings of a matrix hook`);
    const slackKeys = await w.cli(['plan', '-c', w.config('version: 1\nhooks:\n  - { url: "https://x.example.com", channel: "#dev" }\n', 'b.yaml')]);
    expect(slackKeys.code).toBe(1);
    expect(slackKeys.stderr).toContain('hooks[0]: channel, username, icon_url and color are Slack settings: they need type: slack');
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('the same hook declared in two files is an error naming both places', async () => {
    w = await world({ users });
    const a = w.config('version: 1\nhooks:\n  - { url: "https://ci.example.com/hook" }\n', 'a.yaml');
    const b = w.config('version: 1\nhooks:\n  - { url: "https://other.example.com" }\n  - { url: "https://ci.example.com/hook", scope: system, type: gitea }\n', 'b.yaml');
    const plan = await w.cli(['plan', '-c', a, '-c', b]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${b}:4:5: this hook (scope system, type gitea, url https://ci.example.com/hook) is declared twice: here and at ${a}:3:5`);
  });

  it('--target hook:URL plans that hook only', async () => {
    w = await world({ users });
    const file = w.config('version: 1\nhooks:\n  - { url: "https://a.example.com/hook" }\n  - { url: "https://b.example.com/hook" }\n');
    const plan = await w.cli(['plan', '-c', file, '--target', 'hook:https://b.example.com/*']);
    expect(plan.stdout).toContain('+ admin webhook "system gitea https://b.example.com/hook"');
    expect(plan.stdout).not.toContain('a.example.com');
  });

  it('export writes the hooks without their secrets, and planning it shows no changes', async () => {
    w = await world({
      users,
      hooks: [
        ciHook({ config: { url: 'https://ci.example.com/hook', content_type: 'form', secret: HOOK_SECRET, is_system_webhook: true }, events: ['issues', 'pull_request_review', 'create'] }),
        { type: 'slack', config: { url: 'https://hooks.slack.example.com/x', content_type: 'json', channel: '#ops', color: 'good' }, events: ['issues_only'], active: false },
      ],
    });
    const exported = `${w.dir}/hooks.yaml`;
    const r = await runCli(['export', '--include', 'hooks', '-o', exported], { env: { FORGEFORM_URL: w.sandbox.url, FORGEFORM_TOKEN: ADMIN_TOKEN } });
    expect(r.code).toBe(0);
    const text = readFileSync(exported, 'utf8');
    expect(text).not.toContain(HOOK_SECRET);
    expect(text).not.toMatch(/secret|authorization_header/);
    expect(text).toContain('    events:\n      - create\n      - issues\n      - pull_request_review\n');
    expect(text).toContain('    events:\n      - issues_only\n');
    expect(text).toContain('channel: "#ops"');
    const plan = await w.cli(['plan', '-c', exported, '--detailed-exitcode']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('No changes.');
  });
});

describe('a server hook whose URL holds credentials', () => {
  it('is shown, saved, pruned and exported without its password', async () => {
    const PASSWORD = 'hunter2-in-the-url-91f0';
    w = await world({ users, hooks: [ciHook({ config: { url: `https://deploy:${PASSWORD}@ci.example.com/hook`, content_type: 'json', is_system_webhook: true } })] });
    const file = w.config('version: 1\npolicy: { prune: [hooks] }\nhooks: []\n');
    const planFile = `${w.dir}/plan.json`;
    const plan = await w.cli(['plan', '-c', file, '--out', planFile]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('- admin webhook "system gitea https://(sensitive)@ci.example.com/hook"');
    const json = await w.cli(['plan', '-c', file, '--format', 'json']);
    const exported = await w.cli(['export', '--include', 'hooks']);
    const apply = await w.cli(['apply', planFile]);
    expect(apply.code).toBe(0);
    for (const text of [plan.stdout, plan.stderr, json.stdout, json.stderr, readFileSync(planFile, 'utf8'), exported.stdout, exported.stderr, apply.stdout, apply.stderr]) {
      expect(text).not.toContain(PASSWORD);
    }
    expect(await hooks(w)).toEqual([]);
  });
});
