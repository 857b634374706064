// Admin hooks on released servers (docs/servers-writes.md): they return the authorization header in
// clear, so forgeform compares it and sends it back, and never shows it; only Gitea ≥ 1.24 lists
// default hooks; hook names exist from Gitea 1.26.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { calls, world, type World } from './helpers.js';

const SERVER_HEADER = 'Bearer server-held-token-5e1d';
const HOOK_TOKEN = 'server-held-token-5e1d';
const DRIFTED = 'Bearer drifted-value-77ab';
const URL = 'https://ci.example.com/hook';

const seed: SeedFile = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  hooks: [
    { type: 'gitea', config: { url: URL, content_type: 'json', is_system_webhook: true }, events: ['push'], branch_filter: 'main', active: true, authorization_header: SERVER_HEADER },
    { type: 'gitea', config: { url: 'https://default.example.com/hook', content_type: 'json', is_system_webhook: false }, events: ['push'], active: true },
  ],
};

let w: World;
afterEach(async () => w?.sandbox.close());

const stored = (w: World) => w.sandbox.state.data.adminHooks.find((h) => h.url === URL)!;
const patchBody = (w: World) => w.sandbox.requests().find((r) => r.method === 'PATCH')?.body as Record<string, unknown> | undefined;

describe.each(['gitea@1.25', 'forgejo@11'])('the authorization header on %s (returned in clear)', (flavour) => {
  it('an edit the header is not part of sends it back as the server holds it; no output, plan file or export shows it', async () => {
    w = await world(seed, { flavour });
    const file = w.config(`version: 1\nhooks:\n  - { url: "${URL}", branch_filter: "release/*" }\n`);
    const planFile = `${w.dir}/plan.json`;
    const plan = await w.cli(['plan', '-c', file, '--out', planFile]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/~ branch_filter: "main" → "release\/\*"/);
    expect(plan.stdout).toContain('# the authorization header is sent back as the server holds it: Gitea clears it on any edit that omits it');
    const json = await w.cli(['plan', '-c', file, '--format', 'json']);
    const markdown = await w.cli(['plan', '-c', file, '--format', 'markdown']);
    const saved = readFileSync(planFile, 'utf8');
    const apply = await w.cli(['apply', planFile]);
    expect(apply.code).toBe(0);
    expect(patchBody(w)).toMatchObject({ branch_filter: 'release/*', authorization_header: SERVER_HEADER });
    expect(stored(w)).toMatchObject({ branchFilter: 'release/*', authorizationHeader: SERVER_HEADER });
    const exported = `${w.dir}/export.yaml`;
    const exp = await w.cli(['export', '--include', 'hooks', '-o', exported]);
    expect(exp.code).toBe(0);
    const again = await w.cli(['plan', '-c', file]);
    expect(again.stdout).toContain('No changes.');
    for (const text of [plan.stdout, plan.stderr, json.stdout, json.stderr, markdown.stdout, saved, apply.stdout, apply.stderr, exp.stdout, exp.stderr, readFileSync(exported, 'utf8'), again.stdout, again.stderr])
      expect(text).not.toContain(HOOK_TOKEN);
  });

  it('a declared header is compared: equal is no change, a drifted one is a masked change that apply puts right', async () => {
    w = await world(seed, { flavour });
    const file = w.config(`version: 1\nhooks:\n  - { url: "${URL}", branch_filter: main, authorization_header: "Bearer \${HOOK_TOKEN}" }\n`);
    const env = { HOOK_TOKEN };
    const same = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('No changes.');
    expect(same.stdout).not.toContain('not compared');

    stored(w).authorizationHeader = DRIFTED;
    const planFile = `${w.dir}/plan.json`;
    const plan = await w.cli(['plan', '-c', file, '--out', planFile], env);
    expect(plan.stdout).toMatch(/~ admin webhook "system gitea https:\/\/ci.example.com\/hook"\n\s+~ authorization_header: \(sensitive\) → \(sensitive, from "Bearer \$\{HOOK_TOKEN\}"\)/);
    const json = await w.cli(['plan', '-c', file, '--format', 'json'], env);
    const apply = await w.cli(['apply', planFile], env);
    expect(apply.code).toBe(0);
    expect(stored(w).authorizationHeader).toBe(SERVER_HEADER);
    expect((await w.cli(['plan', '-c', file], env)).stdout).toContain('No changes.');
    for (const text of [plan.stdout, plan.stderr, json.stdout, readFileSync(planFile, 'utf8'), apply.stdout, apply.stderr]) {
      expect(text).not.toContain('drifted-value');
      expect(text).not.toContain(HOOK_TOKEN);
    }
  });
});

describe('default hooks where the server cannot list them', () => {
  it.each(['gitea@1.23', 'forgejo@11'])('%s: one list, the system hooks; pruning deletes no system hook taken for a default one', async (flavour) => {
    w = await world(seed, { flavour });
    const file = w.config(`version: 1\npolicy: { prune: [hooks] }\nhooks:\n  - { url: "${URL}", branch_filter: main }\n`);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    expect(calls(w.sandbox).filter((c) => c.startsWith('GET admin/hooks'))).toEqual(['GET admin/hooks']);
  });

  it.each(['gitea@1.23', 'forgejo@11'])('%s: a declared default hook is a plan error naming the release', async (flavour) => {
    w = await world(seed, { flavour });
    const file = w.config('version: 1\nhooks:\n  - url: https://default.example.com/hook\n    scope: default\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(new RegExp(`${file}:4:5: admin webhook "default gitea https://default.example.com/hook": (Gitea 1\\.23\\.\\d+|Forgejo 11\\.0\\.\\d+) cannot list default hooks`));
    expect(plan.stderr).toContain('Gitea ≥ 1.24 has ?type=default');
  });

  it('gitea@1.24 lists them by type, as before', async () => {
    w = await world(seed, { flavour: 'gitea@1.24' });
    const file = w.config('version: 1\nhooks:\n  - { url: https://default.example.com/hook, scope: default, active: true }\n');
    expect((await w.cli(['plan', '-c', file])).stdout).toContain('No changes.');
  });
});

describe('hook names', () => {
  it('name on Gitea 1.25 is a plan error (the server would ignore it); on Gitea 1.26 it is sent', async () => {
    w = await world(seed, { flavour: 'gitea@1.25' });
    const yaml = `version: 1\nhooks:\n  - { url: "${URL}", name: CI }\n`;
    const file = w.config(yaml);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${file}:3:43: name needs Gitea ≥ 1.26 (server: Gitea 1.25.4): the server would ignore it`);
    await w.sandbox.close();
    w = await world(seed, { flavour: 'gitea@1.26' });
    const there = w.config(yaml);
    expect((await w.cli(['apply', '-c', there, '--yes'])).code).toBe(0);
    expect(stored(w).name).toBe('CI');
    expect((await w.cli(['plan', '-c', there])).stdout).toContain('No changes.');
  });
});
