import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startSandbox, type Sandbox, type SeedFile } from '../../src/sandbox/index.js';
import { runAction, type StepResult } from './runner.js';
import { apiCall } from '../support/api.js';
import { writes } from '../support/requests.js';

export const ADMIN_TOKEN = 'managed-admin-token-5d1e';
export const BOT_TOKEN = 'forge-bot-token-8c2b';
export const FORGE_ADMIN = 'forge-admin-token-3a9f';
export const HOOK_SECRET = 'hook-signing-secret-77e1';
export const PR = 1;

/** The managed server: acme/widgets with no labels yet. */
export const MANAGED_SEED: SeedFile = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets' }],
};

/**
 * The forge that runs the workflow — another server than the managed one, as it may be in real
 * life. Issue #1 of ci-bot/config stands for the pull request: the comment endpoints are the same
 * for issues and pull requests on Gitea, Forgejo and GitHub.
 */
export const FORGE_SEED: SeedFile = {
  users: [
    { username: 'root', admin: true },
    { username: 'ci-bot', token: BOT_TOKEN },
  ],
  repos: [{ name: 'ci-bot/config', issues: [{ title: 'Add the bug label', author: 'ci-bot' }] }],
};

export const CONFIG = `version: 1
hooks:
  - url: https://ci.example.com/hook
    events: [push]
    secret: \${HOOK_SECRET}
repos:
  acme/widgets:
    labels:
      bug: { color: ee0701, description: "Something is not working" }
      docs: { color: 0075ca }
`;

export interface ActionWorld {
  managed: Sandbox;
  forge: Sandbox;
  workspace: string;
  write(path: string, text: string): void;
  run(inputs: Record<string, string>, opts?: { sha?: string; event?: unknown; eventName?: string; env?: Record<string, string> }): Promise<StepResult>;
  /** An API call to one of the servers, as its admin. */
  api<T = unknown>(server: Sandbox, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

export async function actionWorld(actionDir: string, seeds: { managed?: SeedFile; forge?: SeedFile } = {}): Promise<ActionWorld> {
  const managed = await startSandbox({ port: 0, token: ADMIN_TOKEN, seed: seeds.managed ?? MANAGED_SEED });
  const forge = await startSandbox({ port: 0, token: FORGE_ADMIN, seed: seeds.forge ?? FORGE_SEED });
  const root = mkdtempSync(join(tmpdir(), 'forgeform-action-run-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  return {
    managed,
    forge,
    workspace,
    write(path, text) {
      mkdirSync(dirname(join(workspace, path)), { recursive: true });
      writeFileSync(join(workspace, path), text);
    },
    run(inputs, opts = {}) {
      const sha = opts.sha ?? 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
      return runAction(actionDir, { url: managed.url, token: ADMIN_TOKEN, ...inputs }, {
        workspace,
        apiUrl: `${forge.url}/api/v1`,
        repository: 'ci-bot/config',
        githubToken: BOT_TOKEN,
        event: opts.event ?? { action: 'synchronize', number: PR, pull_request: { number: PR, head: { sha } } },
        ...(opts.eventName ? { eventName: opts.eventName } : {}),
        sha: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
        env: { HOOK_SECRET, ...opts.env },
      });
    },
    async api<T>(server: Sandbox, method: string, path: string, body?: unknown) {
      const res = await apiCall<T>(server.url, method, path, { token: server === managed ? ADMIN_TOKEN : FORGE_ADMIN, ...(body !== undefined ? { body } : {}) });
      return { status: res.status, body: res.json };
    },
    async close() {
      await managed.close();
      await forge.close();
    },
  };
}

/** Writes to the managed server (anything but reads). */
export { writes as writesTo };
