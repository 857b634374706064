import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { apiCall } from '../support/api.js';
import { runInProcess } from './in-process.js';

import { writes } from '../support/requests.js';

export { bodyOf, calls, positionOf, requestsTo, writes } from '../support/requests.js';

export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
export const ADMIN_TOKEN = 'e2e-admin-token';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment every CLI process of the tests starts from: no colour, short retry delays, nothing else of this one's. */
export function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, NO_COLOR: '1', FORGEFORM_RETRY_DELAY_MS: '5', ...extra };
}

export interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  /** What it wrote so far. */
  output(): { stdout: string; stderr: string };
  done: Promise<CliResult>;
}

/** Starts the built CLI as a separate process (the sandbox keeps serving in this one), for a test that acts while it runs. */
export function spawnCli(args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {}): RunningCli {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd, env: cliEnv(opts.env) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  child.stdin.end(opts.input ?? '');
  return { child, output: () => ({ stdout, stderr }), done };
}

/** How a test runs a command line: `process: true` spawns the built CLI, for a test of what the process does. */
export interface CliOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  input?: string;
  /**
   * A process of its own instead of a run inside the test's process: for what only a process shows
   * (signals, two runs at once, the lock's holder being a process that ends, the bin, a crash's exit).
   */
  process?: boolean;
}

/**
 * Runs the built CLI to its end: inside this process by default (test/e2e/in-process.ts: the same
 * stdout, stderr and exit code as a process, without starting one), as a process with `process: true`.
 */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  if (opts.process) return spawnCli(args, opts).done;
  // A child's environment holds no variable whose value is undefined (spawn leaves them out): neither does this run's.
  const env = Object.fromEntries(Object.entries(cliEnv(opts.env)).filter(([, v]) => v !== undefined));
  return runInProcess(args, { ...opts, env });
}

export interface World {
  sandbox: Sandbox;
  dir: string;
  env: NodeJS.ProcessEnv;
  /** Writes a config file into the world's directory and returns its path. */
  config(yaml: string, name?: string): string;
  /** The built CLI in the world's directory with its server and token (in this process unless `how.process`: see runCli). */
  cli(args: string[], env?: NodeJS.ProcessEnv, how?: { process?: boolean }): Promise<CliResult>;
  /** An API call as the admin, straight to the sandbox. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
}

/** A sandbox serving in this process and a directory; `cli.process`: every `w.cli` of it is a process of its own (see runCli). */
export async function world(seed: SandboxOptions['seed'], extra: Partial<SandboxOptions> = {}, cli: { process?: boolean } = {}): Promise<World> {
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
    cli(args, more = {}, how = {}) {
      return runCli(args, { env: { ...env, ...more }, cwd: dir, ...cli, ...how });
    },
    async api<T>(method: string, path: string, body?: unknown) {
      // Worlds with fault injection answer the test's own reads with faults too: GETs try again.
      for (let attempt = 0; ; attempt++) {
        try {
          const res = await apiCall<T>(sandbox.url, method, path, { token: ADMIN_TOKEN, ...(body !== undefined ? { body } : {}) });
          if (method === 'GET' && (res.status >= 500 || res.status === 429) && attempt < 20) continue;
          return { status: res.status, body: res.json };
        } catch (e) {
          if (method !== 'GET' || attempt >= 20) throw e;
        }
      }
    },
  };
}

/** `plan -c FILE --detailed-exitcode`, checked for its exit code (2: changes, 0: none, 1: refused); its output is shown when the code differs. */
export async function planExits(w: World, file: string, code: 0 | 1 | 2): Promise<CliResult> {
  const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
  expect(plan.code, plan.stdout + plan.stderr).toBe(code);
  return plan;
}

/** `apply -c FILE --yes`, checked to succeed; its output is shown when it does not. */
export async function applies(w: World, file: string): Promise<CliResult> {
  const apply = await w.cli(['apply', '-c', file, '--yes']);
  expect(apply.code, apply.stdout + apply.stderr).toBe(0);
  return apply;
}

/** Exports the server to a file, which must succeed, and plans that file, which must change nothing and write nothing; returns what export wrote. */
export async function exportRoundTrip(w: World): Promise<string> {
  const out = `${w.dir}/exported.yaml`;
  const exported = await w.cli(['export', '-o', out]);
  expect(exported.code, exported.stderr).toBe(0);
  w.sandbox.clearRequests();
  const plan = await w.cli(['plan', '-c', out, '--detailed-exitcode']);
  expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  expect(writes(w.sandbox)).toEqual([]);
  return readFileSync(out, 'utf8');
}

/**
 * An exported config with its secrets mapped, as a user does before planning it: export writes each secret as a
 * placeholder that refuses to plan (issue 28), here mapped to the variable of the secret's own name (the test sets it).
 */
export function mapExportedSecrets(text: string, variable: (secret: string) => string = (name) => name): string {
  return text.replace(/(\n\s+([A-Z_]+):\n\s+value: )"\(unmapped[^\n]*/g, (_m, head: string, name: string) => `${head}"\${${variable(name)}}"`);
}
