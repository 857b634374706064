import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
export const ADMIN_TOKEN = 'e2e-admin-token';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI as a separate process (the sandbox keeps serving in this one). */
export function runCli(args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: opts.cwd,
      env: { PATH: process.env.PATH, NO_COLOR: '1', FORGEFORM_RETRY_DELAY_MS: '5', ...opts.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}

export interface World {
  sandbox: Sandbox;
  dir: string;
  env: NodeJS.ProcessEnv;
  /** Writes a config file into the world's directory and returns its path. */
  config(yaml: string, name?: string): string;
  cli(args: string[], env?: NodeJS.ProcessEnv): Promise<CliResult>;
  /** An API call as the admin, straight to the sandbox. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
}

export async function world(seed: SandboxOptions['seed'], extra: Partial<SandboxOptions> = {}): Promise<World> {
  const sandbox = await startSandbox({ port: 0, token: ADMIN_TOKEN, ...(seed ? { seed } : {}), ...extra });
  const dir = mkdtempSync(join(tmpdir(), 'forgeform-e2e-'));
  const env = { FORGEFORM_URL: sandbox.url, FORGEFORM_TOKEN: ADMIN_TOKEN };
  return {
    sandbox,
    dir,
    env,
    config(yaml, name = 'forgeform.yaml') {
      const p = join(dir, name);
      writeFileSync(p, yaml);
      return p;
    },
    cli(args, more = {}) {
      return runCli(args, { env: { ...env, ...more }, cwd: dir });
    },
    async api<T>(method: string, path: string, body?: unknown) {
      // Worlds with fault injection answer the test's own reads with faults too: GETs try again.
      for (let attempt = 0; ; attempt++) {
        try {
          const res = await fetch(`${sandbox.url}/api/v1/${path}`, {
            method,
            headers: { authorization: `token ${ADMIN_TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
            ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          });
          const text = await res.text();
          if (method === 'GET' && (res.status >= 500 || res.status === 429) && attempt < 20) continue;
          return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
        } catch (e) {
          if (method !== 'GET' || attempt >= 20) throw e;
        }
      }
    },
  };
}

/** The API requests the sandbox received (without the /api/v1 prefix), e.g. "GET repos/acme/widgets/labels". */
export function calls(sandbox: Sandbox): string[] {
  return sandbox.requests().map((r) => `${r.method} ${r.path.replace(/^\/api\/v1\//, '')}`);
}
