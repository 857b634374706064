// Repository and organisation webhooks end to end: the built CLI against the sandbox (see test/e2e/helpers.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSeedFile, type SeedFile } from '../../src/sandbox/index.js';
import { FLAVOURS } from '../../src/sandbox/flavours/flavour.js';
import type { ApiHook } from '../support/api-types.js';
import { ADMIN_TOKEN, calls, requestsTo, runCli, world, type World, writes } from './helpers.js';

const HOOK_SECRET = 'repo-hook-secret-4b1d';
const HOOK_TOKEN = 'org-hook-bearer-8e2a';
const env = { HOOK_SECRET, HOOK_TOKEN };

const ciHook = (extra: Record<string, unknown> = {}) => ({
  type: 'gitea',
  config: { url: 'https://ci.example.com/hook', content_type: 'json' },
  events: ['push', 'pull_request'],
  branch_filter: 'main',
  active: true,
  ...extra,
});

function seed(repoHooks: Record<string, unknown>[] = [], orgHooks: Record<string, unknown>[] = []): SeedFile {
  return {
    users: [{ username: 'root', admin: true, email: 'root@example.com' }],
    orgs: [{ name: 'acme', owners: ['root'], hooks: orgHooks }],
    repos: [{ name: 'acme/widgets', hooks: repoHooks }],
  };
}

let w: World;
afterEach(async () => w?.sandbox.close());

async function hooksOf(w: World, path: string): Promise<ApiHook[]> {
  return (await w.api<ApiHook[]>('GET', `${path}/hooks?limit=50`)).body;
}

const CONFIG = `version: 1
orgs:
  acme:
    webhooks:
      - url: https://chat.example.com/acme
        type: slack
        channel: "#acme"
        events: [issues_only, release]
        authorization_header: "Bearer \${HOOK_TOKEN}"
repos:
  acme/widgets:
    webhooks:
      - url: https://ci.example.com/hook
        events: [push, pull_request]
        branch_filter: main
        secret: \${HOOK_SECRET}
`;

