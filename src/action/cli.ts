import { spawn } from 'node:child_process';

/** Set in the environment of the child process: the bundle then runs as the forgeform CLI. */
export const CLI_ROLE = 'FORGEFORM_ACTION_ROLE';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export const CLI_EXIT = { ok: 0, error: 1, changes: 2, unsafe: 3 } as const;

/**
 * Runs `forgeform ARGS` from this same bundle (`process.argv[1]`). The child gets the runner's
 * environment minus the action's `INPUT_*` variables (the CLI reads none of them, and the fewer
 * copies of a token the better), plus `extraEnv`.
 */
export function runCli(args: string[], opts: { cwd: string; extraEnv?: Record<string, string> }): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('INPUT_')) env[k] = v;
  Object.assign(env, opts.extraEnv, { [CLI_ROLE]: 'cli', NO_COLOR: '1' });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [process.argv[1]!, ...args], { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? CLI_EXIT.error, stdout, stderr }));
  });
}