describe('repository and organisation webhooks end to end', () => {
  it('creates them with their secrets, which no output nor the plan file shows, one list read per scope; a second plan is empty', async () => {
    w = await world(seed());
    const file = w.config(CONFIG);
    const planFile = `${w.dir}/plan.json`;
    const plan = await w.cli(['plan', '-c', file, '--out', planFile], env);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/\+ organisation webhook "slack https:\/\/chat.example.com\/acme"[\s\S]*\+ authorization_header\s+= \(sensitive, from "Bearer \$\{HOOK_TOKEN\}"\)/);
    expect(plan.stdout).toMatch(/\+ repository webhook "gitea https:\/\/ci.example.com\/hook"[\s\S]*\+ secret\s+= \(sensitive, from \$\{HOOK_SECRET\}\)/);
    // one list per scope, no read per hook
    expect(calls(w.sandbox).filter((c) => c.endsWith('/hooks') || c.includes('/hooks?')).sort()).toEqual(['GET orgs/acme/hooks', 'GET repos/acme/widgets/hooks']);
    const json = await w.cli(['plan', '-c', file, '--format', 'json'], env);
    const saved = readFileSync(planFile, 'utf8');

    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', planFile], env);
    expect(apply.code, apply.stderr).toBe(0);
    for (const text of [plan.stdout, plan.stderr, json.stdout, json.stderr, saved, apply.stdout, apply.stderr]) {
      expect(text).not.toContain(HOOK_SECRET);
      expect(text).not.toContain(HOOK_TOKEN);
    }
    expect(writes(w.sandbox).sort()).toEqual(['POST orgs/acme/hooks', 'POST repos/acme/widgets/hooks']);
    // the bodies: identity, secret and what is declared; no admin key (is_system_webhook)
    expect(requestsTo(w.sandbox, 'POST', 'repos/acme/widgets/hooks')[0]!.body).toEqual({
      type: 'gitea',
      config: { url: 'https://ci.example.com/hook', content_type: 'json', secret: HOOK_SECRET },
      events: ['push', 'pull_request'],
      active: true,
      branch_filter: 'main',
    });
    expect(requestsTo(w.sandbox, 'POST', 'orgs/acme/hooks')[0]!.body).toEqual({
      type: 'slack',
      config: { url: 'https://chat.example.com/acme', content_type: 'json', channel: '#acme' },
      events: ['issues_only', 'release'],
      active: true,
      authorization_header: `Bearer ${HOOK_TOKEN}`,
    });
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    const [repoHook] = w.sandbox.state.data.webhooks.filter((h) => h.repoId !== 0);
    expect(repoHook).toMatchObject({ secret: HOOK_SECRET, active: true, branchFilter: 'main' });
    expect(w.sandbox.state.data.webhooks.find((h) => h.ownerId !== 0)).toMatchObject({ authorizationHeader: `Bearer ${HOOK_TOKEN}`, type: 'slack' });
    expect(w.sandbox.state.data.adminHooks).toEqual([]);

    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('No changes.');
  });

  it('an edit is one PATCH carrying the hook’s whole state, the authorization header sent back as the server holds it', async () => {
    w = await world(seed([ciHook({ authorization_header: 'Bearer kept-9c' })]));
    const [before] = await hooksOf(w, 'repos/acme/widgets');
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    webhooks:\n      - { url: "https://ci.example.com/hook", branch_filter: "{main,release/*}" }\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.stdout).toMatch(/~ repository webhook "gitea https:\/\/ci.example.com\/hook"\n\s+~ branch_filter: "main" → "\{main,release\/\*\}"/);
    expect(plan.stdout).toContain('the authorization header is sent back as the server holds it');
    expect(plan.stdout).not.toContain('kept-9c');
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(writes(w.sandbox)).toEqual([`PATCH repos/acme/widgets/hooks/${before!.id}`]);
    expect(requestsTo(w.sandbox, 'PATCH', `repos/acme/widgets/hooks/${before!.id}`)[0]?.body).toEqual({
      config: { url: 'https://ci.example.com/hook', content_type: 'json' },
      events: ['pull_request', 'push'],
      branch_filter: '{main,release/*}',
      active: true,
      authorization_header: 'Bearer kept-9c',
    });
    expect(apply.stdout + apply.stderr).not.toContain('kept-9c');
    const [after] = await hooksOf(w, 'repos/acme/widgets');
    expect(new Set(after!.events)).toEqual(new Set(before!.events));
    expect(w.sandbox.state.data.webhooks[0]!.authorizationHeader).toBe('Bearer kept-9c');
    expect((await w.cli(['plan', '-c', file, '--detailed-exitcode'])).code).toBe(0);
  });

  it('--rotate-secrets replaces a hook (delete + create), the only way to change its secret', async () => {
    w = await world(seed([], [ciHook()]));
    const [old] = await hooksOf(w, 'orgs/acme');
    const file = w.config('version: 1\norgs:\n  acme:\n    webhooks:\n      - { url: "https://ci.example.com/hook", events: [push, pull_request], branch_filter: main, secret: "${HOOK_SECRET}" }\n');
    expect((await w.cli(['plan', '-c', file, '--detailed-exitcode'], env)).code).toBe(0);
    const plan = await w.cli(['plan', '-c', file, '--rotate-secrets'], env);
    expect(plan.stdout).toMatch(/-\/\+ organisation webhook "gitea https:\/\/ci.example.com\/hook" \(replaced: deleted and created again\)\n\s+\+ secret = \(sensitive, from \$\{HOOK_SECRET\}\)/);
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes', '--rotate-secrets'], env);
    expect(apply.code, apply.stderr).toBe(0);
    expect(writes(w.sandbox)).toEqual([`DELETE orgs/acme/hooks/${old!.id}`, 'POST orgs/acme/hooks']);
    const post = requestsTo(w.sandbox, 'POST', 'orgs/acme/hooks')[0]?.body as { events: string[] };
    expect(post).toMatchObject({ config: { secret: HOOK_SECRET }, branch_filter: 'main' });
    expect([...post.events].sort()).toEqual(['pull_request', 'push']);
    expect(w.sandbox.state.data.webhooks).toHaveLength(1);
    expect(w.sandbox.state.data.webhooks[0]).toMatchObject({ secret: HOOK_SECRET, ownerId: expect.any(Number) as number });
    expect(apply.stdout + apply.stderr).not.toContain(HOOK_SECRET);
  });

  it('prunes undeclared webhooks only with webhooks in policy.prune, in the scopes the config names', async () => {
    const other = { type: 'discord', config: { url: 'https://discord.example.com/x', content_type: 'json' }, events: ['release'], active: false };
    w = await world(seed([ciHook(), other], [other]));
    const declared = 'repos:\n  acme/widgets:\n    webhooks:\n      - { url: "https://ci.example.com/hook" }\norgs:\n  acme:\n    webhooks: []\n';
    const keep = await w.cli(['apply', '-c', w.config(`version: 1\n${declared}`), '--yes']);
    expect(keep.code, keep.stderr).toBe(0);
    expect(keep.stdout).toContain('No changes.');
    expect(writes(w.sandbox)).toEqual([]);
    const repoOther = (await hooksOf(w, 'repos/acme/widgets')).find((h) => h.type === 'discord')!;
    const orgOther = (await hooksOf(w, 'orgs/acme'))[0]!;
    const prune = await w.cli(['apply', '-c', w.config(`version: 1\npolicy: { prune: [webhooks] }\n${declared}`), '--yes']);
    expect(prune.code, prune.stderr).toBe(0);
    expect(prune.stdout).toContain('- repository webhook "discord https://discord.example.com/x"');
    expect(prune.stdout).toContain('- organisation webhook "discord https://discord.example.com/x"');
    expect(writes(w.sandbox).sort()).toEqual([`DELETE orgs/acme/hooks/${orgOther.id}`, `DELETE repos/acme/widgets/hooks/${repoOther.id}`]);
    expect((await hooksOf(w, 'repos/acme/widgets')).map((h) => h.type)).toEqual(['gitea']);
    expect(await hooksOf(w, 'orgs/acme')).toEqual([]);
  });

  it('the same hook declared twice is an error at both places; two on the server matching one declared are left alone', async () => {
    w = await world(seed([ciHook(), ciHook({ branch_filter: 'dev' })]));
    const twice = w.config('version: 1\nrepos:\n  acme/widgets:\n    webhooks:\n      - { url: "https://ci.example.com/hook" }\n      - { url: "https://ci.example.com/hook", type: gitea }\n');
    const plan = await w.cli(['plan', '-c', twice]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${twice}:6:9: this hook (type gitea, url https://ci.example.com/hook) is declared twice: here and at ${twice}:5:9`);
    const file = w.config('version: 1\npolicy: { prune: [webhooks] }\nrepos:\n  acme/widgets:\n    webhooks:\n      - { url: "https://ci.example.com/hook", branch_filter: release }\n', 'b.yaml');
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain('repository webhook "gitea https://ci.example.com/hook" in acme/widgets: 2 objects with this name exist on the server; forgeform changes none of them');
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('refuses a URL with credentials, a matrix hook (its room cannot be set) and type forgejo on Gitea, before writing anything', async () => {
    w = await world(seed(), { flavour: 'gitea@1.25' });
    const creds = w.config('version: 1\nrepos:\n  acme/widgets:\n    webhooks:\n      - { url: "https://deploy:hunter2-77@ci.example.com/hook" }\n');
    const a = await w.cli(['plan', '-c', creds]);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain('url: the URL holds credentials');
    expect(a.stdout + a.stderr).not.toContain('hunter2-77');
    const matrix = await w.cli(['plan', '-c', w.config('version: 1\norgs:\n  acme:\n    webhooks:\n      - { url: "https://matrix.example.com/x", type: matrix }\n', 'm.yaml')]);
    expect(matrix.code).toBe(1);
    expect(matrix.stderr).toContain("Gitea's API cannot set the room settings of a matrix hook");
    const forgejo = await w.cli(['plan', '-c', w.config('version: 1\norgs:\n  acme:\n    webhooks:\n      - { url: "https://ci.example.com/x", type: forgejo }\n', 'f.yaml')]);
    expect(forgejo.code).not.toBe(0);
    expect(forgejo.stderr).toContain('type forgejo needs Forgejo (server: Gitea 1.25.4)');
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('on Forgejo, refuses to create a sourcehut_builds hook, whose manifest the API cannot set', async () => {
    w = await world(seed(), { flavour: 'forgejo@15' });
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    webhooks:\n      - { url: "https://builds.sr.ht/x", type: sourcehut_builds }\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${file}:5:42: repository webhook "sourcehut_builds https://builds.sr.ht/x" in acme/widgets: Gitea's API cannot set the manifest settings of a sourcehut_builds hook`);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('writes the webhooks of an archived repository (Gitea has no 423 there), and a server URL with a newline forges no plan line', async () => {
    const hostile = { type: 'gitea', config: { url: 'https://evil.example.com/x\n  + repository webhook "gitea https://forged.example.com"', content_type: 'json' }, active: true };
    w = await world({ ...seed([hostile]), repos: [{ name: 'acme/widgets', archived: true, hooks: [hostile] }] });
    const file = w.config('version: 1\npolicy: { prune: [webhooks] }\nrepos:\n  acme/widgets:\n    webhooks:\n      - { url: "https://ci.example.com/hook" }\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).not.toMatch(/^\s*\+ repository webhook "gitea https:\/\/forged/m);
    // The URL as URLs are parsed (WHATWG drops a line break inside a URL), within its quotes: one line.
    expect(plan.stdout).toContain('- repository webhook "gitea https://evil.example.com/x  + repository webhook \\"gitea https://forged.example.com\\""');
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(writes(w.sandbox).map((c) => c.replace(/\d+$/, 'N')).sort()).toEqual(['DELETE repos/acme/widgets/hooks/N', 'POST repos/acme/widgets/hooks']);
    expect((await hooksOf(w, 'repos/acme/widgets')).map((h) => h.config.url)).toEqual(['https://ci.example.com/hook']);
  });

  it('export writes the webhooks of each scope without their secrets, and planning the export shows no changes', async () => {
    w = await world(
      seed(
        [ciHook({ config: { url: 'https://ci.example.com/hook', content_type: 'form', secret: HOOK_SECRET }, events: ['issues', 'pull_request_review', 'create'] })],
        [{ type: 'slack', config: { url: 'https://chat.example.com/acme', content_type: 'json', channel: '#ops', color: 'good' }, events: ['issues_only'], active: false }],
      ),
    );
    const exported = `${w.dir}/exported.yaml`;
    const r = await runCli(['export', '--include', 'webhooks', '--include', 'acme', '--include', 'acme/widgets', '-o', exported], { env: { FORGEFORM_URL: w.sandbox.url, FORGEFORM_TOKEN: ADMIN_TOKEN } });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(exported, 'utf8');
    expect(text).not.toContain(HOOK_SECRET);
    expect(text).not.toMatch(/secret|authorization_header/);
    expect(text).toContain('webhooks:\n      - url: https://ci.example.com/hook\n        type: gitea\n        content_type: form\n        events:\n          - create\n          - issues\n          - pull_request_review\n');
    expect(text).toContain('channel: "#ops"');
    const plan = await w.cli(['plan', '-c', exported, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain('No changes.');
  });
});

// Every flavour serves the hook routes of repositories and organisations (Gitea 1.21 on, Forgejo 7 on).
describe.each(FLAVOURS.map((f) => [f.name, f.fork] as const))('webhooks on %s', (flavour, fork) => {
  it('plan → apply → plan is empty, secrets never shown', async () => {
    w = await world(seed(), { flavour });
    // Forgejo's own hook type exists on Forgejo only.
    const file = w.config(CONFIG.replace('branch_filter: main', fork === 'forgejo' ? 'branch_filter: main\n        type: forgejo' : 'branch_filter: main'));
    const planFile = `${w.dir}/plan.json`;
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode', '--out', planFile], env);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    w.sandbox.clearRequests();
    // the saved plan, applied: the secrets are read from the environment again
    const apply = await w.cli(['apply', planFile], env);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(writes(w.sandbox).sort()).toEqual(['POST orgs/acme/hooks', 'POST repos/acme/widgets/hooks']);
    // no key the release does not know (name is never sent unless declared)
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    expect(w.sandbox.state.data.webhooks.map((h) => h.secret).filter(Boolean)).toEqual([HOOK_SECRET]);
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    for (const text of [plan.stdout, plan.stderr, readFileSync(planFile, 'utf8'), apply.stdout, apply.stderr, again.stdout]) {
      expect(text).not.toContain(HOOK_SECRET);
      expect(text).not.toContain(HOOK_TOKEN);
    }
    expect((await hooksOf(w, 'repos/acme/widgets')).map((h) => h.type)).toEqual([fork === 'forgejo' ? 'forgejo' : 'gitea']);
  });
});

describe('the webhooks example', () => {
  it('plans, applies, and then plans no changes (examples/webhooks)', async () => {
    const dir = fileURLToPath(new URL('../../examples/webhooks/', import.meta.url));
    w = await world(loadSeedFile(`${dir}seed.yaml`));
    const exampleEnv = { CI_HOOK_SECRET: 'hook-signing-secret', CHAT_TOKEN: 'chat-bearer-token' };
    const file = `${dir}forgeform.yaml`;
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode'], exampleEnv);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stdout).toContain('Plan: 2 to create, 1 to update, 1 to delete, 0 to rename.');
    const apply = await w.cli(['apply', '-c', file, '--yes'], exampleEnv);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], exampleEnv);
    expect(again.code, again.stdout).toBe(0);
    expect(plan.stdout + apply.stdout + apply.stderr + again.stdout).not.toMatch(/hook-signing-secret|chat-bearer-token/);
  });
});

describe('webhook events as the releases before Gitea 1.24 and Forgejo report them', () => {
  const YAML = `version: 1
repos:
  acme/widgets:
    webhooks:
      - url: https://ci.example.com/comments
        events: [pull_request_comment]
      - url: https://ci.example.com/reviews
        events: [pull_request_review]
`;
  // Gitea ≤ 1.23 and every Forgejo report the events by walking Webhook.EventCheckers(): the review as
  // approved + rejected, and pull_request_review_comment for the pull_request_comment flag.
  it.each(['gitea@1.21', 'gitea@1.23', 'forgejo@11', 'gitea@1.25'])('%s: a hook on pull request comments and one on reviews converge in one apply', async (flavour) => {
    w = await world(seed(), { flavour });
    const file = w.config(YAML);
    expect((await w.cli(['plan', '-c', file, '--detailed-exitcode'])).code).toBe(2);
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const hooks = await hooksOf(w, 'repos/acme/widgets');
    const events = (url: string) => [...hooks.find((h) => h.config.url === url)!.events].sort();
    const checkers = flavour !== 'gitea@1.25';
    expect(events('https://ci.example.com/comments')).toEqual(checkers ? ['pull_request_comment', 'pull_request_review_comment'] : ['pull_request_comment']);
    expect(events('https://ci.example.com/reviews')).toEqual(checkers ? ['pull_request_review_approved', 'pull_request_review_rejected'] : ['pull_request_review']);
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});
